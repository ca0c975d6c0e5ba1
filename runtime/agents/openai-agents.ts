/**
 * OpenAI Agents SDK (`@openai/agents-core` 0.14) adapter (docs/agents/openai-agents.md): locked
 * capabilities as `tool({ parameters, strict, execute, errorFunction })`. Non-strict JSON-schema
 * parameters are only `JSON.parse`d by the SDK (agents-core `utils/tools` getSchemaAndParserFromInputType),
 * so patterns are never evaluated there. A refusal is thrown and `errorFunction` returns its JSON: the
 * SDK's default error text ("An error occurred while running the tool. Please try again.", agents-core
 * `tool.ts` defaultToolErrorFunction) would invite retry loops after a policy denial.
 */
import type { RunContext, Tool } from "@openai/agents-core";
import type { SchemaRouter } from "../router/router.js";
import type { AgentApprovals } from "./approvals.js";
import {
  DynamicSelection,
  type DynamicToolsOptions,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_SCHEMA,
} from "./dynamic.js";
import { schemaCopy } from "./model-schema.js";
import { loadPeer } from "./peer.js";
import { AgentToolRefusalError, adapterRefusal, outcomeText, type ToolOutcome } from "./refusal.js";
import { type AgentRunConfig, runConfigFor } from "./run-config.js";
import {
  type AgentTool,
  AgentToolSet,
  type AgentToolSetOptions,
  executeTool,
  pinnedCall,
} from "./tool-set.js";

export interface OpenAIAgentsDynamicOptions extends DynamicToolsOptions {
  /** The text tools are retrieved for, from the run's context (default: `context.query` when a string). */
  readonly query?: (context: unknown) => string;
}

export interface OpenAIAgentsToolsOptions extends AgentToolSetOptions {
  readonly runConfig?: AgentRunConfig;
  /** Bridge approvals to the SDK's `needsApproval` interruptions (pass `approvals.approve` to the router too). */
  readonly approvals?: AgentApprovals;
  /** Enable only the top-k tools per run (`isEnabled`) plus `search_capabilities`. */
  readonly dynamic?: OpenAIAgentsDynamicOptions | true;
}

export interface OpenAIAgentsTools {
  /** Pass as `tools` to `new Agent({ … })`. */
  readonly tools: Tool[];
  readonly set: AgentToolSet;
}

/** How the SDK types a non-strict JSON-schema `parameters` (the value is the full model-facing schema). */
type ParametersOf = {
  type: "object";
  properties: Record<string, never>;
  required: never[];
  additionalProperties: true;
};

/** The parts of the SDK's ToolCallDetails read here. */
interface CallDetails {
  readonly toolCall?: { readonly callId?: string };
  readonly signal?: AbortSignal;
}

export async function openaiAgentsTools(
  router: SchemaRouter,
  options: OpenAIAgentsToolsOptions = {},
): Promise<OpenAIAgentsTools> {
  const agents = await loadPeer(
    "@openai/agents-core",
    "openaiAgentsTools()",
    () => import("@openai/agents-core"),
  );
  const set = AgentToolSet.build(router, options, [SEARCH_TOOL_NAME]);
  const dynamic = options.dynamic === true ? {} : options.dynamic;
  const selection = dynamic !== undefined ? new DynamicSelection(router, set, dynamic) : undefined;
  const query = dynamic?.query ?? defaultQuery;
  // Tools `search_capabilities` listed, per run (the SDK passes the same RunContext to every hook of a run).
  const discovered = new WeakMap<object, Set<string>>();
  const enabled = (name: string) => (args: { runContext: RunContext<unknown> }) =>
    selection === undefined ||
    selection.active(query(args.runContext.context), discovered.get(args.runContext) ?? []).includes(name);

  const tools: Tool[] = set.tools.map((tool) =>
    agents.tool({
      name: tool.name,
      description: tool.description,
      parameters: schemaCopy(tool.inputSchema) as unknown as ParametersOf,
      strict: tool.strict as false,
      needsApproval: options.approvals !== undefined && tool.needsApproval,
      isEnabled: enabled(tool.name),
      errorFunction: (_context, error) => errorText(agents, tool.name, error),
      execute: (input: unknown, runContext?: RunContext<unknown>, details?: CallDetails) =>
        run(router, tool, input, runContext, details?.toolCall?.callId, details?.signal, options),
    }),
  );
  if (selection?.search === true) {
    tools.push(
      agents.tool({
        name: SEARCH_TOOL_NAME,
        description: SEARCH_TOOL_DESCRIPTION,
        parameters: schemaCopy(SEARCH_TOOL_SCHEMA) as unknown as ParametersOf,
        strict: false,
        isEnabled: true,
        errorFunction: (_context, error) => errorText(agents, SEARCH_TOOL_NAME, error),
        execute: async (input, runContext) => {
          const outcome = selection.runSearch(input);
          if (!outcome.ok) throw new AgentToolRefusalError(outcome);
          if (runContext !== undefined) {
            const names = discovered.get(runContext) ?? new Set<string>();
            for (const entry of outcome.data.tools) names.add(entry.name);
            discovered.set(runContext, names);
          }
          return outcome;
        },
      }),
    );
  }
  return { tools, set };
}

async function run(
  router: SchemaRouter,
  tool: AgentTool,
  input: unknown,
  runContext: RunContext<unknown> | undefined,
  callId: string | undefined,
  signal: AbortSignal | undefined,
  options: OpenAIAgentsToolsOptions,
): Promise<ToolOutcome> {
  let release: (() => void) | undefined;
  // The SDK runs a needsApproval tool only after the interruption was approved on the run state.
  if (
    options.approvals !== undefined &&
    tool.needsApproval &&
    callId !== undefined &&
    runContext?.isToolApproved({ toolName: tool.name, callId }) === true &&
    input !== null &&
    typeof input === "object"
  ) {
    release = options.approvals.grant(pinnedCall(tool, input as Readonly<Record<string, unknown>>));
  }
  try {
    const info = { name: tool.name, route: tool.route, ...(callId !== undefined ? { callId } : {}) };
    const outcome = await executeTool(router, tool, input, runConfigFor(options.runConfig, info, signal));
    if (!outcome.ok) throw new AgentToolRefusalError(outcome);
    return outcome;
  } finally {
    release?.();
  }
}

/**
 * What the model reads for a failed call: the refusal, or a structural one when the arguments could
 * not be parsed (agents-core InvalidToolInputError, a ModelBehaviorError; the Runner itself answers
 * unparsable JSON before the tool runs, runner/toolExecution buildParseErrorResult, so this covers
 * direct `invoke` calls). Anything else is the application's error (a bad RunConfig, a bug) and
 * fails the run.
 */
function errorText(agents: typeof import("@openai/agents-core"), name: string, error: unknown): string {
  if (error instanceof AgentToolRefusalError) return error.message;
  if (error instanceof agents.ModelBehaviorError) {
    return outcomeText(adapterRefusal("INPUT_SCHEMA_VIOLATION", name));
  }
  throw error;
}

function defaultQuery(context: unknown): string {
  const query = (context as { query?: unknown } | null | undefined)?.query;
  return typeof query === "string" ? query : "";
}
