/** What the HTTP transport accepts: no redirects followed, response bodies bounded by size and framing. */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { cleanupAfterEach } from "../../../helpers/cleanup.js";
import { sendJson, startServer } from "../../../helpers/http-server.js";
import { httpHarness, refusal } from "./harness.js";

const cleanups = cleanupAfterEach();
const harness = httpHarness();

describe("redirects", () => {
  it.each([301, 302, 307, 308])(
    "never follows a %i (TRANSPORT_REFUSED) and the target receives nothing",
    async (status) => {
      const target = await startServer((_request, response) => sendJson(response, 200, { id: "x" }));
      cleanups.push(() => target.close());
      const h = await harness(
        (_request, response) => {
          response.writeHead(status, { location: `${target.url}/api/v1/items/1`, "content-length": 0 });
          response.end();
        },
        { headers: { authorization: "Bearer api-secret" } },
      );
      const error = await refusal(h.call("getItem", { id: "1" }));
      expect(error.code).toBe("TRANSPORT_REFUSED");
      expect(error.details.status).toBe(status);
      expect(h.server.requests).toHaveLength(1);
      expect(target.requests).toEqual([]);
    },
  );
});

/** Writes a raw HTTP/1.1 response on the socket, bypassing node:http framing. */
function rawResponse(response: ServerResponse, head: string, body: string, end: boolean): void {
  const socket = response.socket;
  if (socket === null) throw new Error("no socket");
  socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${head}\r\n${body}`);
  if (end) socket.end();
}

describe("bounded responses", () => {
  const limit = { maxResponseBytes: 1024 };

  it("refuses a Content-Length over the limit without reading the body (RESPONSE_TOO_LARGE)", async () => {
    // The body never arrives: reading it would end in a timeout, not in RESPONSE_TOO_LARGE.
    const h = await harness((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": 10 * 1024 * 1024 });
      response.flushHeaders();
    }, limit);
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(error.details).toMatchObject({ maxBytes: 1024, size: 10 * 1024 * 1024 });
  });

  it("stops reading a chunked body at the limit (RESPONSE_TOO_LARGE)", async () => {
    // The body never ends: only counting received bytes can refuse it.
    const h = await harness((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(`[${"1,".repeat(700)}`);
      response.write("1,".repeat(700));
    }, limit);
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(error.details.size).toBeGreaterThan(1024);
  });

  it("accepts a body of exactly the limit", async () => {
    const value = "x".repeat(1022);
    const h = await harness((_request, response) => sendJson(response, 200, value), limit);
    expect(await h.call("raw")).toBe(value);
  });

  it("never reads past a Content-Length that understates the body (truncated → RESPONSE_NOT_JSON)", async () => {
    const h = await harness(
      (_request, response) =>
        rawResponse(response, "content-length: 5\r\n", `{"a":"${"x".repeat(4000)}"}`, true),
      limit,
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("RESPONSE_NOT_JSON");
  });

  it("fails a Content-Length that overstates the body when the connection closes (INVOCATION_UNAVAILABLE)", async () => {
    const h = await harness(
      (_request, response) => rawResponse(response, "content-length: 500\r\n", '{"a":1}', true),
      limit,
    );
    const error = await refusal(h.call("raw"));
    expect(error.code).toBe("INVOCATION_UNAVAILABLE");
  });

  it.each(["abc", "-1", "1e3"])(
    "fails an invalid Content-Length %j on the wire (INVOCATION_UNAVAILABLE)",
    async (value) => {
      // undici's HTTP parser rejects the response before any byte of the body is handed over.
      const h = await harness(
        (_request, response) => rawResponse(response, `content-length: ${value}\r\n`, "{}", true),
        limit,
      );
      expect((await refusal(h.call("raw"))).code).toBe("INVOCATION_UNAVAILABLE");
    },
  );

  it("ignores the Content-Length of a HEAD response (no body follows)", async () => {
    const h = await harness((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": 10 * 1024 * 1024 });
      response.end();
    }, limit);
    expect(await h.call("probe")).toBeNull();
    expect(h.server.requests[0]?.method).toBe("HEAD");
  });
});
