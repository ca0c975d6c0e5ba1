/**
 * The source adapters by kind, each loaded on first use: a compile worker that only compiles OpenAPI
 * documents never loads the GraphQL, MCP or OData adapters (docs/reference/cli.md, "Large
 * projects"). A new SourceKind fails the build until it is handled here, as in index.ts.
 */
import type { SourceKind } from "schemarouter/internal";
import type { SourceConfig } from "../config/config.js";
import type { SourceAdapter } from "./types.js";

type LoadedAdapter = SourceAdapter<SourceConfig>;

const LOADERS: { readonly [K in SourceKind]: () => Promise<{ readonly adapter: unknown }> } = {
  openapi: async () => ({ adapter: (await import("./openapi/index.js")).openapiAdapter }),
  local: async () => ({ adapter: (await import("./local/index.js")).localAdapter }),
  mcp: async () => ({ adapter: (await import("./mcp/index.js")).mcpAdapter }),
  optimade: async () => ({ adapter: (await import("./optimade/index.js")).optimadeAdapter }),
  proposal: async () => ({ adapter: (await import("./proposal/index.js")).proposalAdapter }),
  plugin: async () => ({ adapter: (await import("./plugin/index.js")).pluginAdapter }),
  odata: async () => ({ adapter: (await import("./odata/index.js")).odataAdapter }),
  graphql: async () => ({ adapter: (await import("./graphql/index.js")).graphqlAdapter }),
  openrpc: async () => ({ adapter: (await import("./openrpc/index.js")).openrpcAdapter }),
};

/** The adapter of `kind` (the same object as `ADAPTERS[kind]` in index.ts). */
export async function loadAdapter(kind: SourceKind): Promise<LoadedAdapter> {
  return (await LOADERS[kind]()).adapter as LoadedAdapter;
}
