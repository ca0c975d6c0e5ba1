/**
 * How trusted local configuration of an `mcp` source becomes a connection (env allowlist, headers from
 * named environment variables) and trusted overlay fields, and the notes that compare untrusted
 * annotation hints with the local `effects` classification.
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
import { ENV_NAME_PATTERN } from "../../config/fragments.js";
import type { SourceContext } from "../types.js";

const _ENV_NAME = ENV_NAME_PATTERN;

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
    const local =
      config.effects !== undefined && Object.hasOwn(config.effects, def.name)
        ? config.effects[def.name]
        : undefined;
    if (local === undefined) notes.push(`tool ${def.name} says ${hint}; classify it in effects to trust it`);
    else if (local !== suggested) {
      notes.push(
        `tool ${def.name} says ${hint} but effects classifies it as "${local}"; the local classification applies`,
      );
    }
  }
  return notes;
}
