/**
 * The one fail-closed execution boundary (DESIGN section 5): every call, whether it comes from
 * generated bindings, a plan or a hand-built ToolCall, passes the same checks in the same order.
 */
import { ContractSchemas, type PreparedCall, prepareCall } from "./checks.js";
import { CallRefusedError, InvocationError } from "./errors.js";
import type { Binding } from "./invoker.js";
import type { ToolCall, ToolResult } from "./model.js";
import type { ExecutionPolicy } from "./policy.js";
import { project } from "./projection.js";
import type { Registry } from "./registry.js";
import { ValidatorSet } from "./validation.js";

/** What a trusted approval callback sees: a detached description of the call (no credentials). */
export interface ApprovalRequest {
  readonly tool: string;
  readonly endpoint: string;
  readonly effect: string;
  readonly remote: boolean;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly fields: readonly string[];
  readonly reason: string;
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

export interface CallContext {
  readonly signal?: AbortSignal;
}

export class Executor {
  readonly validators = new ValidatorSet();
  readonly schemas = new ContractSchemas();

  constructor(
    private readonly state: () => ExecutorState,
    private readonly options: ExecutorOptions,
  ) {}

  /** Checks 1–5 without approval or transport: used to preflight calls and fallback chains. */
  prepare(call: ToolCall): PreparedCall {
    const { registry, bindings } = this.state();
    return prepareCall(call, registry, bindings, this.options.policy, this.validators, this.schemas);
  }

  async execute(call: ToolCall, context: CallContext = {}): Promise<ToolResult> {
    const prepared = this.prepare(call);
    if (prepared.approvalRequired) await this.requireApproval(prepared, context.signal);
    // Approval may have awaited while local state changed: check identity and binding again.
    const current = prepared.approvalRequired ? this.prepare(prepared.call) : prepared;
    const signal = context.signal ?? new AbortController().signal;
    const raw = await current.binding.invoker.invoke({
      call: structuredClone(current.call),
      tool: current.registered.tool,
      endpoint: current.endpoint,
      selectedFields: current.fields,
      signal,
    });
    return this.finish(current, raw, 1);
  }

  /** Validates the raw output against the locked schema, then projects to the selected fields. */
  finish(prepared: PreparedCall, raw: unknown, attempts: number): ToolResult {
    const violations = this.validators.validate(
      this.schemas.of(prepared.registered, prepared.endpoint, "output"),
      raw,
    );
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
      data: project(raw, prepared.fields, prepared.route),
      fields: prepared.fields.map((field) => field.id),
      endpointFingerprint: prepared.call.endpointFingerprint,
      toolFingerprint: prepared.call.toolFingerprint,
      attempts,
    };
  }

  private async requireApproval(prepared: PreparedCall, signal: AbortSignal | undefined): Promise<void> {
    const approve = this.options.approve;
    const route = prepared.route;
    if (approve === undefined) {
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route} needs approval, but no approval callback is configured.`,
        {
          route,
          reason: "missing-callback",
        },
      );
    }
    const request: ApprovalRequest = {
      tool: prepared.call.tool,
      endpoint: prepared.call.endpoint,
      effect: prepared.endpoint.effect,
      remote: prepared.registered.tool.remote,
      arguments: structuredClone(prepared.call.arguments),
      fields: prepared.fields.map((field) => field.id),
      reason: prepared.policyReason,
    };
    let verdict: unknown;
    try {
      verdict = await withTimeout(
        Promise.resolve(approve(request)),
        this.options.approvalTimeoutMs ?? 60_000,
        signal,
      );
    } catch (error) {
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route}: the approval callback failed, so the call is refused.`,
        {
          route,
          reason: error instanceof TimeoutError ? "timeout" : "callback-error",
        },
        { cause: error },
      );
    }
    if (verdict !== true) {
      throw new CallRefusedError(
        "APPROVAL_DENIED",
        `${route}: the approval callback did not approve the call.`,
        {
          route,
          reason: "rejected",
        },
      );
    }
  }
}

export class TimeoutError extends Error {}

/** Resolves with `promise`, or rejects when `ms` pass or `signal` aborts. */
export function withTimeout<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), Math.max(0, ms));
    const onAbort = () => reject(new TimeoutError("aborted"));
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
