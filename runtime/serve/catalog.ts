/**
 * What one registry version serves (docs/serve.md): the exposed capabilities (globs over
 * `tool.endpoint`, the policy rules' glob language) as an agents tool set under the `mcp` name
 * profile, their MCP definitions, the `search_capabilities` tool and the top-k listing. A catalog is
 * built whole from one router and never changes; a lock change builds a new one and swaps it in
 * (state.ts), so a request sees one catalog from start to end.
 */
import { DynamicSelection, SEARCH_TOOL_NAME, SEARCH_TOOL_SCHEMA } from "../agents/dynamic.js";
import type { NameProfile, NameProfileId } from "../agents/names.js";
import { AgentToolSet } from "../agents/tool-set.js";
import { PolicyRule } from "../boundary/policy.js";
import { selectFields } from "../boundary/projection.js";
import { SchemaRouterError } from "../errors/errors.js";
import { digestJson } from "../format/fingerprint.js";
import type { SchemaRouter } from "../router/router.js";
import { annotationsOf, definitionOf, type McpToolDefinition, SCHEMA_DIALECT } from "./definitions.js";
import { servedOutputSchema } from "./output-schema.js";

/** Top-k listing: only the capabilities retrieved for `query`, the `always` ones and those found by search. */
export interface ListingOptions {
  /** How many retrieved capabilities to list (1 to 200). */
  readonly k: number;
  /** What the served project is for (what retrieval ranks against); without it, none are retrieved. */
  readonly query?: string;
  /** Routes (`tool.endpoint`) that are always listed. */
  readonly always?: readonly string[];
}

export interface CatalogOptions {
  /** Globs over `tool.endpoint` (default `["**"]`: every locked capability). */
  readonly expose?: readonly string[];
  /** Explicit tool names by route. */
  readonly names?: Readonly<Record<string, string>>;
  /** The fields a route returns, fixed (default: every declared field). */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  /** Tool name profile (default `mcp`). */
  readonly profile?: NameProfile | NameProfileId;
  /** List only a retrieved top-k (default: list every exposed capability). */
  readonly listing?: ListingOptions;
  /** Offer `search_capabilities` (default true). */
  readonly search?: boolean;
}

export interface ServedTool {
  readonly name: string;
  readonly definition: McpToolDefinition;
  /** Results are sent as `{ result: data }` (the projected result's root is not an object). */
  readonly wrapped: boolean;
}

export class Catalog {
  /** Calls running against this catalog's router. */
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];

  private constructor(
    readonly router: SchemaRouter,
    readonly set: AgentToolSet,
    readonly tools: ReadonlyMap<string, ServedTool>,
    readonly search: SearchTool | undefined,
    readonly selection: DynamicSelection,
    readonly listing: ListingOptions | undefined,
    /** Digest of every definition and pin: equal digests serve the same thing. */
    readonly digest: string,
  ) {}

  static build(router: SchemaRouter, options: CatalogOptions = {}): Catalog {
    const rules = (options.expose ?? ["**"]).map(exposeRule);
    const routes: string[] = [];
    for (const registered of router.registry.registeredTools()) {
      for (const endpoint of registered.endpointFingerprints.keys()) {
        const subject = { tool: registered.tool.name, endpoint, effect: "read" as const, remote: false };
        if (rules.some((rule) => rule.matches(subject))) routes.push(`${registered.tool.name}.${endpoint}`);
      }
    }
    const unbound = [...new Set(routes.map((route) => route.slice(0, route.indexOf("."))))].filter(
      (tool) => !router.isReady(tool),
    );
    if (unbound.length > 0) {
      throw invalid(
        "expose",
        `${unbound.join(", ")} ${unbound.length === 1 ? "has" : "have"} exposed capabilities but no ready binding: bind ${unbound.length === 1 ? "it" : "them"} (bindings) or narrow expose.`,
      );
    }
    const names = Object.fromEntries(
      Object.entries(options.names ?? {}).filter(([route]) => routes.includes(route)),
    );
    const fields = options.fields ?? {};
    for (const route of Object.keys(fields)) {
      if (!routes.includes(route))
        throw invalid("fields", `${JSON.stringify(route)} is not an exposed capability.`);
    }
    const select = routes.map((route) =>
      Object.hasOwn(fields, route) ? { route, fields: fields[route]! } : route,
    );
    const set = AgentToolSet.build(router, { select, names, profile: options.profile ?? "mcp" }, [
      SEARCH_TOOL_NAME,
    ]);
    const tools = new Map<string, ServedTool>();
    for (const tool of set.tools) {
      const registered = router.registry.get(tool.tool)!;
      const spec = registered.endpoints.get(tool.endpoint)!;
      const output = servedOutputSchema(
        router.registry.effectiveSchema(tool.tool, tool.endpoint, "output"),
        selectFields(spec, tool.fields, tool.route),
        spec.fields.length > 0,
      );
      tools.set(tool.name, {
        name: tool.name,
        definition: definitionOf(tool, registered.tool.remote, output),
        wrapped: output.wrapped,
      });
    }
    const always = (options.listing?.always ?? []).map((route) => {
      const name = set.names.nameOf(route);
      if (name === undefined)
        throw invalid("listing.always", `${JSON.stringify(route)} is not an exposed capability.`);
      return name;
    });
    const selection = new DynamicSelection(router, set, {
      ...(options.listing !== undefined ? { k: options.listing.k } : {}),
      always,
      search: options.search !== false,
    });
    const search = options.search === false ? undefined : SEARCH;
    const digest = digestJson({
      tools: set.tools.map((tool) => [tool.name, tool.endpointFingerprint, tool.toolFingerprint]),
      definitions: [...tools.values()].map((tool) => tool.definition),
      search: search !== undefined,
      listing: options.listing ?? null,
    });
    return new Catalog(router, set, tools, search, selection, options.listing, digest);
  }

  /** The definitions `tools/list` sends, given the names a session found with search. */
  list(discovered: Iterable<string> = []): McpToolDefinition[] {
    if (this.listing === undefined) {
      const all = [...this.tools.values()].map((tool) => tool.definition);
      return this.search !== undefined ? [...all, this.search] : all;
    }
    return this.selection
      .active(this.listing.query ?? "", discovered)
      .map((name) => (name === SEARCH_TOOL_NAME ? this.search! : this.tools.get(name)!.definition));
  }

  /** Counts a call against this catalog's router until `release`. */
  enter(): () => void {
    this.#inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#inFlight === 0) for (const resolve of this.#waiting.splice(0)) resolve();
    };
  }

  /** Resolves when no call runs against this catalog any more. */
  drained(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

export type SearchTool = McpToolDefinition;

const SEARCH: SearchTool = Object.freeze({
  name: SEARCH_TOOL_NAME,
  title: "Search capabilities",
  description:
    "Finds tools of this server for a need: their names, effects and descriptions. It executes nothing. With a short tool list, the tools it finds are added to the list.",
  inputSchema: Object.freeze({ $schema: SCHEMA_DIALECT, ...SEARCH_TOOL_SCHEMA }),
  outputSchema: Object.freeze({
    type: "object",
    properties: {
      tools: {
        type: "array",
        items: {
          type: "object",
          properties: {
            name: { type: "string" },
            effect: { type: "string" },
            description: { type: "string" },
          },
          required: ["name", "effect", "description"],
        },
      },
    },
    required: ["tools"],
  }),
  annotations: annotationsOf("read", false, "Search capabilities"),
});

function exposeRule(glob: string): PolicyRule {
  try {
    return new PolicyRule({ action: "allow", operation: glob });
  } catch (error) {
    throw invalid(
      "expose",
      `${JSON.stringify(glob)} is not a valid glob over tool.endpoint: ${(error as Error).message}`,
      error,
    );
  }
}

export function invalid(option: string, message: string, cause?: unknown): SchemaRouterError {
  return new SchemaRouterError(
    "SERVE_OPTIONS_INVALID",
    `MCP server: ${option}: ${message}`,
    { option },
    cause !== undefined ? { cause } : undefined,
  );
}
