/**
 * JSON Schema of `schemarouter.config.json`. The same object is published as
 * `schemarouter.config.schema.json` for editors (a test keeps the two identical).
 */

import { embedderSchema } from "./embedder.js";
import { externalRefsSchema } from "./external-refs.js";
import { envRefSchema as env, fieldOverlaySchema as fieldOverlay } from "./fragments.js";
import { mcpSourceConfigSchema } from "./mcp-source.js";
import { openRpcSourceConfigSchema } from "./openrpc-source.js";
import { pluginSourceSchema, pluginsSchema } from "./plugin-source.js";
import { proposalSourceSchema, proposerSchema } from "./proposal-source.js";
import { providersSchema } from "./providers.js";
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
    parameters: {
      type: "object",
      description:
        "Parameter meanings for the capability graph: an output field with the same semanticId can supply the parameter.",
      additionalProperties: {
        type: "object",
        required: ["semanticId"],
        additionalProperties: false,
        properties: {
          semanticId: { type: "string", minLength: 1 },
          accepts: { type: "array", items: { type: "string", minLength: 1 } },
        },
      },
    },
    preconditions: {
      type: "array",
      description:
        "Routes (tool.endpoint) that must have run before this endpoint; reported by the graph, never run.",
      items: { type: "string", minLength: 3 },
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
    specOverlays: {
      type: "array",
      minItems: 1,
      items: {
        type: "string",
        minLength: 1,
        pattern: "\\.(ya?ml|json)$",
        description: "An OpenAPI Overlay 1.0 file: a path ending in .yaml, .yml or .json.",
      },
      description:
        "OpenAPI Overlay 1.0 documents (.yaml, .yml or .json files, relative to this config) applied in order to the document before it is compiled.",
    },
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

const proposalSource = {
  ...proposalSourceSchema,
  properties: { ...proposalSourceSchema.properties, overlays },
} as const;

const pluginSource = {
  ...pluginSourceSchema,
  properties: { ...pluginSourceSchema.properties, overlays },
} as const;

const odataSource = {
  type: "object",
  required: ["kind", "location"],
  additionalProperties: false,
  properties: {
    kind: { const: "odata" },
    location: {
      type: "string",
      minLength: 1,
      description:
        "OData v4 service root URL (its $metadata is read) or a CSDL XML file (relative to this config).",
    },
    serviceRoot: {
      type: "string",
      minLength: 1,
      description: "Service root URL calls go to; required when location is a file.",
    },
    schemaHeaders: {
      type: "object",
      additionalProperties: env,
      description: "Headers sent only when fetching $metadata, each from a named environment variable.",
    },
    effects: {
      type: "object",
      additionalProperties: { enum: ["read", "write", "destructive"] },
      description: "Trusted local side-effect classification by endpoint name (actions are write otherwise).",
    },
    overlays,
  },
} as const;

const graphqlSource = {
  type: "object",
  required: ["kind", "location"],
  additionalProperties: false,
  properties: {
    kind: { const: "graphql" },
    location: {
      type: "string",
      minLength: 1,
      description: "The GraphQL endpoint URL (introspected) or an SDL file path (relative to this config).",
    },
    schemaHeaders: {
      type: "object",
      additionalProperties: env,
      description: "Headers sent only with the introspection query, each from a named environment variable.",
    },
    provider: {
      type: "string",
      minLength: 1,
      description:
        "The logical provider (default: the source name); name the same provider as another source of the same API.",
    },
    effects: {
      type: "object",
      additionalProperties: { enum: ["read", "write", "destructive"] },
      description: "Mutation endpoint name to its effect (mutations are write unless classified here).",
    },
    partialResults: {
      type: "boolean",
      default: false,
      description: "Accept data that comes with errors (refused by default).",
    },
    maxDepth: {
      type: "integer",
      minimum: 1,
      maximum: 8,
      default: 3,
      description: "Object levels below each root field that become output fields.",
    },
    maxFields: {
      type: "integer",
      minimum: 1,
      maximum: 2000,
      default: 200,
      description: "Output fields of one endpoint at most.",
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
    proposer: proposerSchema,
    plugins: pluginsSchema,
    providers: providersSchema,
    sources: {
      type: "object",
      propertyNames: { pattern: "^[a-z][A-Za-z0-9_]*$" },
      additionalProperties: {
        type: "object",
        required: ["kind"],
        properties: {
          kind: {
            enum: [
              "openapi",
              "local",
              "mcp",
              "optimade",
              "proposal",
              "plugin",
              "odata",
              "graphql",
              "openrpc",
            ],
          },
        },
        allOf: [
          { if: { properties: { kind: { const: "openapi" } } }, then: openapiSource },
          { if: { properties: { kind: { const: "local" } } }, then: localSource },
          { if: { properties: { kind: { const: "mcp" } } }, then: mcpSource },
          { if: { properties: { kind: { const: "optimade" } } }, then: optimadeSource },
          { if: { properties: { kind: { const: "proposal" } } }, then: proposalSource },
          { if: { properties: { kind: { const: "plugin" } } }, then: pluginSource },
          { if: { properties: { kind: { const: "odata" } } }, then: odataSource },
          { if: { properties: { kind: { const: "graphql" } } }, then: graphqlSource },
          { if: { properties: { kind: { const: "openrpc" } } }, then: openrpcSource },
        ],
      },
    },
    embedder: embedderSchema,
  },
} as const;
// biome-ignore-end lint/suspicious/noThenProperty: `then` is the JSON Schema keyword
