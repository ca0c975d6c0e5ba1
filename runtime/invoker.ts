/**
 * The trusted invoker contract: what a transport implements. The executor owns every check; an
 * invoker only moves a validated call over its transport and returns the raw output.
 */
import type { EndpointSpec, FieldSpec, ToolCall, ToolSpec } from "./model.js";

export interface InvocationContext {
  /** Detached copy of the validated call. */
  readonly call: ToolCall;
  readonly tool: ToolSpec;
  readonly endpoint: EndpointSpec;
  /** The declared fields the call selected (the planned logical need), in declaration order. */
  readonly selectedFields: readonly FieldSpec[];
  /** Aborted when the attempt times out or the run's wall-clock budget ends. */
  readonly signal: AbortSignal;
}

export interface Invoker {
  /** Returns the raw output (validated and projected by the executor afterwards). */
  invoke(context: InvocationContext): Promise<unknown>;
  /** Releases connections; called by `router.close()`. */
  close?(): Promise<void>;
}

/** An invoker bound to exactly one tool contract. */
export interface Binding {
  readonly tool: string;
  readonly toolFingerprint: string;
  readonly invoker: Invoker;
}
