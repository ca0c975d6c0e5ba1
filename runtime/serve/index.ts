/**
 * schemarouter/serve — the locked, governed capabilities of a router as an MCP server (docs/serve.md):
 * `createMcpServer(router, options)`, then `serveStdio()`, `listen()` (Streamable HTTP) or
 * `connect(transport)`. Every call runs through `router.invoke()`; refusals are `isError` results
 * with the typed code. The MCP SDK is an optional peer, imported when a server is created.
 */
export type { CatalogOptions, ListingOptions } from "./catalog.js";
export { SERVE_DEFAULTS } from "./defaults.js";
export {
  annotationsOf,
  type McpToolDefinition,
  SCHEMA_DIALECT,
  type ToolAnnotations,
} from "./definitions.js";
export type { HttpServeHandle, HttpServeOptions } from "./http.js";
export { type ServedOutput, servedOutputSchema } from "./output-schema.js";
export type { ServedResult } from "./result.js";
export { createMcpServer, type McpServerOptions, SchemaRouterMcpServer } from "./server.js";
export type { ServeSession, SessionTransport } from "./session.js";
export type { SessionBudgetOptions } from "./session-budget.js";
export type { SwapResult } from "./state.js";
export type { StdioServeHandle, StdioServeOptions } from "./stdio.js";
