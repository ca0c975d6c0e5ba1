/**
 * One run's shared state: resolved config, budget ledger, event emitter, and the run signal that
 * fires on the wall-clock deadline, the caller's abort or an internal cancel. Every awaited step
 * (approval, hooks, invocation, backoff) is bounded by it through `bound` and `sleep`.
 */
import { CallRefusedError, type SchemaRouterError } from "../errors.js";
import { BudgetLedger, exceeded } from "./budget.js";
import type { ResolvedRunConfig } from "./config.js";
import { RunEmitter, type RunEventListener } from "./emitter.js";

const clock = () => performance.now();

export class RunState {
  readonly ledger: BudgetLedger;
  readonly emitter: RunEmitter;
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  #stop: SchemaRouterError | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly config: ResolvedRunConfig,
    listener: RunEventListener | undefined,
  ) {
    this.ledger = new BudgetLedger(config.budget, clock);
    this.emitter = new RunEmitter(config.runId, config.traceStore, listener);
    this.signal =
      config.signal === undefined
        ? this.#controller.signal
        : AbortSignal.any([this.#controller.signal, config.signal]);
    const max = config.budget?.maxWallClockMs;
    if (max !== undefined) {
      // Ref'd on purpose (the run is waiting on it); dispose() clears it when the run ends.
      this.#timer = setTimeout(() => this.cancel(exceeded("wallClock", max, this.ledger.elapsedMs())), max);
    }
  }

  get runId(): string {
    return this.config.runId;
  }

  /** Stops the run: every bounded step rejects with `reason` (the first reason wins). */
  cancel(reason: SchemaRouterError): void {
    this.#stop ??= reason;
    this.#controller.abort(this.#stop);
  }

  /** The error that stopped the run, if it was stopped (deadline, caller abort or cancel). */
  stopError(route?: string): SchemaRouterError | undefined {
    if (this.config.signal?.aborted && this.#stop === undefined) {
      this.#stop = new CallRefusedError(
        "RUN_ABORTED",
        `${route ?? "The run"}: the run was aborted by RunConfig.signal.`,
        { ...(route !== undefined ? { route } : {}), reason: "signal" },
        { cause: this.config.signal.reason },
      );
    }
    if (this.#stop === undefined) {
      try {
        this.ledger.checkWallClock(route);
      } catch (error) {
        this.#stop = error as SchemaRouterError;
      }
    }
    return this.#stop;
  }

  throwIfStopped(route?: string): void {
    const stop = this.stopError(route);
    if (stop !== undefined) throw stop;
  }

  /** Resolves with `promise`, or rejects with the run's stop error as soon as the run stops. */
  bound<T>(promise: Promise<T>, route?: string): Promise<T> {
    const stop = this.stopError(route);
    if (stop !== undefined) {
      promise.catch(() => undefined);
      return Promise.reject(stop);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.stopError(route));
      this.signal.addEventListener("abort", onAbort, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  /** Waits `ms` (backoff) unless the run stops first. */
  sleep(ms: number, route?: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    return this.bound(wait, route).finally(() => clearTimeout(timer));
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
