/**
 * Dispatch table of source adapters: a new SourceKind fails the build until it is handled here.
 */
import type { SourceKind } from "schemarouter/internal";
import type {
  GraphqlSourceConfig,
  LocalSourceConfig,
  McpSourceConfig,
  OdataSourceConfig,
  OpenApiSourceConfig,
  OpenRpcSourceConfig,
  OptimadeSourceConfig,
  PluginSourceConfig,
  ProposalSourceConfig,
} from "../config/config.js";
import { graphqlAdapter } from "./graphql/index.js";
import { localAdapter } from "./local/index.js";
import { mcpAdapter } from "./mcp/index.js";
import { odataAdapter } from "./odata/index.js";
import { openapiAdapter } from "./openapi/index.js";
import { openrpcAdapter } from "./openrpc/index.js";
import { optimadeAdapter } from "./optimade/index.js";
import { pluginAdapter } from "./plugin/index.js";
import { proposalAdapter } from "./proposal/index.js";
import type { SourceAdapter } from "./types.js";

interface ConfigByKind {
  readonly openapi: OpenApiSourceConfig;
  readonly local: LocalSourceConfig;
  readonly mcp: McpSourceConfig;
  readonly optimade: OptimadeSourceConfig;
  readonly proposal: ProposalSourceConfig;
  readonly plugin: PluginSourceConfig;
  readonly odata: OdataSourceConfig;
  readonly graphql: GraphqlSourceConfig;
  readonly openrpc: OpenRpcSourceConfig;
}

export const ADAPTERS: { readonly [K in SourceKind]: SourceAdapter<ConfigByKind[K]> } = {
  openapi: openapiAdapter,
  local: localAdapter,
  mcp: mcpAdapter,
  optimade: optimadeAdapter,
  proposal: proposalAdapter,
  plugin: pluginAdapter,
  odata: odataAdapter,
  graphql: graphqlAdapter,
  openrpc: openrpcAdapter,
};
