/**
 * JSON Schema of `schemarouter.config.json`. The same object is published as
 * `schemarouter.config.schema.json` for editors (a test keeps the two identical).
 */

import { externalRefsSchema } from "./external-refs.js";
import { envRefSchema as env, fieldOverlaySchema as fieldOverlay } from "./fragments.js";
import { mcpSourceConfigSchema } from "./mcp-source.js";
import { openRpcSourceConfigSchema } from "./openrpc-source.js";
import { serveConfigSchema } from "./serve.js";

const endpointOverlay = {
  type: "object",
  additionalProperties: false,
  properties: {
    fields: {
      type: "array",
      items: fieldOverlay,
      description: "Trusted result contract: fields added to the endpoint.",
    },
    replaceFields: {
      type: "boolean",
      description: "Declare only the overlay fields (drop the derived ones).",
    },
    serverProjection: {
      type: "object",
      required: ["parameter", "selectors"],
      additionalProperties: false,
      properties: {
        parameter: { type: "string" },
        selectors: { type: "object", additionalProperties: { type: "string" } },
        always: { type: "array", items: { type: "string" } },
        separator: { type: "string" },
      },
    },
  },
} as const;

const overlays = {
  type: "object",
  additionalProperties: false,
  properties: { endpoints: { type: "object", additionalProperties: endpointOverlay } },
} as const;

const openapiSource = {
  type: "object",
  required: ["kind", "location"],
  additionalProperties: false,
  properties: {
    kind: { const: "openapi" },
    location: {
      type: "string",
      minLength: 1,
      description: "File path (relative to this config) or https URL.",
    },
    schemaHeaders: {
      type: "object",
      additionalProperties: env,
      description:
        "Headers sent only when fetching the document (and same-origin external $refs), each from a named environment variable.",
    },
    externalRefs: externalRefsSchema,
    overlays,
  },
} as const;

const localSource = {
  type: "object",
  required: ["kind", "module"],
  additionalProperties: false,
  properties: {
    kind: { const: "local" },
    module: {
      type: "string",
      minLength: 1,
      description: "Module (.ts, .js, .mjs) whose default export is defineLocalTool(...).",
    },
    export: { type: "string", description: "Named export to use instead of the default export." },
    overlays,
  },
} as const;

/** The MCP source schema (compiler/sources/mcp-config.ts) with the shared overlays definition. */
const mcpSource = {
  ...mcpSourceConfigSchema,
  properties: { ...mcpSourceConfigSchema.properties, overlays },
} as const;

const optimadeSource = {
  type: "object",
  required: ["kind", "location"],
  additionalProperties: false,
  properties: {
    kind: { const: "optimade" },
    location: {
      type: "string",
      minLength: 1,
      description: "Provider base URL (with or without the /v1 suffix).",
    },
    overlays,
  },
} as const;

/** The OpenRPC source schema (compiler/config/openrpc-source.ts) with the shared overlays definition. */
const openrpcSource = {
  ...openRpcSourceConfigSchema,
  properties: { ...openRpcSourceConfigSchema.properties, overlays },
} as const;

// biome-ignore-start lint/suspicious/noThenProperty: `then` is the JSON Schema keyword
export const CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://schemarouter.dev/schemarouter.config.schema.json",
  title: "schemarouter.config.json",
  type: "object",
  required: ["sources"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    outDir: {
      type: "string",
      default: "schemarouter",
      description: "Where artifacts and bindings are written.",
    },
    lockfile: { type: "string", default: "schemarouter.lock.json" },
    runtimeImport: {
      type: "string",
      default: "schemarouter",
      description: "Module specifier the generated bindings import.",
    },
    allowInsecureHttp: {
      type: "boolean",
      default: false,
      description: "Allow plain http:// sources on non-loopback hosts.",
    },
    serve: serveConfigSchema,
    sources: {
      type: "object",
      propertyNames: { pattern: "^[a-z][A-Za-z0-9_]*$" },
      additionalProperties: {
        type: "object",
        required: ["kind"],
        properties: { kind: { enum: ["openapi", "local", "mcp", "optimade", "openrpc"] } },
        allOf: [
          { if: { properties: { kind: { const: "openapi" } } }, then: openapiSource },
          { if: { properties: { kind: { const: "local" } } }, then: localSource },
          { if: { properties: { kind: { const: "mcp" } } }, then: mcpSource },
          { if: { properties: { kind: { const: "optimade" } } }, then: optimadeSource },
          { if: { properties: { kind: { const: "openrpc" } } }, then: openrpcSource },
        ],
      },
    },
  },
} as const;
// biome-ignore-end lint/suspicious/noThenProperty: `then` is the JSON Schema keyword
