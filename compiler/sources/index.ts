/**
 * Dispatch table of source adapters: a new SourceKind fails the build until it is handled here.
 */
import type { SourceKind } from "schemarouter/internal";
import type {
  GraphqlSourceConfig,
  LocalSourceConfig,
  McpSourceConfig,
  OpenApiSourceConfig,
  OptimadeSourceConfig,
} from "../config/config.js";
import { graphqlAdapter } from "./graphql/index.js";
import { localAdapter } from "./local/index.js";
import { mcpAdapter } from "./mcp/index.js";
import { openapiAdapter } from "./openapi/index.js";
import { optimadeAdapter } from "./optimade/index.js";
import type { SourceAdapter } from "./types.js";

interface ConfigByKind {
  readonly openapi: OpenApiSourceConfig;
  readonly local: LocalSourceConfig;
  readonly mcp: McpSourceConfig;
  readonly optimade: OptimadeSourceConfig;
  readonly graphql: GraphqlSourceConfig;
}

export const ADAPTERS: { readonly [K in SourceKind]: SourceAdapter<ConfigByKind[K]> } = {
  openapi: openapiAdapter,
  local: localAdapter,
  mcp: mcpAdapter,
  optimade: optimadeAdapter,
  graphql: graphqlAdapter,
};
