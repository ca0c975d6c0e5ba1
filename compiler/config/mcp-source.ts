/**
 * Configuration of an `mcp` source: its JSON Schema fragment and the checks the adapter repeats (exactly
 * one of stdio/url, effects from the allowed set). sources/mcp/connection.ts turns it into a connection.
 */
import type { ErrorDetailsOf, JsonObject } from "schemarouter/internal";
import { SchemaRouterError } from "schemarouter/internal";
import type { McpSourceConfig } from "./config.js";
import { ENV_NAME_PATTERN, fieldOverlaySchema } from "./fragments.js";

export type { FieldOverlay, McpSourceConfig } from "./config.js";

const ENV_NAME = ENV_NAME_PATTERN;

/**
 * JSON Schema fragment of one `mcp` source (draft-07 and 2020-12 compatible keywords only). The
 * shared `overlays` property is left open here; the config schema supplies its own definition.
 */
export const mcpSourceConfigSchema = {
  type: "object",
  required: ["kind"],
  additionalProperties: false,
  properties: {
    kind: { const: "mcp" },
    stdio: {
      type: "object",
      required: ["command"],
      additionalProperties: false,
      description: "Spawn the server as a local process (stdio transport).",
      properties: {
        command: {
          type: "string",
          minLength: 1,
          description: "Executable; a bare name is looked up on PATH.",
        },
        args: { type: "array", items: { type: "string" } },
        cwd: { type: "string", description: "Working directory, relative to the config file." },
        env: {
          type: "array",
          uniqueItems: true,
          items: { type: "string", pattern: ENV_NAME },
          description:
            "Names of environment variables copied to the server. Nothing else is inherited, not even PATH or HOME.",
        },
      },
    },
    url: {
      type: "string",
      pattern: "^https?://[^?#@]+$",
      description:
        "Streamable HTTP endpoint: https:// (http:// only on loopback); no userinfo, query or fragment.",
    },
    headers: {
      type: "object",
      description: "Trusted request headers, each value read from a named environment variable.",
      additionalProperties: {
        type: "object",
        required: ["env"],
        additionalProperties: false,
        properties: { env: { type: "string", pattern: ENV_NAME } },
      },
    },
    effects: {
      type: "object",
      description: "Local side-effect classification per MCP tool; unlisted tools stay unclassified.",
      additionalProperties: { enum: ["read", "write", "destructive"] },
    },
    results: {
      type: "object",
      description: "Trusted result contracts per MCP tool: fields added to the endpoint.",
      additionalProperties: {
        type: "object",
        required: ["fields"],
        additionalProperties: false,
        properties: { fields: { type: "array", items: fieldOverlaySchema } },
      },
    },
    overlays: { type: "object" },
  },
  oneOf: [
    { required: ["stdio"], not: { anyOf: [{ required: ["url"] }, { required: ["headers"] }] } },
    { required: ["url"], not: { required: ["stdio"] } },
  ],
} as const satisfies JsonObject;

function invalid(
  source: string,
  message: string,
  details: ErrorDetailsOf<"MCP_CONFIG_INVALID"> = {},
): SchemaRouterError<"MCP_CONFIG_INVALID"> {
  return new SchemaRouterError("MCP_CONFIG_INVALID", `source "${source}": ${message}`, {
    source,
    ...details,
  });
}

/** The checks that matter for authority, repeated here so the adapter is safe on its own. */
export function checkMcpConfig(source: string, config: McpSourceConfig): void {
  if ((config.stdio === undefined) === (config.url === undefined)) {
    throw invalid(source, 'give exactly one of "stdio" or "url".');
  }
  if (config.stdio !== undefined && config.headers !== undefined) {
    throw invalid(
      source,
      '"headers" apply to a "url" source only; pass secrets to stdio servers through "env".',
    );
  }
  for (const [tool, effect] of Object.entries(config.effects ?? {})) {
    if (effect !== "read" && effect !== "write" && effect !== "destructive") {
      throw invalid(source, `effects.${tool} must be "read", "write" or "destructive".`, { tool });
    }
  }
}
