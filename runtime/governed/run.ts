/**
 * One run's shared state: resolved config, budget ledger, event emitter, and the run signal that
 * fires on the wall-clock deadline, the caller's abort or an internal cancel. Every awaited step
 * (approval, hooks, invocation, backoff) is bounded by it through `bound` and `sleep`. A run that
 * nothing can stop while it awaits (no signal, no wall-clock budget, not cancellable) hands awaited
 * steps through unwrapped: its stop is only ever seen by the synchronous checks around them
 * (docs/runtime/execution-boundary.md).
 */

import type { StopSource } from "../boundary/invoker.js";
import { CallRefusedError, type SchemaRouterError } from "../errors/errors.js";
import { BudgetLedger, exceeded } from "./budget.js";
import type { ResolvedRunConfig } from "./config.js";
import { RunEmitter, type RunEventListener } from "./emitter.js";

const clock = () => performance.now();

const unsubscribed = (): void => undefined;

export class RunState implements StopSource {
  readonly ledger: BudgetLedger;
  readonly emitter: RunEmitter;
  #controller: AbortController | undefined;
  #stop: SchemaRouterError | undefined;
  #timer: NodeJS.Timeout | undefined;
  /**
   * Notified once when the run stops; a Set, so subscribing costs no AbortSignal per step. Made only
   * for a run something can stop while it awaits (see onStop).
   */
  #listeners: Set<() => void> | undefined;
  readonly #onCallerAbort: (() => void) | undefined;
  /** Whether anything can stop the run while a step awaits: a signal, a wall-clock timer or a canceller. */
  readonly #interruptible: boolean;

  /**
   * `cancellable`: someone may call `cancel` while a step awaits (a parallel run's sibling failure,
   * a stream's consumer); when false, only the caller's signal and the wall-clock budget can.
   */
  constructor(
    readonly config: ResolvedRunConfig,
    listener: RunEventListener | undefined,
    cancellable = true,
  ) {
    this.ledger = new BudgetLedger(config.budget, clock);
    this.emitter = new RunEmitter(config, config.traceStore, listener);
    if (config.signal !== undefined) {
      this.#onCallerAbort = () => this.#stopped();
      config.signal.addEventListener("abort", this.#onCallerAbort, { once: true });
    }
    const max = config.budget?.maxWallClockMs;
    if (max !== undefined) {
      // Ref'd on purpose (the run is waiting on it); dispose() clears it when the run ends.
      this.#timer = setTimeout(() => this.cancel(exceeded("wallClock", max, this.ledger.elapsedMs())), max);
    }
    this.#interruptible = cancellable || config.signal !== undefined || this.#timer !== undefined;
  }

  get runId(): string {
    return this.config.runId;
  }

  /**
   * Aborted when the run stops (deadline, caller abort or cancel), with the stop error as reason.
   * Made on first use: most calls never need an AbortSignal (see onStop).
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      const stop = this.stopError();
      if (stop !== undefined) this.#controller.abort(stop);
    }
    return this.#controller.signal;
  }

  /** Calls `listener` once when the run stops; returns the unsubscribe function. */
  onStop(listener: () => void): () => void {
    if (!this.#interruptible) return unsubscribed;
    if (this.#isStopped()) {
      queueMicrotask(listener);
      return () => undefined;
    }
    this.#listeners ??= new Set();
    const listeners = this.#listeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Stops the run: every bounded step rejects with `reason` (the first reason wins). */
  cancel(reason: SchemaRouterError): void {
    if (!this.#interruptible) {
      // A run made not cancellable cannot interrupt its awaited steps: refuse loudly rather than stop late.
      throw new TypeError("RunState.cancel: this run was created not cancellable.");
    }
    this.#stop ??= reason;
    this.#stopped();
  }

  #stopped(): void {
    // Listeners first: each names its own route in the stop error (the first one made is kept).
    const listeners = this.#listeners === undefined ? [] : [...this.#listeners];
    this.#listeners?.clear();
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener (an invoker's cleanup) that throws must not keep the others from running: the
        // run's own steps are listeners too. Its error has nowhere to go and is dropped.
      }
    }
    const stop = this.stopError();
    if (stop !== undefined) this.#controller?.abort(stop);
  }

  /** Whether the run is stopped, without settling its stop error (whose message names a route). */
  #isStopped(): boolean {
    if (this.#stop !== undefined || this.config.signal?.aborted === true) return true;
    try {
      this.ledger.checkWallClock();
      return false;
    } catch {
      return true;
    }
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
    // Nothing can stop the run while it awaits: the step's own promise, without a wrapper and its hop.
    if (!this.#interruptible) return promise;
    return new Promise<T>((resolve, reject) => {
      const unsubscribe = this.onStop(() => reject(this.stopError(route)));
      promise.then(
        (value) => {
          unsubscribe();
          resolve(value);
        },
        (error: unknown) => {
          unsubscribe();
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
    if (this.#onCallerAbort !== undefined)
      this.config.signal?.removeEventListener("abort", this.#onCallerAbort);
  }
}
