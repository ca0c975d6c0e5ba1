/**
 * Raw Anthropic Messages format (docs/agents/raw-formats.md): tool definitions out (`name`,
 * `description`, `input_schema`, optional `defer_loading`), `tool_use` content blocks in,
 * `tool_result` blocks out, with `is_error: true` on refusals. The types are structural: the
 * `@anthropic-ai/sdk` package is not needed.
 */
import type { RunConfig } from "../governed/config.js";
import type { SchemaRouter } from "../router/router.js";
import { discoveredNames, SEARCH_TOOL_NAME } from "./dynamic.js";
import { type DefinitionOptions, RawTools, type RawToolsOptions } from "./raw-core.js";
import { outcomeText } from "./refusal.js";

export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
  readonly defer_loading?: true;
}

export interface AnthropicToolUse {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface AnthropicToolResult {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: true;
}

/** A content block (only `text`, `tool_use` and `tool_result` are read). */
export interface AnthropicBlockLike {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly tool_use_id?: string;
  readonly content?: unknown;
}

export interface AnthropicMessageLike {
  readonly role: string;
  readonly content: string | readonly AnthropicBlockLike[];
}

export class AnthropicTools extends RawTools {
  /** `tools` for `messages.create`; with `defer`, inactive tools are sent with `defer_loading: true`. */
  tools(options: DefinitionOptions = {}): AnthropicTool[] {
    return this.definitions(options).map((definition) => ({
      name: definition.name,
      description: definition.description,
      input_schema: definition.parameters,
      ...(definition.deferred ? { defer_loading: true as const } : {}),
    }));
  }

  /** Runs the `tool_use` blocks of a response's content in order; returns one `tool_result` each. */
  async handle(content: readonly AnthropicBlockLike[], config?: RunConfig): Promise<AnthropicToolResult[]> {
    const out: AnthropicToolResult[] = [];
    for (const block of content) {
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      const outcome = await this.run(block.name ?? "", block.input ?? {}, block.id, config);
      out.push({
        type: "tool_result",
        tool_use_id: block.id,
        content: outcomeText(outcome),
        ...(outcome.ok ? {} : { is_error: true as const }),
      });
    }
    return out;
  }

  /** Tool names for the next request, from the conversation (last user text, earlier search results). */
  active(messages: readonly AnthropicMessageLike[]): string[] {
    const blocks = messages.flatMap((message) =>
      typeof message.content === "string" ? [] : message.content,
    );
    const searchIds = new Set(
      blocks
        .filter((block) => block.type === "tool_use" && block.name === SEARCH_TOOL_NAME)
        .map((block) => block.id),
    );
    const outputs = blocks
      .filter((block) => block.type === "tool_result" && searchIds.has(block.tool_use_id))
      .map((block) => (typeof block.content === "string" ? block.content : textOfBlocks(block.content)));
    let text = "";
    for (let index = messages.length - 1; index >= 0 && text.length === 0; index--) {
      const message = messages[index]!;
      if (message.role !== "user") continue;
      text = typeof message.content === "string" ? message.content : textOfBlocks(message.content);
    }
    return this.activeNames(text, discoveredNames(outputs));
  }
}

/** Anthropic Messages tools for a router's locked capabilities. */
export function anthropicTools(router: SchemaRouter, options: RawToolsOptions = {}): AnthropicTools {
  return new AnthropicTools(router, options);
}

function textOfBlocks(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter((block) => (block as AnthropicBlockLike).type === "text")
    .map((block) => String((block as AnthropicBlockLike).text ?? ""))
    .join("\n");
}
