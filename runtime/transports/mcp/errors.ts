/**
 * Maps MCP client failures to the runtime's typed errors: protocol errors (JSON-RPC error responses,
 * e.g. an unknown tool) and malformed results become TOOL_ERROR (not retryable); timeouts, aborts,
 * closed connections, crashed processes and failed (re)listings become INVOCATION_UNAVAILABLE.
 */
import { InvocationError, InvocationUnavailableError } from "../../errors/errors.js";
import { redactSecrets } from "../http/redact-secrets.js";

export type SdkTypes = typeof import("@modelcontextprotocol/sdk/types.js");

export interface McpErrorContext {
  readonly source: string;
  readonly tool: string;
  readonly signal: AbortSignal;
  /** `connect`: connecting or (re)listing tools; `call`: the tools/call request. */
  readonly phase: "connect" | "call";
  readonly timeoutMs: number;
  /** Trusted credential values replaced in any remote error text (see redact-secrets.ts). */
  readonly secrets?: readonly string[];
}

function messageOf(error: unknown, secrets: readonly string[] = []): string {
  const text = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A result the SDK could not parse: zod 3 names the error `ZodError`, zod 4 core (SDK 1.2x+) `$ZodError`. */
function isSchemaParseError(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError");
}

export function toInvocationError(error: unknown, context: McpErrorContext, sdk?: SdkTypes): InvocationError {
  if (error instanceof InvocationError) return error;
  const { source, tool } = context;
  const where = `MCP tool "${tool}" of source "${source}"`;
  if (context.signal.aborted) {
    return new InvocationUnavailableError(
      `${where} was aborted (attempt timeout or run budget) before it answered.`,
      { source, tool, reason: "aborted" },
      { cause: error },
    );
  }
  if (sdk !== undefined && error instanceof sdk.McpError) {
    if (error.code === sdk.ErrorCode.RequestTimeout) {
      return new InvocationUnavailableError(
        `${where} did not answer within ${context.timeoutMs} ms.`,
        { source, tool, reason: "timeout", timeoutMs: context.timeoutMs },
        { cause: error },
      );
    }
    if (error.code === sdk.ErrorCode.ConnectionClosed) {
      return new InvocationUnavailableError(
        `The connection to the MCP server of source "${source}" closed during the call of "${tool}" (the server exited or crashed). The next call reconnects.`,
        { source, tool, reason: "connection" },
        { cause: error },
      );
    }
    if (context.phase === "call") {
      return new InvocationError(
        "TOOL_ERROR",
        `The MCP server of source "${source}" rejected the call of "${tool}": ${messageOf(error, context.secrets)}`,
        { source, tool, mcpCode: error.code },
        { cause: error, retryable: false },
      );
    }
  }
  if (context.phase === "call" && isSchemaParseError(error)) {
    return new InvocationError(
      "TOOL_ERROR",
      `${where} returned a result that is not a valid MCP CallToolResult.`,
      { source, tool, reason: "malformed-result" },
      { cause: error, retryable: false },
    );
  }
  const action = context.phase === "connect" ? "connecting to (or listing the tools of)" : "calling";
  return new InvocationUnavailableError(
    `Failed ${action} the MCP server of source "${source}" for "${tool}": ${messageOf(error, context.secrets)}`,
    { source, tool, reason: "connection" },
    { cause: error },
  );
}
