/**
 * One governed logical call (docs/runtime/execution-boundary.md steps 9–20): budget per call,
 * availability, approval, before-hooks, a fresh schema/binding check, then attempts (each budgeted
 * before it runs) with same-route retries for transient failures, output validation and projection,
 * after-hooks. When the route ends unavailable, the preflighted fallbacks run in order, each through
 * the same steps. A shared budget is reserved per attempt, settled once sent, released when never sent;
 * a shared availability store is awaited (docs/state/postgres.md).
 */
import type { PreparedCall } from "../boundary/checks.js";
import type { Executor } from "../boundary/executor.js";
import { CallRefusedError, InvocationUnavailableError } from "../errors/errors.js";
import type { ToolResult } from "../model/specs.js";
import { cooldownReason } from "./availability.js";
import type { PreflightedCall, PreflightedRoute } from "./fallback.js";
import { type HookCallSnapshot, type ResolvedHooks, runHook, snapshot } from "./hooks.js";
import { asSchemaRefusal, codeOf, eventMessage, recheckChecked } from "./refusals.js";
import { isTransient, isUnavailable, retryAfterMs } from "./retry.js";
import type { RunState } from "./run.js";
import { type CallCharge, reserveShared } from "./shared-attempt.js";
import { type AvailabilityStore, pendingOf } from "./state/availability-store.js";
import { releaseQuietly, settleQuietly } from "./state/shared-budget.js";
import { assertWritePathOpen, usesWritePath, writePathKey } from "./write-path.js";

export interface CallEnvironment {
  readonly executor: Executor;
  readonly availability: AvailabilityStore;
  readonly hooks: ResolvedHooks;
}

/** How one route ended when it did not succeed. */
class RouteFailure {
  constructor(
    readonly error: unknown,
    readonly attempts: number,
    /** The route ended unavailable (cooldown, or transient failures exhausted): fallback may apply. */
    readonly unavailable: boolean,
  ) {}
}

/** Never called: the bound of hooks when there are none. */
const unboundHook = <T>(promise: Promise<T>): Promise<T> => promise;

const jsonCopy = (value: unknown): unknown =>
  value === undefined ? null : JSON.parse(JSON.stringify(value));

/**
 * Runs one preflighted logical call; emits tool.start per attempt, tool.fallback, then tool.end or
 * tool.error. A call without fallbacks in a run nobody observes (no tool.end to emit) is its route's
 * promise with a refusal handler: the same steps as the chain below without its own async frame, so
 * one promise and one await fewer on every call's path (docs/runtime/execution-boundary.md).
 */
export function runLogicalCall(
  env: CallEnvironment,
  run: RunState,
  planned: PreflightedCall,
): Promise<ToolResult> {
  if (planned.fallbacks.length > 0 || run.emitter.observed) return runChain(env, run, planned);
  const primary = planned.primary;
  const route = primary.prepared.route;
  let pending: Promise<ToolResult>;
  try {
    run.throwIfStopped(route);
    run.ledger.startCall(route);
    pending = runRoute(env, run, primary, planned.index, false, { counted: false });
  } catch (error) {
    return failCall(run, planned.index, primary, new RouteFailure(error, 0, false));
  }
  return pending.then(undefined, (caught: unknown) =>
    failCall(
      run,
      planned.index,
      primary,
      caught instanceof RouteFailure ? caught : new RouteFailure(caught, 0, false),
    ),
  );
}

/** tool.error for a call that ended without a result; rejects with its error (the run's stop first). */
async function failCall(
  run: RunState,
  index: number,
  current: PreflightedRoute,
  failure: RouteFailure,
): Promise<never> {
  const error = run.stopError(current.prepared.route) ?? failure.error;
  await run.emitter.emit("tool.error", {
    callIndex: index,
    tool: current.prepared.call.tool,
    endpoint: current.prepared.call.endpoint,
    code: codeOf(error),
    message: eventMessage(
      error,
      run.config.includePayloads,
      `${current.prepared.call.tool}.${current.prepared.call.endpoint}`,
    ),
    attempts: failure.attempts,
  });
  throw error;
}

/** A logical call with fallbacks, or in an observed run: each route in turn, with its events. */
async function runChain(env: CallEnvironment, run: RunState, planned: PreflightedCall): Promise<ToolResult> {
  const started = performance.now();
  const index = planned.index;
  const routes: readonly PreflightedRoute[] =
    planned.fallbacks.length === 0 ? [planned.primary] : [planned.primary, ...planned.fallbacks];
  const failures: RouteFailure[] = [];
  let current = planned.primary;
  const charge: CallCharge = { counted: false };
  try {
    run.throwIfStopped(current.prepared.route);
    run.ledger.startCall(current.prepared.route);
    for (let i = 0; i < routes.length; i++) {
      current = routes[i]!;
      if (i > 0) {
        const from = routes[i - 1]!.prepared.call;
        await run.emitter.emit("tool.fallback", {
          callIndex: index,
          fromTool: from.tool,
          fromEndpoint: from.endpoint,
          toTool: current.prepared.call.tool,
          toEndpoint: current.prepared.call.endpoint,
          reason: codeOf(failures.at(-1)?.error),
        });
      }
      try {
        const result = await runRoute(env, run, current, index, i > 0, charge);
        if (run.emitter.observed) {
          await run.emitter.emit("tool.end", {
            callIndex: index,
            tool: result.tool,
            endpoint: result.endpoint,
            attempts: result.attempts,
            durationMs: performance.now() - started,
            fields: [...result.fields],
            ...(run.config.includePayloads ? { result: jsonCopy(result.data) } : {}),
          });
        }
        return result;
      } catch (error) {
        if (!(error instanceof RouteFailure)) throw new RouteFailure(error, 0, false);
        failures.push(error);
        if (!error.unavailable) throw error;
      }
    }
    throw new RouteFailure(exhaustedChain(planned, failures), failures.at(-1)?.attempts ?? 0, true);
  } catch (caught) {
    return failCall(
      run,
      index,
      current,
      caught instanceof RouteFailure ? caught : new RouteFailure(caught, 0, false),
    );
  }
}

/** The error of a chain whose every route ended unavailable. */
function exhaustedChain(planned: PreflightedCall, failures: readonly RouteFailure[]): unknown {
  const first = failures[0]?.error;
  if (planned.fallbacks.length === 0) return first;
  const route = planned.primary.prepared.route;
  return new InvocationUnavailableError(
    `${route} and its ${planned.fallbacks.length} fallback(s) are unavailable; nothing answered.`,
    {
      route,
      fallbacks: planned.fallbacks.map((fallback) => fallback.prepared.route),
      causes: failures.map((failure) => codeOf(failure.error)),
    },
    { cause: first, retryable: false },
  );
}

/** One route: checks, approval, hooks, attempts with retries, after-hooks. Throws RouteFailure. */
async function runRoute(
  env: CallEnvironment,
  run: RunState,
  planned: PreflightedRoute,
  index: number,
  fallback: boolean,
  charge: CallCharge,
): Promise<ToolResult> {
  let attempts = 0;
  let prepared: PreparedCall | undefined;
  try {
    // The chain was preflighted; check again, local state may have changed since.
    prepared = recheckChecked(env.executor, planned.prepared);
    let route = prepared.route;
    const open = pendingOf(env.availability.assertAvailable(prepared.call.tool, route));
    if (open !== undefined) await open;
    if (usesWritePath(prepared.endpoint.effect)) {
      const writes = pendingOf(assertWritePathOpen(env.availability, prepared.call.tool, route));
      if (writes !== undefined) await writes;
    }
    let waited = false;
    if (prepared.approvalRequired) {
      await env.executor.approve(prepared, { signal: run.signal, runId: run.runId, callIndex: index });
      run.throwIfStopped(route);
      waited = true;
    }
    const before = env.hooks.before;
    // Made only when there are hooks to bound: no closure on the common path.
    const bound =
      before.length > 0 || env.hooks.after.length > 0
        ? <T>(promise: Promise<T>) => run.bound(promise, route)
        : unboundHook;
    for (let position = 0; position < before.length; position++) {
      await runHook(
        before[position]!,
        hookSnapshot(prepared, run, index, fallback),
        "before",
        position,
        route,
        env.hooks.timeoutMs,
        bound,
      );
      run.throwIfStopped(route);
      waited = true;
    }
    // After approval and hooks awaited, the current schema and binding are checked again.
    if (waited) prepared = recheckChecked(env.executor, prepared);
    route = prepared.route;
    const retry = run.config.retry;
    for (;;) {
      run.throwIfStopped(route);
      // A backoff sleep lets trusted code replace the contract or rebind the tool meanwhile.
      if (attempts > 0) assertCurrent(env.executor, prepared);
      const eligible = pendingOf(env.availability.assertAvailable(prepared.call.tool, route));
      if (eligible !== undefined) await eligible;
      if (usesWritePath(prepared.endpoint.effect)) {
        const writes = pendingOf(assertWritePathOpen(env.availability, prepared.call.tool, route));
        if (writes !== undefined) await writes;
      }
      const subject = {
        tool: prepared.call.tool,
        endpoint: prepared.call.endpoint,
        effect: prepared.endpoint.effect,
        remote: prepared.registered.tool.remote,
        attempt: attempts + 1,
      };
      const charged = run.ledger.startAttempt(subject, route);
      const shared = run.config.sharedBudget;
      const reservation =
        shared === undefined ? undefined : await reserveShared(run, shared, subject, charged, charge, route);
      attempts++;
      let result: ToolResult;
      let sent = false;
      try {
        if (run.emitter.observed) {
          await run.emitter.emit("tool.start", {
            callIndex: index,
            tool: prepared.call.tool,
            endpoint: prepared.call.endpoint,
            endpointFingerprint: prepared.call.endpointFingerprint,
            toolFingerprint: prepared.call.toolFingerprint,
            attempt: attempts,
            ...(run.config.includePayloads ? { arguments: jsonCopy(prepared.call.arguments) } : {}),
          });
        }
        // The tool.start emit awaited (trace store, stream consumer): check again right before the invoker.
        assertCurrent(env.executor, prepared);
        sent = true;
        const raw = await run.bound(env.executor.invoke(prepared, run), route);
        try {
          result = env.executor.finish(prepared, raw, attempts);
        } catch (error) {
          throw asSchemaRefusal(error, "output", route);
        }
        // Validation and projection are synchronous: a deadline that passed while they ran still stops
        // the run (docs/runtime/execution-boundary.md).
        run.throwIfStopped(route);
      } catch (error) {
        // A reserved shared attempt that never reached the invoker is given back; a sent one stays spent.
        if (reservation !== undefined) await (sent ? settleQuietly : releaseQuietly)(reservation);
        if (!sent) throw error;
        const stop = run.stopError(route);
        if (stop !== undefined) throw new RouteFailure(stop, attempts, false);
        if (
          isTransient(error) &&
          attempts < retry.maxAttempts &&
          retry.allowsRetry(prepared.endpoint.effect)
        ) {
          const delay = retry.delayBeforeRetry(attempts, error);
          if (delay !== undefined) {
            if (delay >= run.ledger.remainingMs()) {
              throw new RouteFailure(backoffExceeds(run, route, delay, error), attempts, false);
            }
            await run.sleep(delay, route);
            continue;
          }
        }
        if (isUnavailable(error)) {
          // Both paths cool down; a read-only health probe reopens only the read path.
          for (const path of [prepared.call.tool, writePathKey(prepared.call.tool)]) {
            const marked = pendingOf(
              env.availability.markUnavailable(path, cooldownReason(error), retryAfterMs(error)),
            );
            if (marked !== undefined) await marked.catch(() => undefined);
          }
          throw new RouteFailure(error, attempts, true);
        }
        throw new RouteFailure(error, attempts, false);
      }
      if (reservation !== undefined) await settleQuietly(reservation);
      const reopened = pendingOf(env.availability.markAvailable(prepared.call.tool));
      if (reopened !== undefined) await reopened.catch(() => undefined);
      if (usesWritePath(prepared.endpoint.effect)) {
        const writes = pendingOf(env.availability.markAvailable(writePathKey(prepared.call.tool)));
        if (writes !== undefined) await writes.catch(() => undefined);
      }
      // Awaited only when there are after-hooks: no promise hop on the common path.
      if (env.hooks.after.length > 0) await runAfterHooks(env, run, prepared, index, fallback, result, bound);
      return result;
    }
  } catch (error) {
    if (error instanceof RouteFailure) throw error;
    const stop = run.stopError(prepared?.route);
    if (stop !== undefined) throw new RouteFailure(stop, attempts, false);
    const cooling =
      error instanceof InvocationUnavailableError &&
      (error.details as { reason?: unknown }).reason === "cooldown";
    throw new RouteFailure(error, attempts, cooling);
  }
}

/**
 * Refuses an attempt whose prepared contract or binding is no longer the current one: the call is
 * checked again against the current registry and bindings (STALE_FINGERPRINT, STALE_TOOL_FINGERPRINT,
 * STALE_BINDING, BINDING_NOT_READY, UNKNOWN_TOOL …), and a tool rebound to another invoker since the
 * call was prepared is STALE_BINDING too.
 */
export function assertCurrent(executor: Executor, prepared: PreparedCall): void {
  const current = recheckChecked(executor, prepared);
  if (current.binding.invoker !== prepared.binding.invoker) {
    throw new CallRefusedError(
      "STALE_BINDING",
      `${prepared.route}: the tool was bound to another invoker after this call was prepared, so it is refused. Run the call again.`,
      { route: prepared.route, reason: "rebound" },
    );
  }
}

async function runAfterHooks(
  env: CallEnvironment,
  run: RunState,
  prepared: PreparedCall,
  index: number,
  fallback: boolean,
  result: ToolResult,
  bound: <T>(promise: Promise<T>) => Promise<T>,
): Promise<void> {
  const frozen = snapshot({ ...hookSnapshot(prepared, run, index, fallback), result });
  for (const [position, hook] of env.hooks.after.entries()) {
    // An after-hook failure is a refusal of the result, never a tool failure to retry.
    await runHook(hook, frozen, "after", position, prepared.route, env.hooks.timeoutMs, bound);
    run.throwIfStopped(prepared.route);
  }
}

function hookSnapshot(
  prepared: PreparedCall,
  run: RunState,
  index: number,
  fallback: boolean,
): HookCallSnapshot {
  return snapshot({
    runId: run.runId,
    callIndex: index,
    tool: prepared.call.tool,
    endpoint: prepared.call.endpoint,
    effect: prepared.endpoint.effect,
    remote: prepared.registered.tool.remote,
    arguments: prepared.call.arguments,
    fields: prepared.fields.map((field) => field.id),
    endpointFingerprint: prepared.call.endpointFingerprint,
    toolFingerprint: prepared.call.toolFingerprint,
    fallback,
  });
}

function backoffExceeds(run: RunState, route: string, delay: number, cause: unknown): CallRefusedError {
  const max = run.config.budget?.maxWallClockMs ?? 0;
  return new CallRefusedError(
    "BUDGET_EXCEEDED",
    `${route}: the next retry would wait ${delay} ms, more than the ${Math.round(run.ledger.remainingMs())} ms left of the run's ${max} ms wall-clock budget.`,
    { limit: "wallClock", max, used: Math.round(run.ledger.elapsedMs()), route, retryDelayMs: delay },
    { cause },
  );
}
