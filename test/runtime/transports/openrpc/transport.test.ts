/**
 * The OpenRPC transport through the boundary against node:http servers on 127.0.0.1 that answer like
 * honest and lying JSON-RPC servers: the request (POST, id, params by position or by name, trusted
 * headers), and every answer that is not a valid response to that request refused with its reason
 * (docs/sources/openrpc.md "Transport").
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { Registry, registerTool } from "../../../../runtime/load/registry.js";
import type { EndpointSpec, ToolSpec } from "../../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import type { OpenRpcBindingSettings } from "../../../../runtime/transports/openrpc/transport.js";
import { cleanupAfterEach } from "../../../helpers/cleanup.js";
import { sendJson, startServer } from "../../../helpers/http-server.js";

const cleanups = cleanupAfterEach();

type Answer = (request: { id: unknown; method: unknown; params: unknown }, response: ServerResponse) => void;

async function rpcTool(
  answer: Answer,
  paramStructure: "by-name" | "by-position" = "by-position",
  binding: OpenRpcBindingSettings = {},
) {
  const server = await startServer((_request: IncomingMessage, response, body) => {
    answer(JSON.parse(body) as { id: unknown; method: unknown; params: unknown }, response);
  });
  cleanups.push(() => server.close());
  const endpoint: EndpointSpec = {
    name: "add",
    description: "Adds.",
    effect: "read",
    parameters: [
      { name: "a", location: "argument", required: true, schema: { type: "integer" } },
      { name: "b", location: "argument", required: false, schema: { type: "integer" } },
    ],
    inputSchema: {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      required: ["a"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", required: ["result"], properties: { result: { type: "integer" } } },
    fields: [{ id: "result", path: ["result"] }],
    execution: { kind: "openrpc", rpcMethod: "math.add", paramStructure },
  };
  const spec: ToolSpec = {
    name: "rpc",
    namespace: "rpc",
    description: "",
    provider: "test",
    accessMode: "openrpc",
    remote: true,
    execution: { transport: "openrpc", rpcUrl: `${server.url}/rpc` },
    endpoints: [endpoint],
  };
  const registered = registerTool({ tool: spec, source: "rpc", sourceKind: "openrpc", defs: {} });
  const router = SchemaRouter.fromRegistry(new Registry([registered]), {
    bindings: { rpc: { openrpc: binding } },
  });
  cleanups.push(() => router.close());
  const call = (args: Record<string, unknown>) =>
    router.call({
      tool: "rpc",
      endpoint: "add",
      arguments: args,
      endpointFingerprint: registered.endpointFingerprints.get("add")!,
      toolFingerprint: registered.fingerprint,
    });
  return { server, call };
}

const honest: Answer = (request, response) => {
  const params = request.params as number[] | { a: number; b?: number };
  const [a, b] = Array.isArray(params) ? params : [params.a, params.b];
  sendJson(response, 200, { jsonrpc: "2.0", id: request.id, result: (a ?? 0) + (b ?? 0) });
};

describe("requests", () => {
  it("POSTs one JSON-RPC 2.0 request per call, params by position, a new id each time", async () => {
    const { server, call } = await rpcTool(honest);
    expect((await call({ a: 2, b: 3 })).data).toEqual({ result: 5 });
    expect((await call({ a: 4 })).data).toEqual({ result: 4 });
    const [first, second] = server.requests.map((request) => ({
      ...request,
      body: JSON.parse(request.body),
    }));
    expect(first).toMatchObject({
      method: "POST",
      url: "/rpc",
      headers: { "content-type": "application/json" },
      body: { jsonrpc: "2.0", method: "math.add", params: [2, 3] },
    });
    // Trailing params left out are not sent (no null padding).
    expect(second!.body.params).toEqual([4]);
    expect(first!.body.id).not.toBe(second!.body.id);
  });

  it("sends params by name when the endpoint says so, with the binding's trusted headers", async () => {
    const { server, call } = await rpcTool(honest, "by-name", {
      headers: { Authorization: "Bearer s3cret-token" },
    });
    await call({ a: 1, b: 2 });
    const request = server.requests[0]!;
    expect(JSON.parse(request.body).params).toEqual({ a: 1, b: 2 });
    expect(request.headers.authorization).toBe("Bearer s3cret-token");
  });

  it("refuses a call whose result breaks the declared schema", async () => {
    const { call } = await rpcTool((request, response) =>
      sendJson(response, 200, { jsonrpc: "2.0", id: request.id, result: "five" }),
    );
    await expect(call({ a: 1 })).rejects.toMatchObject({ code: "OUTPUT_SCHEMA_VIOLATION" });
  });
});

// biome-ignore format: one lying server per row
const LIES: readonly [string, Answer, string][] = [
  ["a mismatched id", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: Number(request.id) + 1, result: 1 }), "id-mismatch"],
  ["the id as a string", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: String(request.id), result: 1 }), "id-mismatch"],
  ["no id", (_request, response) => sendJson(response, 200, { jsonrpc: "2.0", result: 1 }), "id-missing"],
  ["a null id", (_request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: null, result: 1 }), "id-missing"],
  ["jsonrpc 1.0", (request, response) => sendJson(response, 200, { jsonrpc: "1.0", id: request.id, result: 1 }), "version"],
  ["no jsonrpc member", (request, response) => sendJson(response, 200, { id: request.id, result: 1 }), "version"],
  ["both result and error", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: request.id, result: 1, error: { code: 1, message: "x" } }), "result-and-error"],
  ["neither result nor error", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: request.id }), "no-result"],
  ["a batch answer", (request, response) => sendJson(response, 200, [{ jsonrpc: "2.0", id: request.id, result: 1 }]), "batch"],
  ["a bare number", (_request, response) => sendJson(response, 200, 5), "not-object"],
  ["an error without a code", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: request.id, error: { message: "no" } }), "error-shape"],
  ["an error with a fractional code", (request, response) => sendJson(response, 200, { jsonrpc: "2.0", id: request.id, error: { code: 1.5, message: "no" } }), "error-shape"],
];

describe("lying servers", () => {
  for (const [name, answer, reason] of LIES) {
    it(`refuses ${name} (JSONRPC_RESPONSE_INVALID, ${reason})`, async () => {
      const { call } = await rpcTool(answer);
      await expect(call({ a: 1 })).rejects.toMatchObject({
        code: "JSONRPC_RESPONSE_INVALID",
        details: { route: "rpc.add", reason },
      });
    });
  }

  it("types an error object by its code; its message is cut, stripped of control characters and credentials", async () => {
    const { call } = await rpcTool(
      (request, response) =>
        sendJson(response, 200, {
          jsonrpc: "2.0",
          id: request.id,
          error: {
            code: -32602,
            message: `bad\u001b[31m params for Bearer s3cret-token ${"x".repeat(500)}`,
            data: { at: 0 },
          },
        }),
      "by-position",
      { headers: { authorization: "Bearer s3cret-token" } },
    );
    const error = await call({ a: 1 }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: "JSONRPC_ERROR", details: { rpcCode: -32602, data: { at: 0 } } });
    const { message, details } = error as { message: string; details: { rpcMessage: string } };
    expect(message).toMatch(
      /^rpc\.add: the server answered JSON-RPC error -32602 \(Invalid params\): bad \[31m params for \[redacted\] x+…$/,
    );
    expect(message).not.toContain("s3cret");
    expect(details.rpcMessage.length).toBeLessThanOrEqual(201);
  });

  it("keeps a JSON-RPC error object that comes with HTTP 500, and the status otherwise", async () => {
    const withError = await rpcTool((request, response) =>
      sendJson(response, 500, {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32603, message: "Internal error" },
      }),
    );
    await expect(withError.call({ a: 1 })).rejects.toMatchObject({
      code: "JSONRPC_ERROR",
      details: { rpcCode: -32603, status: 500 },
    });
    const bare = await rpcTool((_request, response) => {
      response.writeHead(503, { "content-type": "text/plain" });
      response.end("down for maintenance");
    });
    await expect(bare.call({ a: 1 })).rejects.toMatchObject({
      code: "HTTP_STATUS",
      details: { status: 503 },
    });
  });

  it("never follows a redirect", async () => {
    const target = await rpcTool(honest);
    const { call } = await rpcTool((_request, response) => {
      response.writeHead(307, { location: `${target.server.url}/rpc` });
      response.end();
    });
    await expect(call({ a: 1 })).rejects.toMatchObject({
      code: "TRANSPORT_REFUSED",
      details: { status: 307 },
    });
    expect(target.server.requests).toEqual([]);
  });

  it("stops reading an answer over the byte limit", async () => {
    const { call } = await rpcTool(
      (request, response) =>
        sendJson(response, 200, { jsonrpc: "2.0", id: request.id, result: 1, pad: "x".repeat(4096) }),
      "by-position",
      { maxResponseBytes: 1024 },
    );
    await expect(call({ a: 1 })).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("gives up on a server that never answers, within the binding's timeout", async () => {
    const { call } = await rpcTool(() => undefined, "by-position", { timeoutMs: 200 });
    await expect(call({ a: 1 })).rejects.toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      details: { reason: "timeout" },
    });
  });

  it("answers that are not JSON are RESPONSE_NOT_JSON", async () => {
    const { call } = await rpcTool((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{not json");
    });
    await expect(call({ a: 1 })).rejects.toMatchObject({ code: "RESPONSE_NOT_JSON" });
  });
});
