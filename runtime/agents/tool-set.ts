/**
 * Which locked capabilities an agent gets, and how each one is called (docs/agents/README.md, "Tool
 * sets"). A tool set is built once from the router's current registry: every capability (`"all"`), a
 * named selection of routes, the top-k of `retrieve()` or the calls of `plan()` for a request. The
 * endpoint and tool fingerprints and the field selection of every tool are fixed then; the model
 * supplies only arguments, and every call runs through `router.invoke()` with the caller's RunConfig.
 */
import { selectFields } from "../boundary/projection.js";
import { isSchemaRouterError, SchemaRouterError } from "../errors/errors.js";
import type { RunConfig } from "../governed/config.js";
import type { RegisteredTool } from "../load/registry.js";
import type { Effect, JsonValue, ToolCall } from "../model/specs.js";
import type { PlanOptions } from "../planner/index.js";
import type { RetrievalRequest } from "../retrieval/index.js";
import type { SchemaRouter } from "../router/router.js";
import { modelInputSchema, quoteUntrusted } from "./model-schema.js";
import { type NameProfile, type NameProfileId, routeKey, ToolNameMap } from "./names.js";
import { adapterRefusal, refusalOf, type ToolOutcome } from "./refusal.js";

/** One route of a named selection, optionally with its fields fixed. */
export interface RouteSelection {
  /** `tool.endpoint`, e.g. `petstore.getPetById`. */
  readonly route: string;
  /** Logical field IDs to return (default: every declared field). */
  readonly fields?: readonly string[];
}

export type ToolSelection =
  | "all"
  | readonly (string | RouteSelection)[]
  | { readonly retrieve: RetrievalRequest; readonly k?: number }
  | { readonly plan: RetrievalRequest; readonly options?: PlanOptions };

export interface AgentToolSetOptions {
  /** Which capabilities (default `"all"`). */
  readonly select?: ToolSelection;
  /** Keep only capabilities with these effects (e.g. `["read"]`). */
  readonly effects?: readonly Effect[];
  /** Explicit tool names by route; each is checked against the name profile. */
  readonly names?: Readonly<Record<string, string>>;
  readonly profile?: NameProfile | NameProfileId;
  /** Per-tool strict schemas where the schema provably fits the strict subset (default false). */
  readonly strict?: boolean;
}

/** What one built tool is: its model-facing definition and the pinned call it makes. */
export interface AgentTool {
  /** Provider-safe name (see names.ts). */
  readonly name: string;
  /** `tool.endpoint`. */
  readonly route: string;
  readonly tool: string;
  readonly endpoint: string;
  readonly effect: Effect;
  /** Model-facing description: the route and effect, and the remote description quoted as data. */
  readonly description: string;
  /** Model-facing input schema (see model-schema.ts). */
  readonly inputSchema: Readonly<Record<string, JsonValue>>;
  /** The same schema with `pattern` / `patternProperties` removed. */
  readonly inputSchemaWithoutPatterns: Readonly<Record<string, JsonValue>>;
  /** Whether the definition is sent as strict (requested and provably in the strict subset). */
  readonly strict: boolean;
  /** Whether the router's policy asks for approval before this call (and allows it at all). */
  readonly needsApproval: boolean;
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  /** The fixed field selection (absent: every declared field). */
  readonly fields?: readonly string[];
  readonly parameters: ReadonlySet<string>;
}

interface Chosen {
  readonly registered: RegisteredTool;
  readonly endpoint: string;
  readonly fields?: readonly string[];
}

/** Codes that mean the application (not the model) got something wrong: they are thrown, not returned. */
const APPLICATION_ERRORS = new Set(["RUN_CONFIG_INVALID", "PLAN_INVALID", "AGENT_TOOLS_INVALID"]);

export class AgentToolSet {
  readonly tools: readonly AgentTool[];
  readonly names: ToolNameMap;
  readonly #byName: ReadonlyMap<string, AgentTool>;

  private constructor(
    private readonly router: SchemaRouter,
    tools: readonly AgentTool[],
    names: ToolNameMap,
  ) {
    this.tools = Object.freeze([...tools]);
    this.names = names;
    this.#byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Builds the tool set from the router's current registry (fingerprints and fields fixed now). */
  static build(router: SchemaRouter, options: AgentToolSetOptions = {}, reserved: readonly string[] = []) {
    const chosen = choose(router, options.select ?? "all").filter(
      (item) =>
        options.effects === undefined ||
        options.effects.includes(item.registered.endpoints.get(item.endpoint)!.effect),
    );
    const names = ToolNameMap.build(
      chosen.map((item) => ({ tool: item.registered.tool.name, endpoint: item.endpoint })),
      {
        ...(options.profile !== undefined ? { profile: options.profile } : {}),
        ...(options.names !== undefined ? { overrides: options.names } : {}),
        reserved,
      },
    );
    const tools = chosen.map((item) => buildTool(router, item, names, options.strict === true));
    return new AgentToolSet(router, tools, names);
  }

  get(name: string): AgentTool | undefined {
    return this.#byName.get(name);
  }

  /**
   * Runs the named tool with the model's arguments through `router.invoke()`. Refusals and failures
   * come back as `{ ok: false, … }`; only application errors (a bad RunConfig) are thrown.
   */
  async execute(name: string, args: unknown, config: RunConfig = {}): Promise<ToolOutcome> {
    const tool = this.#byName.get(name);
    if (tool === undefined) return adapterRefusal("UNKNOWN_TOOL", name);
    return executeTool(this.router, tool, args, config);
  }
}

/** Runs one built tool; see AgentToolSet.execute. */
export async function executeTool(
  router: SchemaRouter,
  tool: AgentTool,
  args: unknown,
  config: RunConfig = {},
): Promise<ToolOutcome> {
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return adapterRefusal("INPUT_SCHEMA_VIOLATION", tool.name);
  const call: ToolCall = {
    tool: tool.tool,
    endpoint: tool.endpoint,
    arguments: args as Readonly<Record<string, unknown>>,
    ...(tool.fields !== undefined ? { fields: tool.fields } : {}),
    endpointFingerprint: tool.endpointFingerprint,
    toolFingerprint: tool.toolFingerprint,
  };
  try {
    const [result] = await router.invoke(call, config);
    return Object.freeze({ ok: true, data: result!.data });
  } catch (error) {
    if (!isSchemaRouterError(error) || APPLICATION_ERRORS.has(error.code)) throw error;
    return refusalOf(error, { name: tool.name, parameters: tool.parameters });
  }
}

/** The exact call a built tool makes with these arguments (what an approval is bound to). */
export function pinnedCall(tool: AgentTool, args: Readonly<Record<string, unknown>>): ToolCall {
  return {
    tool: tool.tool,
    endpoint: tool.endpoint,
    arguments: args,
    ...(tool.fields !== undefined ? { fields: tool.fields } : {}),
    endpointFingerprint: tool.endpointFingerprint,
    toolFingerprint: tool.toolFingerprint,
  };
}

function choose(router: SchemaRouter, select: ToolSelection): Chosen[] {
  const registry = router.registry;
  const lookup = (route: string, fields?: readonly string[]): Chosen => {
    const dot = typeof route === "string" ? route.indexOf(".") : -1;
    const registered = dot > 0 ? registry.get(route.slice(0, dot)) : undefined;
    const endpoint = dot > 0 ? route.slice(dot + 1) : "";
    if (registered === undefined || !registered.endpointFingerprints.has(endpoint)) {
      throw new SchemaRouterError(
        "AGENT_TOOLS_INVALID",
        `select: ${JSON.stringify(route)} is not a locked capability (tool.endpoint).`,
        { option: "select", route },
      );
    }
    return { registered, endpoint, ...(fields !== undefined ? { fields } : {}) };
  };
  if (select === "all") {
    return [...registry.registeredTools()].flatMap((registered) =>
      [...registered.endpointFingerprints.keys()].map((endpoint) => ({ registered, endpoint })),
    );
  }
  if (Array.isArray(select)) {
    return (select as readonly (string | RouteSelection)[]).map((item) =>
      typeof item === "string" ? lookup(item) : lookup(item.route, item.fields),
    );
  }
  if (typeof select === "object" && select !== null && "retrieve" in select) {
    return router
      .retrieve(select.retrieve, select.k !== undefined ? { k: select.k } : {})
      .map((candidate) => lookup(candidate.route));
  }
  if (typeof select === "object" && select !== null && "plan" in select) {
    return router
      .plan(select.plan, select.options ?? {})
      .calls.map((call) => lookup(`${call.tool}.${call.endpoint}`, call.fields));
  }
  throw new SchemaRouterError(
    "AGENT_TOOLS_INVALID",
    'select must be "all", a list of routes, { retrieve } or { plan }.',
    { option: "select" },
  );
}

function buildTool(router: SchemaRouter, item: Chosen, names: ToolNameMap, strict: boolean): AgentTool {
  const { registered } = item;
  const spec = registered.endpoints.get(item.endpoint)!;
  const route = routeKey({ tool: registered.tool.name, endpoint: item.endpoint });
  // Validates the fixed selection now (UNDECLARED_FIELD / OVERLAPPING_FIELDS), not on the model's first call.
  if (item.fields !== undefined) selectFields(spec, item.fields, route);
  const effective = router.registry.effectiveSchema(registered.tool.name, item.endpoint, "input");
  const full = modelInputSchema(effective);
  const decision = router.policy.decide({
    tool: registered.tool.name,
    endpoint: item.endpoint,
    effect: spec.effect,
    remote: registered.tool.remote,
  });
  const facts = `Calls ${JSON.stringify(route.slice(0, 200))} (effect: ${spec.effect}${registered.tool.remote ? ", remote" : ""}).`;
  return Object.freeze({
    name: names.nameOf(route)!,
    route,
    tool: registered.tool.name,
    endpoint: item.endpoint,
    effect: spec.effect,
    description: spec.description.length > 0 ? `${facts} ${quoteUntrusted(spec.description)}` : facts,
    inputSchema: full.schema,
    inputSchemaWithoutPatterns: modelInputSchema(effective, { stripPatterns: true }).schema,
    strict: strict && full.strictCompatible,
    needsApproval: decision.allowed && decision.approvalRequired,
    endpointFingerprint: registered.endpointFingerprints.get(item.endpoint)!,
    toolFingerprint: registered.fingerprint,
    ...(item.fields !== undefined ? { fields: Object.freeze([...item.fields]) } : {}),
    parameters: new Set(spec.parameters.map((parameter) => parameter.name)),
  });
}
