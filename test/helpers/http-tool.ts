/**
 * One hand-built HTTP tool with one endpoint, registered and bound to a test server over the real HTTP
 * transport: for tests of what crosses the boundary (responses, templates, bindings) without a compile.
 */
import { Registry, registerTool } from "../../runtime/load/registry.js";
import type { EndpointSpec, ToolCall, ToolSpec } from "../../runtime/model/specs.js";
import { SchemaRouter, type SchemaRouterOptions } from "../../runtime/router/router.js";
import type { HttpBindingOptions } from "../../runtime/transports/http/transport.js";
import type { Cleanups } from "./cleanup.js";

export interface HttpToolOptions {
  /** Overrides of the endpoint contract (default: GET /items, no parameters, output `{}`). */
  readonly endpoint?: Partial<EndpointSpec>;
  /** Binding settings besides `baseUrl`. */
  readonly binding?: Omit<HttpBindingOptions, "baseUrl">;
  readonly router?: Omit<SchemaRouterOptions, "bindings">;
}

export interface HttpTool {
  readonly router: SchemaRouter;
  /** A call pinned to the current contract. */
  call(args?: Record<string, unknown>, fields?: readonly string[]): ToolCall;
}

export function httpTool(baseUrl: string, cleanups: Cleanups, options: HttpToolOptions = {}): HttpTool {
  const endpoint: EndpointSpec = {
    name: "get",
    description: "",
    effect: "read",
    parameters: [],
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: {},
    fields: [],
    execution: { kind: "http", method: "get", path: "/items", successStatus: [200] },
    ...options.endpoint,
  };
  const spec: ToolSpec = {
    name: "api",
    namespace: "api",
    description: "",
    provider: "test",
    accessMode: "rest",
    remote: true,
    execution: { transport: "http", basePath: "" },
    endpoints: [endpoint],
  };
  const registered = registerTool({ tool: spec, source: "api", sourceKind: "openapi", defs: {} });
  const router = SchemaRouter.fromRegistry(new Registry([registered]), {
    ...options.router,
    bindings: { api: { baseUrl, ...options.binding } },
  });
  cleanups.push(() => router.close());
  return {
    router,
    call: (args = {}, fields) => ({
      tool: "api",
      endpoint: endpoint.name,
      arguments: args,
      ...(fields !== undefined ? { fields } : {}),
      endpointFingerprint: registered.endpointFingerprints.get(endpoint.name)!,
      toolFingerprint: registered.fingerprint,
    }),
  };
}
