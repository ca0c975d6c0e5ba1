/**
 * LangChain.js (`@langchain/core` 1.x) adapter (docs/agents/langchain.md): locked capabilities as
 * structured tools (`DynamicStructuredTool` with a JSON schema). LangChain validates JSON-schema tool
 * input itself with @cfworker/json-schema, whose `pattern` runs on the backtracking RegExp engine
 * (@langchain/core `tools/index.js` StructuredTool.call), so the schema given to LangChain has no
 * `pattern` / `patternProperties`; SchemaRouter validates the full locked schema at the boundary.
 * LangChain throws ToolInputParsingException for input its validation rejects; the tools here turn
 * that, and every SchemaRouter refusal, into a `ToolMessage` with `status: "error"`.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { DynamicStructuredTool, StructuredToolInterface } from "@langchain/core/tools";
import type { SchemaRouter } from "../router/router.js";
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
import { adapterRefusal, outcomeText, type ToolOutcome } from "./refusal.js";
import { type AgentRunConfig, runConfigFor } from "./run-config.js";
import { AgentToolSet, type AgentToolSetOptions, executeTool } from "./tool-set.js";

export interface LangChainToolsOptions extends AgentToolSetOptions {
  readonly runConfig?: AgentRunConfig;
  /** Bind only the top-k tools per step (`activeTools(messages)`) plus `search_capabilities`. */
  readonly dynamic?: DynamicToolsOptions | true;
}

export interface LangChainTools {
  /** Every tool (pass to `model.bindTools()` and look tool calls up by name). */
  readonly tools: StructuredToolInterface[];
  readonly set: AgentToolSet;
  /** The tools to bind for the next step (every tool when not dynamic). */
  activeTools(messages: readonly BaseMessage[]): StructuredToolInterface[];
}

type Schema = ConstructorParameters<typeof DynamicStructuredTool>[0]["schema"];
type Func = ConstructorParameters<typeof DynamicStructuredTool>[0]["func"];
interface ToolCallLike {
  readonly id?: string;
  readonly type?: string;
}

export async function langchainTools(
  router: SchemaRouter,
  options: LangChainToolsOptions = {},
): Promise<LangChainTools> {
  const load = () => Promise.all([import("@langchain/core/tools"), import("@langchain/core/messages")]);
  const [lcTools, lcMessages] = await loadPeer("@langchain/core", "langchainTools()", load);
  const set = AgentToolSet.build(router, options, [SEARCH_TOOL_NAME]);
  const selection =
    options.dynamic !== undefined
      ? new DynamicSelection(router, set, options.dynamic === true ? {} : options.dynamic)
      : undefined;

  /** The ToolMessage (or, without a tool call id, the JSON text) that carries an outcome. */
  const reply = (name: string, outcome: ToolOutcome, callId: string | undefined) =>
    callId === undefined
      ? outcomeText(outcome)
      : new lcMessages.ToolMessage({
          content: outcomeText(outcome),
          tool_call_id: callId,
          name,
          status: outcome.ok ? "success" : "error",
        });

  const build = (
    name: string,
    description: string,
    schema: object,
    run: (input: unknown, signal?: AbortSignal, callId?: string) => Promise<ToolOutcome> | ToolOutcome,
  ) => {
    const func = (async (
      input: unknown,
      _runManager: unknown,
      config?: { signal?: AbortSignal; toolCall?: ToolCallLike },
    ) => {
      const callId = config?.toolCall?.id;
      return reply(name, await run(input, config?.signal, callId), callId);
    }) as Func;
    const tool = new lcTools.DynamicStructuredTool({ name, description, schema: schema as Schema, func });
    // LangChain's own input validation throws; answer with an error ToolMessage instead (see above).
    const call = tool.call.bind(tool);
    Object.assign(tool, {
      call: async (arg: unknown, config?: { toolCall?: ToolCallLike }, tags?: string[]) => {
        try {
          return await (call as (a: unknown, c?: unknown, t?: unknown) => Promise<unknown>)(
            arg,
            config,
            tags,
          );
        } catch (error) {
          if (!(error instanceof lcTools.ToolInputParsingException)) throw error;
          const fromArg =
            (arg as ToolCallLike | null)?.type === "tool_call" ? (arg as ToolCallLike).id : undefined;
          return reply(name, adapterRefusal("INPUT_SCHEMA_VIOLATION", name), fromArg ?? config?.toolCall?.id);
        }
      },
    });
    return tool as StructuredToolInterface;
  };

  const tools = set.tools.map((tool) =>
    build(tool.name, tool.description, schemaCopy(tool.inputSchemaWithoutPatterns), (input, signal, callId) =>
      executeTool(
        router,
        tool,
        input,
        runConfigFor(
          options.runConfig,
          { name: tool.name, route: tool.route, ...(callId !== undefined ? { callId } : {}) },
          signal,
        ),
      ),
    ),
  );
  if (selection?.search === true) {
    tools.push(
      build(SEARCH_TOOL_NAME, SEARCH_TOOL_DESCRIPTION, schemaCopy(SEARCH_TOOL_SCHEMA), (input) =>
        selection.runSearch(input),
      ),
    );
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return {
    tools,
    set,
    activeTools: (messages) =>
      selection === undefined
        ? [...tools]
        : selection
            .active(lastHumanText(messages), discoveredNames(searchOutputs(messages)))
            .map((name) => byName.get(name)!),
  };
}

interface MessageLike {
  readonly type?: unknown;
  readonly name?: unknown;
  readonly content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      (part as { type?: unknown }).type === "text" ? String((part as { text?: unknown }).text ?? "") : "",
    )
    .join("\n");
}

function lastHumanText(messages: readonly BaseMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as MessageLike;
    if (message.type === "human") return textOf(message.content);
  }
  return "";
}

function searchOutputs(messages: readonly BaseMessage[]): unknown[] {
  return messages
    .map((message) => message as MessageLike)
    .filter((message) => message.type === "tool" && message.name === SEARCH_TOOL_NAME)
    .map((message) => textOf(message.content));
}
