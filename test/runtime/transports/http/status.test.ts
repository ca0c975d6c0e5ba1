/** Availability and status: timeouts, refused connections, HTTP status mapping, non-JSON and empty bodies. */
import { describe, expect, it } from "vitest";
import { Registry, registerTool } from "../../../../runtime/load/registry.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { sendJson, startServer } from "../../../helpers/http-server.js";
import { httpHarness, refusal, TOOL } from "./harness.js";

const harness = httpHarness();

describe("availability and status", () => {
  it("times out a server that never answers (INVOCATION_UNAVAILABLE)", async () => {
    const h = await harness(() => undefined, { timeoutMs: 150 });
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("INVOCATION_UNAVAILABLE");
    expect(error.retryable).toBe(true);
    expect(error.details.reason).toBe("timeout");
  }, 10_000);

  it("times out a body that stalls after the headers (INVOCATION_UNAVAILABLE)", async () => {
    const h = await harness(
      (_request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"a":');
      },
      { timeoutMs: 150 },
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("INVOCATION_UNAVAILABLE");
  }, 10_000);

  it("maps a refused connection to INVOCATION_UNAVAILABLE", async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const registry = new Registry([
      registerTool({ tool: TOOL, source: "api", sourceKind: "openapi", defs: {} }),
    ]);
    const router = SchemaRouter.fromRegistry(registry, { bindings: { api: { baseUrl: closed.url } } });
    const registered = registry.get("api")!;
    const error = await refusal(
      router.call({
        tool: "api",
        endpoint: "raw",
        arguments: {},
        endpointFingerprint: registered.endpointFingerprints.get("raw")!,
        toolFingerprint: registered.fingerprint,
      }),
    );
    expect(error.code).toBe("INVOCATION_UNAVAILABLE");
    expect((error as { details: { reason?: string } }).details.reason).toBe("connection");
    await router.close();
  });

  const statuses: [number, boolean][] = [
    [404, false],
    [400, false],
    [500, true],
    [503, true],
    [429, true],
  ];
  it.each(statuses)("maps HTTP %i to HTTP_STATUS (retryable %s)", async (status, retryable) => {
    const h = await harness((_request, response) =>
      sendJson(response, status, { message: "nope" }, { "retry-after": "7" }),
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("HTTP_STATUS");
    expect(error.retryable).toBe(retryable);
    expect(error.details).toMatchObject({ status, retryAfter: "7" });
  });

  it("keeps HTTP_STATUS (retryable) for an error body over the size limit, with a bounded detail", async () => {
    const h = await harness(
      (_request, response) => {
        response.writeHead(503, { "content-type": "text/html" });
        response.end("<p>busy</p>".repeat(500));
      },
      { maxResponseBytes: 1024 },
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("HTTP_STATUS");
    expect(error.retryable).toBe(true);
    expect(String(error.details.detail)).toMatch(/^<p>busy<\/p>/);
    expect(String(error.details.detail).length).toBeLessThanOrEqual(500);
  });

  it("keeps HTTP_STATUS when an error body never arrives", async () => {
    const h = await harness(
      (_request, response) => {
        response.writeHead(404, { "content-length": 10 * 1024 * 1024 });
        response.flushHeaders();
      },
      { timeoutMs: 200 },
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("HTTP_STATUS");
    expect(error.retryable).toBe(false);
  }, 10_000);

  it("refuses a non-JSON 200 body (RESPONSE_NOT_JSON)", async () => {
    const h = await harness((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>hello</html>");
    });
    expect((await refusal(h.call("raw"))).code).toBe("RESPONSE_NOT_JSON");
  });

  it("decodes an empty 200 body as null", async () => {
    const h = await harness((_request, response) => {
      response.writeHead(200, { "content-length": 0 });
      response.end();
    });
    expect(await h.call("raw")).toBeNull();
  });
});
