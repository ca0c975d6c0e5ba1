/**
 * Tool outcomes as MCP `tools/call` results (docs/serve.md, "Results and refusals"). A success carries
 * the projected data as `structuredContent` (wrapped as `{ result }` when its root is not an object)
 * and the same JSON as text. A refusal is an `isError` result whose text is the agents' refusal
 * (`{ ok: false, code, retryable, message }`) and that has no `structuredContent`: the SDK client
 * validates structured content against the output schema even on errors.
 */
import { outcomeText, type ToolOutcome, type ToolRefusal } from "../agents/refusal.js";

export interface TextContent {
  readonly type: "text";
  readonly text: string;
}

export interface ServedResult {
  readonly [key: string]: unknown;
  readonly content: TextContent[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export function resultOf(outcome: ToolOutcome, wrapped: boolean): ServedResult {
  if (!outcome.ok) return refusalResult(outcome);
  const structured = (wrapped ? { result: outcome.data } : outcome.data) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

export function refusalResult(refusal: ToolRefusal): ServedResult {
  return { content: [{ type: "text", text: outcomeText(refusal) }], isError: true };
}
