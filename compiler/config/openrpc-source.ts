/**
 * Configuration of an `openrpc` source (docs/sources/openrpc.md): its JSON Schema fragment and the
 * checks the adapter repeats (exactly one of location/discover, a JSON-RPC endpoint to call).
 */
import type { JsonObject } from "schemarouter/internal";
import type { OpenRpcSourceConfig } from "./config.js";
import { envRefSchema } from "./fragments.js";

export type { OpenRpcSourceConfig } from "./config.js";

/**
 * JSON Schema fragment of one `openrpc` source. The shared `overlays` property is left open here;
 * the config schema supplies its own definition.
 */
export const openRpcSourceConfigSchema = {
  type: "object",
  required: ["kind"],
  additionalProperties: false,
  properties: {
    kind: { const: "openrpc" },
    location: {
      type: "string",
      minLength: 1,
      description: "The OpenRPC document: a file path (relative to this config) or an https URL.",
    },
    discover: {
      type: "string",
      pattern: "^https?://[^?#@]+$",
      description:
        "A live JSON-RPC endpoint: its rpc.discover answer is the document, and calls go there too.",
    },
    url: {
      type: "string",
      pattern: "^https?://[^?#@]+$",
      description:
        "The JSON-RPC endpoint calls go to (locked). Required with location; defaults to discover.",
    },
    schemaHeaders: {
      type: "object",
      additionalProperties: envRefSchema,
      description:
        "Headers sent only when fetching the document or calling rpc.discover, each from a named environment variable.",
    },
    eitherParams: {
      enum: ["by-position", "by-name"],
      default: "by-position",
      description: 'How methods whose paramStructure is "either" (the default) send params.',
    },
    effects: {
      type: "object",
      description: "Local side-effect classification per method; unlisted methods stay unclassified.",
      additionalProperties: { enum: ["read", "write", "destructive"] },
    },
    overlays: { type: "object" },
  },
  oneOf: [
    { required: ["location"], not: { required: ["discover"] } },
    { required: ["discover"], not: { required: ["location"] } },
  ],
} as const satisfies JsonObject;

/** Where calls go: `url`, else the `discover` endpoint; undefined when neither is given. */
export function openRpcCallUrl(config: OpenRpcSourceConfig): string | undefined {
  return config.url ?? config.discover;
}
