/**
 * schemarouter/internal — the runtime modules the compiler (`@schemarouter/compiler`) builds on: the
 * capability model, the artifact and lockfile formats, verification, validation and the transports' shared
 * rules. Not public API: it may change in any release, and the compiler pins this package's exact
 * version. Applications import `schemarouter` and its documented subpaths (docs/reference/exports.md).
 */
export * from "./boundary/formats.js";
export * from "./boundary/projection.js";
export * from "./boundary/regexp.js";
export * from "./boundary/validation.js";
export * from "./errors/errors.js";
export * from "./errors/fields.js";
export * from "./errors/registry.js";
export * from "./errors/suggest.js";
export * from "./errors/table.js";
export * from "./format/artifact.js";
export * from "./format/artifact-embeddings.js";
export * from "./format/artifact-layout.js";
export * from "./format/artifact-read.js";
export * from "./format/artifact-render.js";
export * from "./format/candidate-locations.js";
export * from "./format/fingerprint.js";
export * from "./format/lockfile.js";
export * from "./format/mcp-digest.js";
export * from "./format/regular-file.js";
export * from "./format/retrieval-index.js";
export * from "./format/url.js";
export * from "./graph/index.js";
export * from "./load/load.js";
export * from "./load/registry.js";
export * from "./model/derive-fields.js";
export * from "./model/freeze.js";
export * from "./model/json-pointer.js";
export * from "./model/specs.js";
export * from "./planner/version-range.js";
export {
  type MigrationResult,
  migratePostgres,
  postgresSchemaStatus,
  type SchemaStatus,
} from "./postgres/migrate.js";
export * from "./retrieval/embeddings/index.js";
export { componentLengthsOfRows, LENGTH_BITS } from "./retrieval/length-norm.js";
export {
  type IndexedTool,
  type IndexedToolNames,
  indexDataOf,
  indexDataOfSurface,
} from "./retrieval/stored-index.js";
export { DF_MASK, type SurfaceRows, surfaceOfRows } from "./retrieval/surface.js";
export { addEntry, SURFACE_VERSION, SurfaceBuilder } from "./retrieval/surface-builder.js";
export * from "./serve/defaults.js";
export { plainText } from "./transports/graphql/response.js";
export * from "./transports/http/headers.js";
export * from "./transports/http/redact-secrets.js";
export * from "./transports/local/transport.js";
export * from "./transports/mcp/client.js";
export * from "./transports/mcp/list.js";
export * from "./transports/mcp/target.js";
export * from "./transports/optimade/url.js";
