/**
 * schemarouter/transports — the built-in invokers, for code that registers tools by hand instead of
 * through `SchemaRouter.load()` bindings: HTTP (OpenAPI), MCP (stdio, Streamable HTTP or a trusted client
 * factory), OPTIMADE, OData and local tools (docs/runtime/transports.md).
 */

export {
  createGraphqlInvoker,
  type GraphqlBindingSettings,
  type GraphqlInvokerOptions,
} from "./graphql/transport.js";
export { createHttpInvoker, type DispatcherLike, type HttpBindingOptions } from "./http/transport.js";
export { createLocalInvoker, localToolSpec } from "./local/transport.js";
export {
  createMcpInvoker,
  httpClientFactory,
  type McpClientFactory,
  type McpClientLike,
  type McpConnectionOptions,
  type McpServerVersionLike,
  mcpClientFactory,
  stdioClientFactory,
} from "./mcp/transport.js";
export {
  createOdataInvoker,
  DEFAULT_ODATA_LIMITS,
  type OdataBindingSettings,
  type OdataInvokerOptions,
  type OdataLimits,
} from "./odata/transport.js";
export {
  createOpenRpcInvoker,
  DEFAULT_OPENRPC_LIMITS,
  type OpenRpcBindingSettings,
  type OpenRpcInvokerOptions,
  type OpenRpcLimits,
} from "./openrpc/transport.js";
export {
  createOptimadeInvoker,
  DEFAULT_OPTIMADE_LIMITS,
  type OptimadeBindingSettings,
  type OptimadeInvokerOptions,
  type OptimadeLimits,
} from "./optimade/transport.js";
