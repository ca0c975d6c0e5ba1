/**
 * The HTTP transport's test harness: a tool whose endpoints cover every wire feature, served by a real
 * node:http server on 127.0.0.1 and called through the real router and executor.
 */
import { expect } from "vitest";
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
import type { HttpBindingOptions } from "../../../../runtime/transports/http/transport.js";
import { cleanupAfterEach } from "../../../helpers/cleanup.js";
import { type Handler, sendJson, startServer, type TestServer } from "../../../helpers/http-server.js";

export const BASE_PATH = "/api/v1";

export function param(
  name: string,
  location: ParameterSpec["location"],
  schema: JsonSchema,
  extra: Partial<ParameterSpec> = {},
): ParameterSpec {
  return { name, location, required: false, schema, ...extra };
}

export function endpoint(
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

export const item: JsonSchema = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" }, count: { type: "integer" } },
  required: ["id"],
};
export const itemFields = ["id", "name", "count"].map((id) => ({ id, path: [id] }));
export const str: JsonSchema = { type: "string" };

export const TOOL: ToolSpec = {
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

export interface Harness {
  readonly server: TestServer;
  readonly router: SchemaRouter;
  call(endpoint: string, args?: Record<string, unknown>, fields?: readonly string[]): Promise<unknown>;
}

export type StartHarness = (
  handler: Handler,
  binding?: Partial<HttpBindingOptions>,
  tool?: ToolSpec,
) => Promise<Harness>;

/** Call at module level: the returned function starts a server and router, both closed after the test. */
export function httpHarness(): StartHarness {
  const cleanups = cleanupAfterEach();
  return async (handler, binding = {}, tool = TOOL) => {
    const server = await startServer(handler);
    cleanups.push(() => server.close());
    const registry = new Registry([
      registerTool({ tool, source: tool.name, sourceKind: "openapi", defs: {} }),
    ]);
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
  };
}

/** Awaits a refusal and returns it (fails the test when the call succeeds or throws a non-SchemaRouterError). */
export async function refusal(
  promise: Promise<unknown>,
): Promise<SchemaRouterError & { retryable?: boolean }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaRouterError);
    return error as SchemaRouterError & { retryable?: boolean };
  }
  throw new Error("expected the call to be refused, but it succeeded");
}

export const echoItem: Handler = (request, response) =>
  sendJson(response, 200, { id: request.url ?? "", name: "n", count: 1 });
