/**
 * The MCP tool definition of one served capability (docs/serve.md, "What a client sees"): the
 * provider-safe name and the quoted description of the agents' tool set, the locked input schema
 * (self-contained, its dialect stated), the projected result's output schema, and annotations derived
 * from the locked effect and remote flag only — never copied from a remote server's hints.
 */
import type { AgentTool } from "../agents/tool-set.js";
import type { Effect, JsonValue } from "../model/specs.js";
import type { ServedOutput } from "./output-schema.js";

/** The JSON Schema dialect the boundary validates with (the locked schemas are 2020-12). */
export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** A tool as `tools/list` sends it. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, JsonValue>>;
  readonly outputSchema: Readonly<Record<string, JsonValue>>;
  readonly annotations: ToolAnnotations;
}

/**
 * What each locked effect tells a client. `unclassified` is treated as the worst case (it may
 * destroy); `read` is the only read-only, idempotent effect.
 */
const EFFECT_HINTS: Readonly<Record<Effect, Omit<ToolAnnotations, "title" | "openWorldHint">>> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  unclassified: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
};

export function annotationsOf(effect: Effect, remote: boolean, title: string): ToolAnnotations {
  return Object.freeze({ title, ...EFFECT_HINTS[effect], openWorldHint: remote });
}

export function definitionOf(tool: AgentTool, remote: boolean, output: ServedOutput): McpToolDefinition {
  return Object.freeze({
    name: tool.name,
    title: tool.route,
    description: tool.description,
    inputSchema: Object.freeze({ $schema: SCHEMA_DIALECT, ...tool.inputSchema }),
    outputSchema: output.schema,
    annotations: annotationsOf(tool.effect, remote, tool.route),
  });
}
