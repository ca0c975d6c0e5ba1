/**
 * Configuration of an `mcp` source: its JSON Schema fragment, the checks the adapter repeats (exactly
 * one of stdio/url, no credentials in the URL), and how trusted local configuration becomes a
 * connection (env allowlist, headers from named environment variables) and trusted overlay fields,
 * and the notes that compare untrusted annotation hints with the local `effects` classification.
 */
import { resolve } from "node:path";
import type {
  FieldSpec,
  JsonObject,
  ListedTool,
  McpConnectionOptions,
  ToolExecution,
} from "schemarouter/internal";
import {
  checkMcpHeaders,
  checkMcpUrl,
  mcpExecutionIdentity,
  pickEnv,
  SchemaRouterError,
} from "schemarouter/internal";
import type { FieldOverlay, McpSourceConfig } from "../../config/config.js";
import { ENV_NAME_PATTERN, fieldOverlaySchema } from "../../config/fragments.js";
import type { SourceContext } from "../types.js";

export type { FieldOverlay, McpSourceConfig } from "../../config/config.js";

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

function invalid(source: string, message: string, details: Record<string, unknown> = {}): SchemaRouterError {
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

export interface McpConnection {
  readonly options: McpConnectionOptions;
  readonly execution: Extract<ToolExecution, { transport: "mcp" }>;
}

/** Trusted connection options: env allowlist values and header values come from `context.env`. */
export function mcpConnection(
  source: string,
  config: McpSourceConfig,
  context: SourceContext,
): McpConnection {
  let options: McpConnectionOptions;
  if (config.stdio !== undefined) {
    const { command, args, cwd, env } = config.stdio;
    options = {
      stdio: {
        command,
        args: [...(args ?? [])],
        cwd: resolve(context.cwd, cwd ?? "."),
        env: pickEnv(env ?? [], context.env),
      },
    };
  } else {
    const url = config.url as string;
    checkMcpUrl(url, { allowInsecureHttp: context.allowInsecureHttp });
    const headers: Record<string, string> = {};
    for (const [header, ref] of Object.entries(config.headers ?? {})) {
      const value = context.env[ref.env];
      if (value === undefined) {
        throw new SchemaRouterError(
          "MCP_ENV_MISSING",
          `source "${source}": header "${header}" reads environment variable ${ref.env}, which is not set. Set it before compiling.`,
          { source, header, variable: ref.env },
        );
      }
      headers[header] = value;
    }
    checkMcpHeaders(headers);
    options = { url, headers, allowInsecureHttp: context.allowInsecureHttp };
  }
  return { options, execution: mcpExecutionIdentity(options) };
}

/** A trusted overlay field as a FieldSpec (marked `overlay: true`). */
export function overlayField(overlay: FieldOverlay): FieldSpec {
  const { normalization, ...rest } = overlay;
  return {
    ...rest,
    path: [...overlay.path],
    ...(overlay.resultPath === undefined ? {} : { resultPath: [...overlay.resultPath] }),
    ...(normalization === undefined
      ? {}
      : {
          normalization: {
            canonicalUnit: normalization.canonicalUnit,
            scale: normalization.scale,
            offset: normalization.offset ?? 0,
          },
        }),
    overlay: true,
  };
}

/** One line per tool whose untrusted annotations suggest a classification the config does not make. */
export function annotationNotes(listed: readonly ListedTool[], config: McpSourceConfig): string[] {
  const notes: string[] = [];
  for (const def of [...listed].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const annotations = def.annotations;
    if (annotations === null || typeof annotations !== "object" || Array.isArray(annotations)) continue;
    const { readOnlyHint, destructiveHint } = annotations as JsonObject;
    let hint: string | undefined;
    let suggested: string | undefined;
    if (readOnlyHint === true) [hint, suggested] = ["readOnlyHint=true", "read"];
    else if (destructiveHint === true) [hint, suggested] = ["destructiveHint=true", "destructive"];
    else if (readOnlyHint === false && destructiveHint === false) {
      [hint, suggested] = ["readOnlyHint=false, destructiveHint=false", "write"];
    }
    if (hint === undefined) continue;
    const local = config.effects?.[def.name];
    if (local === undefined) notes.push(`tool ${def.name} says ${hint}; classify it in effects to trust it`);
    else if (local !== suggested) {
      notes.push(
        `tool ${def.name} says ${hint} but effects classifies it as "${local}"; the local classification applies`,
      );
    }
  }
  return notes;
}
