/**
 * Attacks on the HTTP transport from a hostile document or a tampered artifact (docs/trust-model.md
 * §7): header parameters that reroute a request past the bound base path or change its method
 * (X-Original-URL, X-HTTP-Method-Override, …), header names that are not RFC 9110 tokens, and
 * path/query values written by a model. Each is refused before anything is sent.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { EndpointSpec } from "../../runtime/model/specs.js";
import { cleanupAfterEach } from "../helpers/cleanup.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { httpTool } from "../helpers/http-tool.js";
import { compiledRegistry } from "./compiled-registry.js";

const cleanups = cleanupAfterEach();
let server: TestServer | undefined;
afterAll(() => server?.close());

async function upstream(): Promise<TestServer> {
  server ??= await startServer((_request, response) => sendJson(response, 200, {}));
  return server;
}

function headerEndpoint(wireName: string): Partial<EndpointSpec> {
  return {
    parameters: [{ name: "h", location: "header", wireName, required: false, schema: { type: "string" } }],
    inputSchema: { type: "object", properties: { h: { type: "string" } }, additionalProperties: false },
  };
}

/** Headers some servers and proxies read as another path, method, client or origin. */
const REROUTING = [
  "X-Original-URL",
  "X-Rewrite-URL",
  "X-HTTP-Method-Override",
  "X-HTTP-Method",
  "X-Method-Override",
  "X-Forwarded-Prefix",
  "X-Forwarded-Port",
  "X-Forwarded-Server",
  "X-Real-IP",
  "X-Client-IP",
  "True-Client-IP",
];

describe("attacks on the HTTP transport", () => {
  it.each(REROUTING)("a header parameter %s is refused at call time, nothing sent", async (name) => {
    const target = await upstream();
    const before = target.requests.length;
    const { router, call } = httpTool(target.url, cleanups, { endpoint: headerEndpoint(name) });
    await expect(router.call(call({ h: "/admin/delete-all" }))).rejects.toMatchObject({
      code: "TRANSPORT_REFUSED",
    });
    expect(target.requests.length).toBe(before);
  });

  it("a document's rerouting and malformed header parameters are left out at compile", async () => {
    const parameters = [...REROUTING, "X Note", "X-Note\r\nAuthorization: Bearer attacker", "X-Nöte"].map(
      (name) => ({ name, in: "header", schema: { type: "string" } }),
    );
    const registry = await compiledRegistry("reroute", {
      openapi: "3.1.0",
      info: { title: "Reroute", version: "1" },
      servers: [{ url: "https://reroute.example.test" }],
      paths: {
        "/notes": {
          get: {
            operationId: "listNotes",
            parameters,
            responses: { "200": { description: "ok", content: { "application/json": { schema: {} } } } },
          },
        },
      },
    });
    const endpoint = registry.get("reroute")!.endpoints.get("listNotes")!;
    expect(endpoint.parameters.filter((parameter) => parameter.location === "header")).toEqual([]);
  });

  it.each([
    ["a CRLF in the name", "X-Note\r\nAuthorization: Bearer attacker"],
    ["a space in the name", "X Note"],
    ["a colon in the name", "X-Note:"],
    ["an empty name", ""],
    ["a non-ASCII name", "X-Nöte"],
  ])("a header name with %s (tampered artifact) is refused as TRANSPORT_REFUSED", async (_what, wire) => {
    const target = await upstream();
    const before = target.requests.length;
    const { router, call } = httpTool(target.url, cleanups, { endpoint: headerEndpoint(wire) });
    await expect(router.call(call({ h: "x" }))).rejects.toMatchObject({ code: "TRANSPORT_REFUSED" });
    expect(target.requests.length).toBe(before);
  });

  it.each([
    ["a slash", "a/../../admin"],
    ["an encoded dot segment", "%2e%2e"],
    ["a query", "x?admin=1"],
    ["a fragment", "x#frag"],
    ["a backslash", "..\\admin"],
  ])("a path value with %s stays one encoded segment under the base path", async (_what, value) => {
    const target = await upstream();
    const { router, call } = httpTool(`${target.url}/v1`, cleanups, {
      endpoint: {
        execution: { kind: "http", method: "get", path: "/items/{id}", successStatus: [200] },
        parameters: [{ name: "id", location: "path", required: true, schema: { type: "string" } }],
        inputSchema: {
          type: "object",
          properties: { id: { type: "string" } },
          required: ["id"],
          additionalProperties: false,
        },
      },
    });
    await router.call(call({ id: value }));
    const sent = target.requests.at(-1)!.url;
    expect(sent).toBe(`/v1/items/${encodeURIComponent(value)}`);
  });
});

describe("attacks on trusted query credentials", () => {
  const queryEndpoint = (wireName: string, path = "/items"): Partial<EndpointSpec> => ({
    execution: { kind: "http", method: "get", path, successStatus: [200] },
    parameters: [{ name: "k", location: "query", wireName, required: false, schema: { type: "string" } }],
    inputSchema: { type: "object", properties: { k: { type: "string" } }, additionalProperties: false },
  });

  it.each(["API_KEY", "Api_Key", "api_KEY"])(
    "a declared query parameter %s cannot shadow the trusted api_key on a case-insensitive server",
    async (wire) => {
      const target = await upstream();
      const before = target.requests.length;
      const { router, call } = httpTool(target.url, cleanups, {
        endpoint: queryEndpoint(wire),
        binding: { query: { api_key: "trusted-key-1234" } },
      });
      await expect(router.call(call({ k: "ATTACKER" }))).rejects.toMatchObject({
        code: "TRANSPORT_REFUSED",
        details: { reason: "trusted-query" },
      });
      expect(target.requests.length).toBe(before);
    },
  );

  it("a template's query string cannot set the trusted key in another case (tampered artifact)", async () => {
    const target = await upstream();
    const before = target.requests.length;
    const { router, call } = httpTool(target.url, cleanups, {
      endpoint: queryEndpoint("q", "/items?API_KEY=ATTACKER"),
      binding: { query: { api_key: "trusted-key-1234" } },
    });
    await expect(router.call(call({}))).rejects.toMatchObject({
      code: "TRANSPORT_REFUSED",
      details: { reason: "template-query" },
    });
    expect(target.requests.length).toBe(before);
  });
});
