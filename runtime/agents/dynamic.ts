/**
 * Small tool lists (docs/agents/README.md, "Dynamic tool sets"): per step, only the top-k capabilities
 * retrieved for the conversation are active, plus any the model found with the `search_capabilities`
 * tool and any the application always wants. Selection is a pure function of the conversation text
 * and the search results already in it, so one selection object serves any number of conversations.
 * Searching executes nothing: it only lists tools of the set (quoted descriptions), which become
 * active in the following steps.
 */
import { SchemaRouterError } from "../errors/errors.js";
import type { JsonValue } from "../model/specs.js";
import { MAX_K, MAX_QUERY_LENGTH } from "../retrieval/errors.js";
import type { SchemaRouter } from "../router/router.js";
import type { ToolOutcome } from "./refusal.js";
import type { AgentToolSet } from "./tool-set.js";

export const SEARCH_TOOL_NAME = "search_capabilities";
const DEFAULT_K = 5;
const MAX_SEARCH_K = 20;

export interface DynamicToolsOptions {
  /** Capabilities retrieved per step (default 5). */
  readonly k?: number;
  /** Tool names that are always active. */
  readonly always?: readonly string[];
  /** Offer the `search_capabilities` tool (default true). */
  readonly search?: boolean;
}

export interface SearchResultEntry {
  readonly name: string;
  readonly effect: string;
  readonly description: string;
}

export class DynamicSelection {
  readonly k: number;
  readonly search: boolean;
  readonly #always: readonly string[];

  constructor(
    private readonly router: SchemaRouter,
    readonly set: AgentToolSet,
    options: DynamicToolsOptions = {},
  ) {
    const k = options.k ?? DEFAULT_K;
    if (!Number.isInteger(k) || k < 1 || k > MAX_K) {
      throw new SchemaRouterError("AGENT_TOOLS_INVALID", `dynamic.k must be an integer from 1 to ${MAX_K}.`, {
        option: "k",
      });
    }
    for (const name of options.always ?? []) {
      if (set.get(name) === undefined) {
        throw new SchemaRouterError(
          "AGENT_TOOLS_INVALID",
          `dynamic.always: ${JSON.stringify(name)} is not a tool of this set.`,
          { option: "always" },
        );
      }
    }
    this.k = k;
    this.search = options.search !== false;
    this.#always = Object.freeze([...(options.always ?? [])]);
  }

  /** The tool names active for a step: top-k for `text`, the always-on ones, the discovered ones, search. */
  active(text: string, discovered: Iterable<string> = []): string[] {
    const names = new Set<string>(this.#always);
    for (const name of this.ranked(text, this.k)) names.add(name);
    for (const name of discovered) if (this.set.get(name) !== undefined) names.add(name);
    const ordered = this.set.tools.map((tool) => tool.name).filter((name) => names.has(name));
    return this.search ? [...ordered, SEARCH_TOOL_NAME] : ordered;
  }

  /** Names of the set's tools retrieval ranks highest for `text` (at most `k`). */
  ranked(text: string, k: number): string[] {
    const query = text.trim().slice(0, MAX_QUERY_LENGTH);
    if (query.length === 0) return [];
    const out: string[] = [];
    for (const candidate of this.router.retrieve({ query }, { k: MAX_K })) {
      const name = this.set.names.nameOf(candidate.route);
      if (name !== undefined && !out.includes(name)) out.push(name);
      if (out.length >= k) break;
    }
    return out;
  }

  /** Runs `search_capabilities`: lists matching tools of the set. Arguments come from the model. */
  runSearch(args: unknown): ToolOutcome<{ readonly tools: readonly SearchResultEntry[] }> {
    const { query, k } = (args ?? {}) as { query?: unknown; k?: unknown };
    if (typeof query !== "string" || (k !== undefined && (!Number.isInteger(k) || (k as number) < 1))) {
      return {
        ok: false,
        code: "INPUT_SCHEMA_VIOLATION",
        retryable: true,
        message: `${SEARCH_TOOL_NAME}: give { "query": "what you need" } and optionally "k" (1 to ${MAX_SEARCH_K}).`,
      };
    }
    const limit = Math.min((k as number | undefined) ?? DEFAULT_K, MAX_SEARCH_K);
    const tools = this.ranked(query, limit).map((name) => {
      const tool = this.set.get(name)!;
      return { name, effect: tool.effect, description: tool.description };
    });
    return { ok: true, data: { tools } };
  }
}

/** The input schema of `search_capabilities`. */
export const SEARCH_TOOL_SCHEMA: Readonly<Record<string, JsonValue>> = Object.freeze({
  type: "object",
  properties: {
    query: { type: "string", description: "What the tool you need should do or return." },
    k: { type: "integer", minimum: 1, maximum: MAX_SEARCH_K, description: "How many tools to list." },
  },
  required: ["query"],
  additionalProperties: false,
});

export const SEARCH_TOOL_DESCRIPTION =
  "Lists more tools for a need the active tools do not cover. The tools it lists become callable in the next step.";

/** Tool names listed by search results (outcome objects, or their JSON text). */
export function discoveredNames(outputs: Iterable<unknown>): string[] {
  const names: string[] = [];
  for (const output of outputs) {
    let value = output;
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch {
        continue;
      }
    }
    if (value === null || typeof value !== "object") continue;
    const outcome = value as { ok?: unknown; data?: { tools?: unknown } };
    const tools = outcome.data?.tools;
    if (outcome.ok !== true || !Array.isArray(tools)) continue;
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name === "string" && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
