/**
 * Attacks from a hostile MCP server (docs/trust-model.md §7): the server repeats a credential it was
 * trusted with — a stdio environment value — in an isError result and in a JSON-RPC error message.
 * The invoker replaces it before the text reaches the error's message or details (and from there a
 * trace or a log).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mcpAdapter } from "../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../compiler/sources/types.js";
import type { Invoker } from "../../runtime/boundary/invoker.js";
import { createMcpInvoker, stdioClientFactory } from "../../runtime/transports/mcp/transport.js";
import {
  expectedDigests,
  FIXTURE_STDIO_ARGS,
  invocation,
  rejection,
  sourceContext,
  stdio,
} from "../fixtures/mcp/harness.js";

const SECRET = "CANARY-mcp-7f3e-token";
const open: Invoker[] = [];

describe("attacks from a hostile MCP server", () => {
  let compiled: SourceResult;
  beforeAll(async () => {
    compiled = await mcpAdapter.resolve("fixture", stdio({ effects: { fails: "read" } }), sourceContext());
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((invoker) => invoker.close?.()));
  });

  const invokerWith = (env: Record<string, string>) => {
    const invoker = createMcpInvoker({
      source: "fixture",
      connect: stdioClientFactory({ command: "node", args: [...FIXTURE_STDIO_ARGS], env, stderr: "ignore" }),
      expected: expectedDigests(compiled),
      timeoutMs: 10_000,
      secrets: Object.values(env),
    });
    open.push(invoker);
    return invoker;
  };

  it.each([
    ["an isError result", {}],
    ["a JSON-RPC error", { FIXTURE_FAIL_MODE: "rpc" }],
  ])("a secret echoed in %s is replaced in the message and details", async (_what, mode) => {
    const invoker = invokerWith({ FIXTURE_SECRET: SECRET, ...mode });
    const error = (await rejection(invoker.invoke(invocation(compiled, "fails")))) as Error & {
      code: string;
      details: Record<string, unknown>;
    };
    expect(error.code).toBe("TOOL_ERROR");
    const seen = `${error.message} ${JSON.stringify(error.details)}`;
    expect(seen).toContain("[redacted]");
    expect(seen).not.toContain(SECRET);
  });
});
