/**
 * The part every raw provider format shares (docs/agents/raw-formats.md): the tool set, the optional
 * dynamic selection, and running one tool call given by name with arguments that are a JSON string
 * (OpenAI) or an object (Anthropic). Unknown names and unparsable arguments are refusals too.
 */
import type { RunConfig } from "../governed/config.js";
import type { JsonValue } from "../model/specs.js";
import type { SchemaRouter } from "../router/router.js";
import {
  DynamicSelection,
  type DynamicToolsOptions,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_SCHEMA,
} from "./dynamic.js";
import { adapterRefusal, type ToolOutcome } from "./refusal.js";
import { type AgentRunConfig, runConfigFor } from "./run-config.js";
import { AgentToolSet, type AgentToolSetOptions, executeTool } from "./tool-set.js";

export interface RawToolsOptions extends AgentToolSetOptions {
  readonly runConfig?: AgentRunConfig;
  /** Per request, send only the top-k tools (`activeNames`) plus `search_capabilities`. */
  readonly dynamic?: DynamicToolsOptions | true;
}

export interface DefinitionOptions {
  /** Only these tool names (e.g. from `activeNames`); default every tool (and search when dynamic). */
  readonly active?: readonly string[];
  /**
   * Send the other tools too, marked `defer_loading: true`, for the provider's own tool search
   * (OpenAI Responses and Anthropic; Chat Completions has no such field and leaves them out).
   */
  readonly defer?: boolean;
}

/** A format-neutral tool definition. */
export interface NeutralDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly strict: boolean;
  readonly deferred: boolean;
}

export class RawTools {
  readonly set: AgentToolSet;
  readonly selection: DynamicSelection | undefined;

  constructor(
    private readonly router: SchemaRouter,
    private readonly options: RawToolsOptions,
  ) {
    this.set = AgentToolSet.build(router, options, [SEARCH_TOOL_NAME]);
    this.selection =
      options.dynamic !== undefined
        ? new DynamicSelection(router, this.set, options.dynamic === true ? {} : options.dynamic)
        : undefined;
  }

  definitions(options: DefinitionOptions = {}): NeutralDefinition[] {
    const active = options.active !== undefined ? new Set(options.active) : undefined;
    const out: NeutralDefinition[] = [];
    for (const tool of this.set.tools) {
      const deferred = active !== undefined && !active.has(tool.name);
      if (deferred && options.defer !== true) continue;
      out.push({
        name: tool.name,
        description: tool.description,
        parameters: structuredClone(tool.inputSchema) as Record<string, unknown>,
        strict: tool.strict,
        deferred,
      });
    }
    if (this.selection?.search === true && (active === undefined || active.has(SEARCH_TOOL_NAME))) {
      out.push({
        name: SEARCH_TOOL_NAME,
        description: SEARCH_TOOL_DESCRIPTION,
        parameters: structuredClone(SEARCH_TOOL_SCHEMA) as Record<string, JsonValue>,
        strict: false,
        deferred: false,
      });
    }
    return out;
  }

  /** Names for the next request: top-k for `text` plus tools earlier searches listed (all when not dynamic). */
  activeNames(text: string, discovered: Iterable<string> = []): string[] {
    if (this.selection === undefined) return this.set.tools.map((tool) => tool.name);
    return this.selection.active(text, discovered);
  }

  /** Runs one tool call; `args` is the provider's JSON text or an already parsed object. */
  async run(
    name: string,
    args: unknown,
    callId: string | undefined,
    config?: RunConfig,
  ): Promise<ToolOutcome> {
    if (name === SEARCH_TOOL_NAME && this.selection?.search === true) {
      return this.selection.runSearch(typeof args === "string" ? parse(args) : args);
    }
    const tool = this.set.get(name);
    if (tool === undefined) return adapterRefusal("UNKNOWN_TOOL", name);
    const parsed = typeof args === "string" ? parse(args) : args;
    if (parsed === undefined) return adapterRefusal("INPUT_SCHEMA_VIOLATION", name);
    const info = { name, route: tool.route, ...(callId !== undefined ? { callId } : {}) };
    return executeTool(this.router, tool, parsed, config ?? runConfigFor(this.options.runConfig, info));
  }
}

function parse(text: string): unknown {
  try {
    // An empty argument string is how some models call a tool without arguments.
    return text.trim().length === 0 ? {} : JSON.parse(text);
  } catch {
    return undefined;
  }
}
