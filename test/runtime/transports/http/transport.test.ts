/**
 * The HTTP transport (runtime/transports/http.ts) driven through the real executor against real
 * node:http servers: base URL confinement, wire serialization, trusted headers, redirects, bounded
 * responses, timeouts, status mapping, JSON decoding and output validation before projection.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../../runtime/boundary/policy.js";
import { SchemaRouterError } from "../../../../runtime/errors/errors.js";
import { Registry, registerTool } from "../../../../runtime/load/registry.js";
import type {
  EndpointSpec,
  HttpMethod,
  JsonSchema,
  ParameterSpec,
  ToolSpec,
} from "../../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { readBounded } from "../../../../runtime/transports/http/bounded-read.js";
import { createHttpInvoker, type HttpBindingOptions } from "../../../../runtime/transports/http/transport.js";
import { cleanupAfterEach } from "../../../helpers/cleanup.js";
import { type Handler, sendJson, startServer, type TestServer } from "../../../helpers/http-server.js";

const BASE_PATH = "/api/v1";

function param(
  name: string,
  location: ParameterSpec["location"],
  schema: JsonSchema,
  extra: Partial<ParameterSpec> = {},
): ParameterSpec {
  return { name, location, required: false, schema, ...extra };
}

function endpoint(
  name: string,
  method: HttpMethod,
  path: string,
  parameters: ParameterSpec[],
  outputSchema: JsonSchema,
  extra: Partial<EndpointSpec> = {},
): EndpointSpec {
  const properties: Record<string, JsonSchema> = {};
  for (const p of parameters) properties[p.name] = p.schema;
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  return {
    name,
    description: name,
    effect: method === "get" || method === "head" ? "read" : "write",
    parameters,
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
    outputSchema,
    fields: [],
    execution: { kind: "http", method, path, successStatus: [200] },
    ...extra,
  };
}

const item: JsonSchema = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" }, count: { type: "integer" } },
  required: ["id"],
};
const itemFields = ["id", "name", "count"].map((id) => ({ id, path: [id] }));
const str: JsonSchema = { type: "string" };

const TOOL: ToolSpec = {
  name: "api",
  namespace: "api",
  description: "hand-written HTTP tool",
  provider: "test",
  accessMode: "rest",
  remote: true,
  execution: { transport: "http", basePath: "" },
  endpoints: [
    endpoint("getItem", "get", "/items/{id}", [param("id", "path", str, { required: true })], item, {
      fields: itemFields,
    }),
    endpoint(
      "getPair",
      "get",
      "/{a}/{b}",
      [param("a", "path", str, { required: true }), param("b", "path", str, { required: true })],
      {},
    ),
    endpoint(
      "search",
      "get",
      "/search",
      [
        param("q", "query", str),
        param("tags", "query", { type: "array", items: str }, { wireName: "tag" }),
        param("limit", "query", { type: "integer" }),
        param("trace", "header", str, { wireName: "X-Trace" }),
        param("tenant", "header", str, { wireName: "X-Tenant" }),
        param("auth", "header", str, { wireName: "Authorization" }),
        param("cookie", "header", str, { wireName: "Cookie" }),
        param("hostname", "header", str, { wireName: "Host" }),
        param("ctor", "header", str, { wireName: "constructor" }),
        param("crlf", "header", str, { wireName: "X-Note" }),
      ],
      {
        type: "array",
        items: { type: "object", properties: { id: { type: "string" }, score: { type: "number" } } },
      },
      {
        fields: [
          { id: "[].id", path: ["*", "id"], resultPath: ["*", "id"] },
          { id: "[].score", path: ["*", "score"], resultPath: ["*", "score"] },
        ],
      },
    ),
    endpoint(
      "createItem",
      "post",
      "/items",
      [
        param("name", "body", str, { required: true }),
        param("sizeKb", "body", { type: "integer" }, { wireName: "size-kb" }),
      ],
      item,
      {
        fields: itemFields,
        execution: {
          kind: "http",
          method: "post",
          path: "/items",
          successStatus: [200],
          requestBody: { contentType: "application/json", mode: "properties", required: true },
        },
      },
    ),
    endpoint(
      "bulk",
      "post",
      "/bulk",
      [param("body", "body", { type: "array", items: { type: "integer" } }, { required: true })],
      {},
      {
        execution: {
          kind: "http",
          method: "post",
          path: "/bulk",
          successStatus: [200],
          requestBody: { contentType: "application/json", mode: "value", parameter: "body", required: true },
        },
      },
    ),
    endpoint("raw", "get", "/raw", [], {}),
    endpoint("probe", "head", "/raw", [], {}),
  ],
};

interface Harness {
  readonly server: TestServer;
  readonly router: SchemaRouter;
  call(endpoint: string, args?: Record<string, unknown>, fields?: readonly string[]): Promise<unknown>;
}

const cleanups = cleanupAfterEach();

async function harness(
  handler: Handler,
  binding: Partial<HttpBindingOptions> = {},
  tool: ToolSpec = TOOL,
): Promise<Harness> {
  const server = await startServer(handler);
  cleanups.push(() => server.close());
  const registry = new Registry([registerTool({ tool, source: tool.name, sourceKind: "openapi", defs: {} })]);
  const router = SchemaRouter.fromRegistry(registry, {
    bindings: { [tool.name]: { baseUrl: `${server.url}${BASE_PATH}`, timeoutMs: 5_000, ...binding } },
    policy: new ExecutionPolicy({ allowMutations: true }),
  });
  cleanups.push(() => router.close());
  const registered = registry.get(tool.name)!;
  return {
    server,
    router,
    async call(name, args = {}, fields) {
      const result = await router.call({
        tool: tool.name,
        endpoint: name,
        arguments: args,
        ...(fields !== undefined ? { fields } : {}),
        endpointFingerprint: registered.endpointFingerprints.get(name)!,
        toolFingerprint: registered.fingerprint,
      });
      return result.data;
    },
  };
}

/** Awaits a refusal and returns it (fails the test when the call succeeds or throws a non-SchemaRouterError). */
async function refusal(promise: Promise<unknown>): Promise<SchemaRouterError & { retryable?: boolean }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaRouterError);
    return error as SchemaRouterError & { retryable?: boolean };
  }
  throw new Error("expected the call to be refused, but it succeeded");
}

const echoItem: Handler = (request, response) =>
  sendJson(response, 200, { id: request.url ?? "", name: "n", count: 1 });

describe("base URL confinement", () => {
  const cases: [string, string, string][] = [
    ["a plain value", "abc", `${BASE_PATH}/items/abc`],
    ["an encoded slash", "a/b", `${BASE_PATH}/items/a%2Fb`],
    ["a traversal with slashes", "../../etc/passwd", `${BASE_PATH}/items/..%2F..%2Fetc%2Fpasswd`],
    ["percent-encoded dots", "%2e%2e", `${BASE_PATH}/items/%252e%252e`],
    ["mixed encoded dots", ".%2E", `${BASE_PATH}/items/.%252E`],
    ["an encoded slash sequence", "..%2F..%2F", `${BASE_PATH}/items/..%252F..%252F`],
    ["a query and fragment", "x?admin=1#frag", `${BASE_PATH}/items/x%3Fadmin%3D1%23frag`],
    ["a backslash traversal", "..\\..\\etc", `${BASE_PATH}/items/..%5C..%5Cetc`],
  ];
  it.each(cases)("keeps %s inside one path segment under the base path", async (_name, id, wire) => {
    const h = await harness(echoItem);
    await h.call("getItem", { id });
    expect(h.server.requests.map((r) => r.url)).toEqual([wire]);
  });

  const dotSegments: [string, string, Record<string, string>][] = [
    ["getItem", "'..' as the last segment", { id: ".." }],
    ["getItem", "'.' as the last segment", { id: "." }],
    ["getPair", "'..' climbing out of the base path", { a: "..", b: "x" }],
    ["getPair", "'..' climbing to a sibling endpoint", { a: "x", b: ".." }],
    ["getItem", "an empty path segment", { id: "" }],
  ];
  it.each(dotSegments)("%s: refuses %s (TRANSPORT_REFUSED) and sends nothing", async (name, _what, args) => {
    const h = await harness(echoItem);
    const error = await refusal(h.call(name, args));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(h.server.requests).toEqual([]);
  });
});

describe("wire serialization", () => {
  it("repeats array query parameters, uses wire names, and sends header parameters", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, [{ id: "a", score: 1 }]));
    const data = await h.call("search", { q: "x y&z", tags: ["a", "b,c"], limit: 3, trace: "t-1" });
    expect(data).toEqual([{ id: "a", score: 1 }]);
    const [request] = h.server.requests;
    expect(request?.url).toBe(`${BASE_PATH}/search?q=x+y%26z&tag=a&tag=b%2Cc&limit=3`);
    expect(request?.headers["x-trace"]).toBe("t-1");
    expect(request?.headers.accept).toBe("application/json");
  });

  it("flattens a properties-mode JSON body using wire names", async () => {
    const h = await harness((_request, response, body) =>
      sendJson(response, 200, { id: "1", name: JSON.parse(body).name, count: 2 }),
    );
    const data = await h.call("createItem", { name: "widget", sizeKb: 12 }, ["name"]);
    expect(data).toEqual({ name: "widget" });
    const [request] = h.server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ name: "widget", "size-kb": 12 });
  });

  it("sends a value-mode body as the whole JSON value", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, { ok: true }));
    await h.call("bulk", { body: [3, 1, 2] });
    expect(JSON.parse(h.server.requests[0]?.body ?? "")).toEqual([3, 1, 2]);
  });
});

describe("trusted headers", () => {
  const trusted = { Authorization: "Bearer api-secret", "X-Tenant": "acme" };

  it("injects trusted headers on every request", async () => {
    const h = await harness(
      (request, response) =>
        request.url?.includes("/search") ? sendJson(response, 200, []) : echoItem(request, response, ""),
      { headers: trusted },
    );
    await h.call("getItem", { id: "1" });
    await h.call("search", { trace: "t" });
    expect(h.server.requests).toHaveLength(2);
    for (const request of h.server.requests) {
      expect(request.headers.authorization).toBe("Bearer api-secret");
      expect(request.headers["x-tenant"]).toBe("acme");
    }
  });

  const refused: [string, Record<string, string>][] = [
    ["a trusted header (X-Tenant)", { tenant: "evil" }],
    ["Authorization", { auth: "Bearer stolen" }],
    ["Cookie", { cookie: "session=1" }],
    ["Host", { hostname: "evil.example" }],
    ["a header value with CR/LF", { crlf: "a\r\nX-Injected: 1" }],
  ];
  it.each(refused)("refuses an argument for %s (TRANSPORT_REFUSED) before sending", async (_name, args) => {
    const h = await harness(echoItem, { headers: trusted });
    const error = await refusal(h.call("search", args));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(h.server.requests).toEqual([]);
  });

  it.each([
    ["credentials", "http://user:pw@127.0.0.1:1/api"],
    ["a query string", "http://127.0.0.1:1/api?key=1"],
    ["a fragment", "http://127.0.0.1:1/api#x"],
    ["another scheme", "ftp://127.0.0.1/api"],
    ["a relative URL", "/api/v1"],
  ])("refuses a base URL with %s when binding (TypeError)", (_name, baseUrl) => {
    expect(() => createHttpInvoker({ baseUrl })).toThrow(TypeError);
  });

  it.each([
    ["a CR/LF value", { "x-key": "a\r\nx-injected: 1" }],
    ["a NUL value", { "x-key": "a\u0000" }],
  ])("refuses a trusted header with %s when binding (TypeError)", (_name, headers) => {
    expect(() => createHttpInvoker({ baseUrl: "http://127.0.0.1:1", headers })).toThrow(TypeError);
  });

  it("treats a header named like an Object.prototype member as an ordinary header", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, []), { headers: trusted });
    await h.call("search", { ctor: "c" });
    expect(h.server.requests[0]?.headers.constructor).toBe("c");
  });
});

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

/** A body stream that records how many chunks were pulled and whether it was destroyed. */
function trackedBody(chunks: readonly string[]) {
  const state = { pulled: 0, destroyed: false };
  const body = {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) {
        state.pulled++;
        yield Buffer.from(chunk);
      }
    },
    destroy() {
      state.destroyed = true;
    },
  };
  return { body, state };
}

describe("readBounded", () => {
  const invalid: [string, string][] = [
    ["letters", "abc"],
    ["a negative number", "-1"],
    ["an exponent", "1e3"],
    ["a fraction", "1.5"],
    ["an empty value", ""],
    ["an unsafe integer", "99999999999999999999"],
  ];
  it.each(invalid)(
    "refuses a Content-Length of %s without reading (RESPONSE_NOT_JSON)",
    async (_name, value) => {
      const { body, state } = trackedBody(["{}"]);
      const error = await refusal(readBounded(body, 1024, value, "t.e"));
      expect(error.code).toBe("RESPONSE_NOT_JSON");
      expect(state).toEqual({ pulled: 0, destroyed: true });
    },
  );

  it("refuses a declared length over the limit without reading (RESPONSE_TOO_LARGE)", async () => {
    const { body, state } = trackedBody(["{}"]);
    expect((await refusal(readBounded(body, 1024, "1025", "t.e"))).code).toBe("RESPONSE_TOO_LARGE");
    expect(state).toEqual({ pulled: 0, destroyed: true });
  });

  it("counts received bytes when the declared length lies (RESPONSE_TOO_LARGE)", async () => {
    const { body, state } = trackedBody(["x".repeat(600), "x".repeat(600), "x".repeat(600)]);
    expect((await refusal(readBounded(body, 1024, "10", "t.e"))).code).toBe("RESPONSE_TOO_LARGE");
    expect(state).toEqual({ pulled: 2, destroyed: true });
  });

  it("decodes multi-byte UTF-8 split across chunks", async () => {
    const bytes = Buffer.from('"grüße"');
    const chunks = [bytes.subarray(0, 4), bytes.subarray(4)].map((part) => part.toString("latin1"));
    const body = {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) yield Buffer.from(chunk, "latin1");
      },
      destroy() {},
    };
    expect(await readBounded(body, 1024, undefined, "t.e")).toBe('"grüße"');
  });
});

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

describe("output validation and projection", () => {
  it("projects the selected fields of an object output", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, { id: "1", name: "n", count: 4, extra: true }),
    );
    expect(await h.call("getItem", { id: "1" }, ["name", "count"])).toEqual({ name: "n", count: 4 });
  });

  it("projects `*` fields of an array output record by record", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, [
        { id: "a", score: 1 },
        { id: "b", score: 2, x: 0 },
      ]),
    );
    expect(await h.call("search", {}, ["[].id"])).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("validates the raw output before projection (OUTPUT_SCHEMA_VIOLATION even when the bad field is not selected)", async () => {
    const h = await harness((_request, response) =>
      sendJson(response, 200, { id: "1", name: "n", count: "four" }),
    );
    const error = await refusal(h.call("getItem", { id: "1" }, ["name"]));
    expect(error.code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });

  it("refuses a missing required output property (OUTPUT_SCHEMA_VIOLATION)", async () => {
    const h = await harness((_request, response) => sendJson(response, 200, { name: "n" }));
    expect((await refusal(h.call("getItem", { id: "1" }, ["name"]))).code).toBe("OUTPUT_SCHEMA_VIOLATION");
  });
});
