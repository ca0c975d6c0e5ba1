/**
 * Vercel AI SDK (`ai` 6.x) adapter (docs/agents/ai-sdk.md): locked capabilities as `dynamicTool`s with
 * `jsonSchema` input schemas. The SDK does not validate a `jsonSchema` without a `validate` function
 * (provider-utils `safeValidateTypes`), so the schema keeps its patterns and SchemaRouter validates
 * at the boundary. A refusal is thrown as an error whose message is the refusal's JSON, which the SDK
 * turns into a `tool-error` result the model reads (ai `createToolModelOutput`, errorMode "text").
 */
import type { ModelMessage, ToolExecutionOptions, ToolSet } from "ai";
import { digestJson } from "../format/fingerprint.js";
import type { SchemaRouter } from "../router/router.js";
import type { AgentApprovals } from "./approvals.js";
import {
  DynamicSelection,
  type DynamicToolsOptions,
  discoveredNames,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_SCHEMA,
} from "./dynamic.js";
import { schemaCopy } from "./model-schema.js";
import { loadPeer } from "./peer.js";
import { AgentToolRefusalError, type ToolOutcome } from "./refusal.js";
import { type AgentRunConfig, runConfigFor } from "./run-config.js";
import {
  type AgentTool,
  AgentToolSet,
  type AgentToolSetOptions,
  executeTool,
  pinnedCall,
} from "./tool-set.js";

export interface AiSdkToolsOptions extends AgentToolSetOptions {
  readonly runConfig?: AgentRunConfig;
  /** Bridge approvals to the SDK's `needsApproval` (pass `approvals.approve` to the router too). */
  readonly approvals?: AgentApprovals;
  /** Expose only the top-k tools per step (`prepareStep` → `activeTools`) plus `search_capabilities`. */
  readonly dynamic?: DynamicToolsOptions | true;
}

export interface AiSdkTools {
  /** Pass as `tools` to generateText / streamText / ToolLoopAgent. */
  readonly tools: ToolSet;
  readonly set: AgentToolSet;
  /** Per-step tool names (every tool when not dynamic). */
  activeTools(messages: readonly ModelMessage[]): string[];
  /** Pass as `prepareStep`: sets `activeTools` for each step from the conversation. */
  prepareStep(options: { readonly messages: ModelMessage[] }): { activeTools: string[] };
}

export async function aiSdkTools(router: SchemaRouter, options: AiSdkToolsOptions = {}): Promise<AiSdkTools> {
  const ai = await loadPeer("ai", "aiSdkTools()", () => import("ai"));
  const set = AgentToolSet.build(router, options, [SEARCH_TOOL_NAME]);
  const selection =
    options.dynamic !== undefined
      ? new DynamicSelection(router, set, options.dynamic === true ? {} : options.dynamic)
      : undefined;
  const tools: ToolSet = {};
  for (const tool of set.tools) {
    const defined = ai.dynamicTool({
      description: tool.description,
      inputSchema: ai.jsonSchema(schemaCopy(tool.inputSchema)),
      needsApproval: options.approvals !== undefined && tool.needsApproval,
      execute: (input, call) => run(router, tool, input, call, options),
    });
    // `strict` is a Tool member that dynamicTool's parameter type leaves out (it spreads it through).
    tools[tool.name] = Object.assign(defined, { strict: tool.strict });
  }
  if (selection?.search === true) {
    tools[SEARCH_TOOL_NAME] = ai.dynamicTool({
      description: SEARCH_TOOL_DESCRIPTION,
      inputSchema: ai.jsonSchema(schemaCopy(SEARCH_TOOL_SCHEMA)),
      execute: async (input) => settle(selection.runSearch(input)),
    });
  }
  const activeTools = (messages: readonly ModelMessage[]): string[] =>
    selection === undefined
      ? Object.keys(tools)
      : selection.active(lastUserText(messages), discoveredNames(searchOutputs(messages)));
  return {
    tools,
    set,
    activeTools,
    prepareStep: ({ messages }) => ({ activeTools: activeTools(messages) }),
  };
}

async function run(
  router: SchemaRouter,
  tool: AgentTool,
  input: unknown,
  call: ToolExecutionOptions,
  options: AiSdkToolsOptions,
): Promise<ToolOutcome> {
  let release: (() => void) | undefined;
  if (
    options.approvals !== undefined &&
    tool.needsApproval &&
    input !== null &&
    typeof input === "object" &&
    approvedInMessages(call.messages, call.toolCallId, input)
  ) {
    release = options.approvals.grant(pinnedCall(tool, input as Readonly<Record<string, unknown>>));
  }
  try {
    const info = { name: tool.name, route: tool.route, callId: call.toolCallId };
    return settle(
      await executeTool(router, tool, input, runConfigFor(options.runConfig, info, call.abortSignal)),
    );
  } finally {
    release?.();
  }
}

function settle(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.ok) throw new AgentToolRefusalError(outcome);
  return outcome;
}

type Part = { readonly type?: unknown; readonly [key: string]: unknown };

function partsOf(message: ModelMessage, role: string): readonly Part[] {
  return message.role === role && Array.isArray(message.content) ? (message.content as readonly Part[]) : [];
}

/**
 * True when the conversation holds a person's approval of this very tool call: the SDK's
 * `tool-approval-request` for the call id, answered `approved: true`, for a tool call whose input is
 * the one being executed (the SDK checks the same before it executes; ai `collectToolApprovals`).
 */
function approvedInMessages(messages: readonly ModelMessage[], toolCallId: string, input: object): boolean {
  const approvalIds = new Set<unknown>();
  let sameInput = false;
  for (const message of messages) {
    for (const part of partsOf(message, "assistant")) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId)
        approvalIds.add(part.approvalId);
      if (part.type === "tool-call" && part.toolCallId === toolCallId)
        sameInput = digestJson(part.input ?? null) === digestJson(input);
    }
  }
  if (!sameInput || approvalIds.size === 0) return false;
  return messages.some((message) =>
    partsOf(message, "tool").some(
      (part) =>
        part.type === "tool-approval-response" && approvalIds.has(part.approvalId) && part.approved === true,
    ),
  );
}

function lastUserText(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return message.content
      .map((part) => (part.type === "text" ? part.text : ""))
      .filter((text) => text.length > 0)
      .join("\n");
  }
  return "";
}

function searchOutputs(messages: readonly ModelMessage[]): unknown[] {
  const outputs: unknown[] = [];
  for (const message of messages) {
    for (const part of partsOf(message, "tool")) {
      if (part.type !== "tool-result" || part.toolName !== SEARCH_TOOL_NAME) continue;
      const output = part.output as { type?: unknown; value?: unknown } | undefined;
      if (output?.type === "json") outputs.push(output.value);
    }
  }
  return outputs;
}
