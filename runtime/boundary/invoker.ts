/**
 * The trusted invoker contract: what a transport implements. The executor owns every check; an
 * invoker only moves a validated call over its transport and returns the raw output.
 */
import type { EndpointSpec, FieldSpec, JsonSchema, ToolCall, ToolSpec } from "../model/specs.js";

export interface InvocationContext {
  /** Detached copy of the validated call. */
  readonly call: ToolCall;
  readonly tool: ToolSpec;
  readonly endpoint: EndpointSpec;
  /** The declared fields the call selected (the planned logical need), in declaration order. */
  readonly selectedFields: readonly FieldSpec[];
  /** Aborted when the run stops: its wall-clock budget ends, RunConfig.signal aborts, or it is cancelled. */
  readonly signal: AbortSignal;
  /**
   * The same stop as `signal`, as a callback: `onStop(listener)` calls `listener` once when the run
   * stops and returns the function that unsubscribes it. Cheaper than `signal` (which is created on
   * first access) for an invoker that only needs to cancel its in-flight work; an error a listener
   * throws is dropped (it never keeps the run from stopping). Always set by the
   * executor; optional for code that builds contexts itself.
   */
  readonly onStop?: (listener: () => void) => () => void;
  /**
   * The endpoint's locked output schema as one self-contained document (the shared definitions it uses
   * under `$defs`), e.g. for a transport that checks request values against declared types. Always set
   * by the executor; optional for code that builds contexts itself.
   */
  readonly outputSchema?: JsonSchema;
}

/** What stops an attempt: an AbortSignal made on demand, and the cheap callback form of it. */
export interface StopSource {
  readonly signal: AbortSignal;
  onStop(listener: () => void): () => void;
}

/** The StopSource of a plain AbortSignal (an already aborted one calls the listener right away, async). */
export function stopSourceOf(signal: AbortSignal): StopSource {
  return {
    signal,
    onStop(listener) {
      if (signal.aborted) {
        queueMicrotask(listener);
        return () => undefined;
      }
      signal.addEventListener("abort", listener, { once: true });
      return () => signal.removeEventListener("abort", listener);
    },
  };
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
