/**
 * Dispatch table of source adapters: a new SourceKind fails the build until it is handled here.
 */
import type { SourceKind } from "schemarouter/internal";
import type {
  LocalSourceConfig,
  McpSourceConfig,
  OpenApiSourceConfig,
  OpenRpcSourceConfig,
  OptimadeSourceConfig,
} from "../config/config.js";
import { localAdapter } from "./local/index.js";
import { mcpAdapter } from "./mcp/index.js";
import { openapiAdapter } from "./openapi/index.js";
import { openrpcAdapter } from "./openrpc/index.js";
import { optimadeAdapter } from "./optimade/index.js";
import type { SourceAdapter } from "./types.js";

interface ConfigByKind {
  readonly openapi: OpenApiSourceConfig;
  readonly local: LocalSourceConfig;
  readonly mcp: McpSourceConfig;
  readonly optimade: OptimadeSourceConfig;
  readonly openrpc: OpenRpcSourceConfig;
}

export const ADAPTERS: { readonly [K in SourceKind]: SourceAdapter<ConfigByKind[K]> } = {
  openapi: openapiAdapter,
  local: localAdapter,
  mcp: mcpAdapter,
  optimade: optimadeAdapter,
  openrpc: openrpcAdapter,
};
