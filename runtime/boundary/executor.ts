/**
 * The one fail-closed execution boundary (docs/runtime/execution-boundary.md): every call, whether it
 * comes from generated bindings, a plan or a hand-built ToolCall, passes the same checks in the same
 * order. `prepare` (steps 2–7), `approve` (step 11), `invoke` (one transport attempt, step 15) and
 * `finish` (output validation and projection, steps 16–17) are the steps the governed runner
 * (runtime/governed) composes with budgets, retries, availability, hooks and fallback.
 */

import {
  CallRefusedError,
  InvocationError,
  isSchemaRouterError,
  SchemaRouterError,
} from "../errors/errors.js";
import type { Registry } from "../load/registry.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, FieldSpec, JsonSchema, ToolCall, ToolResult, ToolSpec } from "../model/specs.js";
import { CallPlans } from "./call-plan.js";
import { type PreparedCall, prepareCall } from "./checks.js";
import { InflightInvocations } from "./inflight.js";
import { type Binding, type InvocationContext, type StopSource, stopSourceOf } from "./invoker.js";
import type { ExecutionPolicy } from "./policy.js";
import { project, selectedIds } from "./projection.js";
import { ValidatorSet } from "./validation.js";

/** What a trusted approval callback sees: a detached, frozen description of the call (no credentials). */
export interface ApprovalRequest {
  readonly tool: string;
  readonly endpoint: string;
  /** The contract pins the call was checked against (equal to the current ones). */
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  readonly effect: string;
  readonly remote: boolean;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly fields: readonly string[];
  readonly reason: string;
  /** The run asking (absent for calls outside a run). */
  readonly runId?: string;
  readonly callIndex?: number;
}

export type ApprovalCallback = (request: ApprovalRequest) => boolean | Promise<boolean>;

export interface ExecutorState {
  readonly registry: Registry;
  readonly bindings: ReadonlyMap<string, Binding>;
}

export interface ExecutorOptions {
  readonly policy: ExecutionPolicy;
  readonly approve?: ApprovalCallback;
  /** Upper bound for an async approval callback (default 60 s). */
  readonly approvalTimeoutMs?: number;
}

/** The part of a RunConfig older callers pass (`{ signal }`); every CallContext is a RunConfig. */
export interface CallContext {
  readonly signal?: AbortSignal;
}

export interface ApprovalContext {
  /** Aborts the wait (the run's wall-clock budget or abort); its reason is rethrown when it is a SchemaRouterError. */
  readonly signal?: AbortSignal;
  readonly runId?: string;
  readonly callIndex?: number;
}

export class Executor {
  readonly validators = new ValidatorSet();
  /** Per-endpoint call plans (runtime/boundary/call-plan.ts), built on first use. */
  readonly plans: CallPlans;
  /** Invocations running per invoker (a reload closes a retired invoker once it is idle). */
  readonly inflight = new InflightInvocations();

  constructor(
    private readonly state: () => ExecutorState,
    private readonly options: ExecutorOptions,
  ) {
    this.plans = new CallPlans(options.policy, this.validators);
  }

  /** Steps 2–7 without approval or transport: used to preflight calls and fallback chains. */
  prepare(call: ToolCall): PreparedCall {
    const { registry, bindings } = this.state();
    return prepareCall(call, registry, bindings, this.plans);
  }

  /**
   * `prepare` for a call whose arguments `detachArguments` made (the governed runner detaches every
   * call and fallback before preflight; a prepared call's are): they are not copied again.
   */
  prepareDetached(call: ToolCall): PreparedCall {
    const { registry, bindings } = this.state();
    return prepareCall(call, registry, bindings, this.plans, true);
  }

  /**
   * Steps 2–7 again for a call prepared earlier, against the current registry and bindings. When the
   * registered tool, the endpoint contract and the binding are the very objects the call was prepared
   * with, every check would give the same answer (they are pure functions of those frozen objects,
   * the detached frozen call and this executor's policy), so the prepared call is returned as is;
   * anything replaced since means a full re-check (STALE_FINGERPRINT, STALE_BINDING, …).
   */
  recheck(prepared: PreparedCall): PreparedCall {
    const { registry, bindings } = this.state();
    const registered = registry.get(prepared.call.tool);
    if (
      registered === prepared.registered &&
      registered.endpoints.get(prepared.call.endpoint) === prepared.endpoint &&
      bindings.get(prepared.call.tool) === prepared.binding
    ) {
      return prepared;
    }
    return this.prepareDetached(prepared.call);
  }

  /**
   * One transport attempt. Anything but a SchemaRouterError the invoker throws becomes TOOL_ERROR.
   * The invoker gets the prepared call itself: it is frozen, arguments included (copy before changing).
   */
  invoke(prepared: PreparedCall, stop: AbortSignal | StopSource): Promise<unknown> {
    const source = stop instanceof AbortSignal ? stopSourceOf(stop) : stop;
    const failed = (error: unknown): never => {
      if (isSchemaRouterError(error)) throw error;
      throw new InvocationError(
        "TOOL_ERROR",
        `${prepared.route}: the invoker failed: ${error instanceof Error ? error.message : String(error)}`,
        { route: prepared.route },
        { cause: error },
      );
    };
    // Not async: the invoker's own promise is chained once (a synchronous throw is mapped the same).
    const invoker = prepared.binding.invoker;
    let pending: Promise<unknown>;
    this.inflight.enter(invoker);
    try {
      pending = Promise.resolve(invoker.invoke(new AttemptContext(prepared, source)));
    } catch (error) {
      this.inflight.leave(invoker);
      return Promise.reject(error).catch(failed);
    }
    // One hop, as before: the in-flight count is released on either outcome.
    return pending.then(
      (raw) => {
        this.inflight.leave(invoker);
        return raw;
      },
      (error: unknown) => {
        this.inflight.leave(invoker);
        return failed(error);
      },
    );
  }

  /** Validates the raw output against the locked schema, then projects to the selected fields. */
  finish(prepared: PreparedCall, raw: unknown, attempts: number): ToolResult {
    const violations = prepared.plan.outputCheck(raw);
    if (violations.length > 0) {
      throw new InvocationError(
        "OUTPUT_SCHEMA_VIOLATION",
        `${prepared.route}: the raw output does not satisfy the locked output schema: ${violations.map((v) => v.message).join("; ")}. The upstream changed or is misbehaving; run \`schemarouter check\`.`,
        { route: prepared.route, violations },
      );
    }
    return {
      tool: prepared.call.tool,
      endpoint: prepared.call.endpoint,
      data: project(raw, prepared.fields, prepared.route, prepared.endpoint.fields.length > 0),
      fields: selectedIds(prepared.fields),
      endpointFingerprint: prepared.call.endpointFingerprint,
      toolFingerprint: prepared.call.toolFingerprint,
      attempts,
    };
  }

  /** Asks the trusted approval callback; missing, rejecting, throwing or timing out → APPROVAL_DENIED. */
  async approve(prepared: PreparedCall, context: ApprovalContext = {}): Promise<void> {
    const approve = this.options.approve;
    const route = prepared.route;
    if (approve === undefined) {
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route} needs approval (${prepared.policyReason}), but no approval callback is configured. Pass approve: (request) => … to SchemaRouter.`,
        { route, reason: "missing-callback" },
      );
    }
    const request: ApprovalRequest = deepFreeze({
      tool: prepared.call.tool,
      endpoint: prepared.call.endpoint,
      endpointFingerprint: prepared.call.endpointFingerprint,
      toolFingerprint: prepared.call.toolFingerprint,
      effect: prepared.endpoint.effect,
      remote: prepared.registered.tool.remote,
      arguments: structuredClone(prepared.call.arguments),
      fields: prepared.fields.map((field) => field.id),
      reason: prepared.policyReason,
      ...(context.runId !== undefined ? { runId: context.runId } : {}),
      ...(context.callIndex !== undefined ? { callIndex: context.callIndex } : {}),
    });
    let verdict: unknown;
    try {
      verdict = await withTimeout(
        new Promise<unknown>((resolve) => resolve(approve(request))),
        this.options.approvalTimeoutMs ?? 60_000,
        context.signal,
      );
    } catch (error) {
      if (error instanceof SchemaRouterError && error === context.signal?.reason) throw error;
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route}: the approval callback failed, so the call is refused.`,
        { route, reason: error instanceof TimeoutError ? "timeout" : "callback-error" },
        { cause: error },
      );
    }
    if (verdict !== true) {
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route}: the approval callback did not approve the call.`,
        { route, reason: "rejected" },
      );
    }
  }
}

export class TimeoutError extends Error {}

/**
 * Resolves with `promise`, or rejects when `ms` pass (TimeoutError) or `signal` aborts (its reason
 * when that is a SchemaRouterError, a TimeoutError otherwise).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () =>
      signal?.reason instanceof SchemaRouterError ? signal.reason : new TimeoutError("aborted");
    if (signal?.aborted) {
      promise.catch(() => undefined);
      reject(aborted());
      return;
    }
    const timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The InvocationContext of one attempt; its AbortSignal is made only if the invoker reads it. */
class AttemptContext implements InvocationContext {
  readonly call: ToolCall;
  readonly tool: ToolSpec;
  readonly endpoint: EndpointSpec;
  readonly selectedFields: readonly FieldSpec[];
  readonly onStop: (listener: () => void) => () => void;
  readonly #source: StopSource;
  readonly #prepared: PreparedCall;

  constructor(prepared: PreparedCall, source: StopSource) {
    this.call = prepared.call;
    this.tool = prepared.registered.tool;
    this.endpoint = prepared.endpoint;
    this.selectedFields = prepared.fields;
    this.#source = source;
    this.#prepared = prepared;
    this.onStop = (listener) => source.onStop(listener);
  }

  get signal(): AbortSignal {
    return this.#source.signal;
  }

  get outputSchema(): JsonSchema {
    return this.#prepared.plan.outputSchema;
  }
}
