/**
 * Raw OpenAI formats (docs/agents/raw-formats.md), for code that calls the API directly: function tool
 * definitions out, tool calls in, tool results out — Chat Completions (`tools[].function`,
 * `message.tool_calls`, `role: "tool"` messages) and Responses (`tools[]` of type `function`,
 * `function_call` output items, `function_call_output` input items). Neither format has an error flag
 * on tool results, so a refusal travels as its JSON text (`{"ok":false,…}`). The types are structural:
 * the `openai` package is not needed.
 */
import type { RunConfig } from "../governed/config.js";
import type { SchemaRouter } from "../router/router.js";
import { discoveredNames, SEARCH_TOOL_NAME } from "./dynamic.js";
import { type DefinitionOptions, RawTools, type RawToolsOptions } from "./raw-core.js";
import { outcomeText } from "./refusal.js";

export interface ChatFunctionTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
    readonly strict: boolean;
  };
}

export interface ChatToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface ChatToolMessage {
  readonly role: "tool";
  readonly tool_call_id: string;
  readonly content: string;
}

/** The parts of a Chat Completions message this adapter reads. */
export interface ChatMessageLike {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly ChatToolCall[] | null;
  readonly tool_call_id?: string;
}

export interface ResponsesFunctionTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly strict: boolean;
  readonly defer_loading?: true;
}

export interface ResponsesFunctionCall {
  readonly type: "function_call";
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ResponsesFunctionCallOutput {
  readonly type: "function_call_output";
  readonly call_id: string;
  readonly output: string;
}

/** An output or input item of the Responses API (only function calls and messages are read). */
export interface ResponsesItemLike {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
  readonly call_id?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly output?: unknown;
}

export class OpenAIChatTools extends RawTools {
  /** `tools` for `chat.completions.create` (no deferred loading in this format). */
  tools(options: Omit<DefinitionOptions, "defer"> = {}): ChatFunctionTool[] {
    return this.definitions({ ...options, defer: false }).map((definition) => ({
      type: "function",
      function: {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        strict: definition.strict,
      },
    }));
  }

  /** Runs the message's tool calls in order and returns one `role: "tool"` message per call. */
  async handle(message: ChatMessageLike, config?: RunConfig): Promise<ChatToolMessage[]> {
    const out: ChatToolMessage[] = [];
    for (const call of message.tool_calls ?? []) {
      const outcome = await this.run(call.function?.name, call.function?.arguments, call.id, config);
      out.push({ role: "tool", tool_call_id: call.id, content: outcomeText(outcome) });
    }
    return out;
  }

  /** Tool names for the next request, from the conversation (last user text, earlier search results). */
  active(messages: readonly ChatMessageLike[]): string[] {
    const searchIds = new Set<string>();
    for (const message of messages)
      for (const call of message.tool_calls ?? [])
        if (call.function?.name === SEARCH_TOOL_NAME) searchIds.add(call.id);
    const outputs = messages
      .filter((message) => message.role === "tool" && searchIds.has(message.tool_call_id ?? ""))
      .map((message) => message.content);
    const user = [...messages].reverse().find((message) => message.role === "user");
    return this.activeNames(textOf(user?.content), discoveredNames(outputs));
  }
}

export class OpenAIResponsesTools extends RawTools {
  /** `tools` for `responses.create`; with `defer`, inactive tools are sent with `defer_loading: true`. */
  tools(options: DefinitionOptions = {}): ResponsesFunctionTool[] {
    return this.definitions(options).map((definition) => ({
      type: "function",
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      strict: definition.strict,
      ...(definition.deferred ? { defer_loading: true as const } : {}),
    }));
  }

  /** Runs the `function_call` items of a response's output in order; returns their outputs. */
  async handle(
    output: readonly ResponsesItemLike[],
    config?: RunConfig,
  ): Promise<ResponsesFunctionCallOutput[]> {
    const out: ResponsesFunctionCallOutput[] = [];
    for (const item of output) {
      if (item.type !== "function_call" || typeof item.call_id !== "string") continue;
      const outcome = await this.run(item.name ?? "", item.arguments ?? "", item.call_id, config);
      out.push({ type: "function_call_output", call_id: item.call_id, output: outcomeText(outcome) });
    }
    return out;
  }

  /** Tool names for the next request, from the input items so far. */
  active(items: readonly ResponsesItemLike[]): string[] {
    const searchIds = new Set(
      items
        .filter((item) => item.type === "function_call" && item.name === SEARCH_TOOL_NAME)
        .map((item) => item.call_id),
    );
    const outputs = items
      .filter((item) => item.type === "function_call_output" && searchIds.has(item.call_id))
      .map((item) => item.output);
    const user = [...items].reverse().find((item) => item.role === "user");
    return this.activeNames(textOf(user?.content), discoveredNames(outputs));
  }
}

/** Chat Completions tools for a router's locked capabilities. */
export function openaiChatTools(router: SchemaRouter, options: RawToolsOptions = {}): OpenAIChatTools {
  return new OpenAIChatTools(router, options);
}

/** Responses API tools for a router's locked capabilities. */
export function openaiResponsesTools(
  router: SchemaRouter,
  options: RawToolsOptions = {},
): OpenAIResponsesTools {
  return new OpenAIResponsesTools(router, options);
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      return (type === "text" || type === "input_text") && typeof text === "string" ? text : "";
    })
    .filter((text) => text.length > 0)
    .join("\n");
}
