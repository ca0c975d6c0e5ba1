/**
 * The caller's RunConfig for one framework tool call: a fixed RunConfig or a function of the call, with
 * the framework's abort signal joined to the configured one.
 */
import type { RunConfig } from "../governed/config.js";

/** Facts about one tool call a RunConfig function can use (never the arguments). */
export interface AgentCallInfo {
  /** The provider-safe tool name the model called. */
  readonly name: string;
  /** `tool.endpoint`. */
  readonly route: string;
  /** The framework's id of this tool call, when it has one. */
  readonly callId?: string;
}

export type AgentRunConfig = RunConfig | ((call: AgentCallInfo) => RunConfig);

export function runConfigFor(
  config: AgentRunConfig | undefined,
  call: AgentCallInfo,
  signal?: AbortSignal,
): RunConfig {
  const base = typeof config === "function" ? config(call) : (config ?? {});
  if (signal === undefined) return base;
  return { ...base, signal: base.signal !== undefined ? AbortSignal.any([base.signal, signal]) : signal };
}
