/**
 * The governed runner: executes a call, a list of calls or a plan's calls as one run, in sequential
 * or parallelReadOnly mode, emitting typed RunEvents (run.start, plan.end, tool.*, run.end /
 * run.error). Every call and fallback chain is preflighted before any call runs; parallel runs
 * accept only flat plans whose calls all preflight as explicitly read-only, and share one budget and
 * one concurrency bound. `stream` exposes the same run as an async iterator of its events.
 */
import { detachArguments } from "../boundary/detach.js";
import { CallRefusedError, SchemaRouterError } from "../errors/errors.js";
import type { ToolCall, ToolResult } from "../model/specs.js";
import type { RunEvent } from "../traces/events.js";
import { type CallEnvironment, runLogicalCall } from "./call.js";
import { type ExecutionMode, type ResolvedRunConfig, type RunConfig, resolveRunConfig } from "./config.js";
import type { RunEventListener } from "./emitter.js";
import {
  type FallbackRoute,
  type GovernedCall,
  type GovernedPlan,
  type PreflightedCall,
  preflightCall,
} from "./fallback.js";
import { withPartialBatch } from "./partial.js";
import { codeOf, eventMessage } from "./refusals.js";
import { RunState } from "./run.js";

/** What invoke / invokeBatch / stream accept: one call, a list of calls, or a plan (`{ calls }`). */
export type RunInput = GovernedCall | readonly GovernedCall[] | GovernedPlan;

export const MAX_PLAN_CALLS = 10_000;
const NO_OPTIONS: RunOptions = Object.freeze({});
const MAX_NAME = 512;

interface RunOptions {
  /** Force a mode (invokeBatch forces parallelReadOnly). */
  readonly mode?: ExecutionMode;
  readonly listener?: RunEventListener;
  readonly onState?: (state: RunState) => void;
}

export class GovernedRunner {
  constructor(private readonly env: () => CallEnvironment) {}

  run(
    input: RunInput,
    config: RunConfig | undefined,
    options: RunOptions = NO_OPTIONS,
  ): Promise<ToolResult[]> {
    let resolved: ResolvedRunConfig;
    try {
      resolved = resolveRunConfig(config);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run(input, resolved, options, false) as Promise<ToolResult[]>;
  }

  /**
   * One call as a run of its own: its result itself (no result list, no extra promise hop). A
   * sequential run without a trace store emits no event anyone sees, so it is the same steps as
   * `#run` without its async frame: the call's own promise, the run disposed when it settles.
   */
  call(call: GovernedCall, config: RunConfig | undefined): Promise<ToolResult> {
    let resolved: ResolvedRunConfig;
    try {
      resolved = resolveRunConfig(config);
    } catch (error) {
      return Promise.reject(error);
    }
    if (resolved.mode === "parallelReadOnly" || resolved.traceStore !== undefined) {
      return this.#run([call], resolved, NO_OPTIONS, true) as Promise<ToolResult>;
    }
    const run = new RunState(resolved, undefined, false);
    const env = this.env();
    let planned: PreflightedCall;
    try {
      // Detached before anything else, as in #run; refusals emit nothing (nobody observes the run).
      const detached = detachCall(planCalls([call])[0]!, 0);
      run.throwIfStopped();
      planned = preflightCall(env.executor, detached, 0);
    } catch (error) {
      run.dispose();
      return Promise.reject(error);
    }
    let pending: Promise<ToolResult>;
    try {
      pending = runLogicalCall(env, run, planned);
    } catch (error) {
      run.dispose();
      return Promise.reject(error);
    }
    return pending.then(
      (result) => {
        run.dispose();
        return result;
      },
      (error: unknown) => {
        run.dispose();
        throw error;
      },
    );
  }

  async #run(
    input: RunInput,
    resolved: ResolvedRunConfig,
    options: RunOptions,
    single: boolean,
  ): Promise<ToolResult[] | ToolResult> {
    const mode = options.mode ?? resolved.mode;
    // Only a parallel run (a sibling's failure) and a stream (its consumer) cancel a run from outside.
    const run = new RunState(
      resolved,
      options.listener,
      mode === "parallelReadOnly" || options.onState !== undefined,
    );
    options.onState?.(run);
    const started = performance.now();
    const env = this.env();
    // Detach the input before the first await: a caller mutating it afterwards changes nothing.
    let detached: { readonly calls: readonly GovernedCall[] } | { readonly error: unknown };
    try {
      detached = { calls: planCalls(input).map(detachCall) };
    } catch (error) {
      detached = { error };
    }
    try {
      const observed = run.emitter.observed;
      if (observed)
        await run.emitter.emit("run.start", { tags: [...resolved.tags], metadata: { ...resolved.metadata } });
      if ("error" in detached) throw detached.error;
      const calls = detached.calls;
      const planned: PreflightedCall[] = [];
      for (let index = 0; index < calls.length; index++) {
        const call = calls[index]!;
        try {
          run.throwIfStopped();
          const item = preflightCall(env.executor, call, index);
          if (mode === "parallelReadOnly") assertReadOnly(item);
          planned.push(item);
        } catch (error) {
          await emitRefusal(run, call, index, error);
          throw error;
        }
      }
      if (observed) await run.emitter.emit("plan.end", { calls: planned.length });
      // `single` runs come from call() with one call, so exactly one is planned.
      const results =
        mode === "parallelReadOnly"
          ? await runParallel(env, run, planned)
          : single
            ? await runLogicalCall(env, run, planned[0]!)
            : planned.length === 1
              ? [await runLogicalCall(env, run, planned[0]!)]
              : await runSequential(env, run, planned);
      if (observed)
        await run.emitter.emit("run.end", { calls: planned.length, durationMs: performance.now() - started });
      return results;
    } catch (error) {
      if (!run.emitter.terminal) {
        await run.emitter
          .emit("run.error", { code: codeOf(error), message: eventMessage(error, resolved.includePayloads) })
          .catch(() => undefined);
      }
      throw error;
    } finally {
      run.dispose();
    }
  }

  /** The run's events as they happen. Breaking out of the loop aborts the run (RUN_ABORTED). */
  stream(input: RunInput, config: RunConfig | undefined, mode?: ExecutionMode): AsyncGenerator<RunEvent> {
    const runner = this;
    return (async function* events() {
      const channel = new EventChannel<RunEvent>();
      let state: RunState | undefined;
      let failure: { readonly error: unknown } | undefined;
      const done = runner
        .run(input, config, {
          ...(mode !== undefined ? { mode } : {}),
          listener: (event) => channel.push(event),
          onState: (created) => {
            state = created;
          },
        })
        .then(
          () => undefined,
          (error: unknown) => {
            failure = { error };
          },
        )
        .finally(() => channel.close());
      let drained = false;
      try {
        yield* channel;
        drained = true;
      } finally {
        if (!drained) {
          state?.cancel(
            new CallRefusedError(
              "RUN_ABORTED",
              "The stream's consumer stopped reading, so the run was aborted.",
              {
                reason: "stream-closed",
              },
            ),
          );
        }
        await done;
      }
      // A refusal before run.start (invalid RunConfig, failing trace store) has no event to carry it.
      if (failure !== undefined && state?.emitter.terminal !== true) throw failure.error;
    })();
  }
}

function planCalls(input: unknown): readonly GovernedCall[] {
  let calls: unknown;
  if (Array.isArray(input)) calls = input;
  else if (input !== null && typeof input === "object" && Object.hasOwn(input, "calls")) {
    calls = (input as { calls: unknown }).calls;
  } else if (input !== null && typeof input === "object") calls = [input];
  if (!Array.isArray(calls)) {
    throw new CallRefusedError(
      "PLAN_INVALID",
      "Pass a ToolCall, an array of ToolCalls, or a plan { calls: [...] }.",
      {
        reason: "shape",
      },
    );
  }
  if (calls.length > MAX_PLAN_CALLS) {
    throw new CallRefusedError(
      "PLAN_INVALID",
      `A run takes at most ${MAX_PLAN_CALLS} calls (got ${calls.length}).`,
      {
        reason: "too-many-calls",
      },
    );
  }
  const bad = calls.findIndex((call) => call === null || typeof call !== "object" || Array.isArray(call));
  if (bad !== -1) {
    throw new CallRefusedError(
      "PLAN_INVALID",
      `Call #${bad} is not a ToolCall object; plans are flat lists of calls.`,
      {
        reason: "call-shape",
        call: bad,
      },
    );
  }
  return calls as readonly GovernedCall[];
}

/** A copy of the ToolCall members (and fallbacks) the runtime reads; arguments deep-copied. */
function detachCall(call: GovernedCall, index: number): GovernedCall {
  const copy = (value: ToolCall, where: string): ToolCall => {
    let args: Readonly<Record<string, unknown>>;
    try {
      args = detachArguments(value.arguments);
    } catch (error) {
      throw new CallRefusedError(
        "INPUT_SCHEMA_VIOLATION",
        `${where}: arguments must be plain JSON data (they could not be copied).`,
        { call: index },
        { cause: error },
      );
    }
    // Two literals rather than a conditional spread (no temporary object on every call's path).
    const fields = value.fields;
    if (fields === undefined) {
      return {
        tool: value.tool,
        endpoint: value.endpoint,
        arguments: args,
        endpointFingerprint: value.endpointFingerprint,
        toolFingerprint: value.toolFingerprint,
      };
    }
    return {
      tool: value.tool,
      endpoint: value.endpoint,
      arguments: args,
      fields: Array.isArray(fields) ? [...fields] : fields,
      endpointFingerprint: value.endpointFingerprint,
      toolFingerprint: value.toolFingerprint,
    };
  };
  const detached = copy(call, `Call #${index}`);
  const fallbacks = call.fallbacks;
  if (fallbacks === undefined) return detached;
  if (!Array.isArray(fallbacks)) return { ...detached, fallbacks };
  return {
    ...detached,
    fallbacks: fallbacks.map((route: FallbackRoute, position) => {
      if (route === null || typeof route !== "object") return route;
      return {
        ...copy(route, `Call #${index} fallback #${position}`),
        ...(typeof route.sameProvider === "boolean" ? { sameProvider: route.sameProvider } : {}),
        ...(route.fieldMap !== undefined ? { fieldMap: detachMap(route.fieldMap) } : {}),
      };
    }),
  };
}

function detachMap(map: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return map !== null && typeof map === "object" ? { ...map } : map;
}

function assertReadOnly(item: PreflightedCall): void {
  const { prepared } = item.primary;
  if (prepared.endpoint.effect !== "read") {
    throw new CallRefusedError(
      "PARALLEL_NOT_READ_ONLY",
      `${prepared.route} is ${prepared.endpoint.effect}, not read-only; parallel execution (invokeBatch, mode "parallelReadOnly") takes only explicitly read-only calls. Run it with invoke() in sequential mode.`,
      { route: prepared.route, effect: prepared.endpoint.effect, call: item.index },
    );
  }
}

/** tool.error for a call refused at preflight (only when it names a tool and endpoint). */
async function emitRefusal(run: RunState, call: GovernedCall, index: number, error: unknown): Promise<void> {
  const { tool, endpoint } = call as { tool?: unknown; endpoint?: unknown };
  const isName = (value: unknown): value is string =>
    typeof value === "string" && value.length > 0 && value.length <= MAX_NAME;
  if (!isName(tool) || !isName(endpoint)) return;
  await run.emitter.emit("tool.error", {
    callIndex: index,
    tool,
    endpoint,
    code: codeOf(error),
    message: eventMessage(error, run.config.includePayloads, `${tool}.${endpoint}`),
    attempts: 0,
  });
}

async function runSequential(
  env: CallEnvironment,
  run: RunState,
  planned: readonly PreflightedCall[],
): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (const item of planned) results.push(await runLogicalCall(env, run, item));
  return results;
}

/**
 * Runs up to `concurrency` calls at once. The first failure aborts the others and rejects. A budget
 * refusal instead stops admitting: the calls already admitted run to the end, and the run rejects
 * with the budget's error carrying their results and the refused remainder (partialBatchOf), so
 * exactly as many calls execute as the budget allows.
 */
async function runParallel(
  env: CallEnvironment,
  run: RunState,
  planned: readonly PreflightedCall[],
): Promise<ToolResult[]> {
  const results: ToolResult[] = new Array<ToolResult>(planned.length);
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  let budgetStop: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && budgetStop === undefined && next < planned.length) {
      const item = planned[next++]!;
      try {
        results[item.index] = await runLogicalCall(env, run, item);
      } catch (error) {
        if (failure !== undefined) continue;
        if (isBudgetRefusal(error)) {
          budgetStop ??= { error };
          continue;
        }
        failure = { error };
        run.cancel(
          new CallRefusedError(
            "RUN_ABORTED",
            `Call #${item.index} of the parallel run failed, so the others were aborted.`,
            {
              reason: "sibling-failed",
              failedCall: item.index,
            },
          ),
        );
      }
    }
  };
  const workers = Math.min(run.config.concurrency, planned.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  if (budgetStop !== undefined) {
    const refused = planned.map((item) => item.index).filter((index) => results[index] === undefined);
    throw withPartialBatch(budgetStop.error as object, { results: [...results], refused });
  }
  return results;
}

function isBudgetRefusal(error: unknown): boolean {
  return error instanceof SchemaRouterError && error.code === "BUDGET_EXCEEDED";
}

/** An unbounded single-consumer queue of events that ends when closed. */
class EventChannel<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = () => {
          this.#wake = undefined;
          resolve();
        };
      });
    }
  }
}
