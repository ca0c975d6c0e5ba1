/**
 * The time bound of an invoker's HTTP exchanges (docs/runtime/transports.md, "On undici's dispatcher
 * API"): every exchange of one invoker has the same `timeoutMs`, so their deadlines come in the order
 * the exchanges start, and one timer armed for the oldest deadline bounds them all. Starting or ending
 * an exchange is a Set insert or delete — no timer object, timer-list entry and ref-count change per
 * request, which a per-request `setTimeout` costs. An exchange is expired no earlier than `timeoutMs`
 * after it started, and as soon after as a timer of its own would have fired.
 */

/** What the queue bounds: expired once its deadline passed, unless deleted before. */
export interface Expiring {
  /** `performance.now()` value after which the exchange has timed out. */
  deadline: number;
  expire(): void;
}

export class ExchangeDeadlines {
  /** In insertion order, which is deadline order (one timeout for all, a monotonic clock). */
  readonly #running = new Set<Expiring>();
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly timeoutMs: number) {}

  /** Starts bounding `entry`: its deadline is `timeoutMs` from now. */
  add(entry: Expiring): void {
    entry.deadline = performance.now() + this.timeoutMs;
    this.#running.add(entry);
    if (this.#timer === undefined) this.#arm(this.timeoutMs);
  }

  /** Stops bounding `entry` (it finished); the timer stays armed for whichever exchange is oldest. */
  delete(entry: Expiring): void {
    this.#running.delete(entry);
  }

  /** Exchanges being bounded right now. */
  get size(): number {
    return this.#running.size;
  }

  #arm(ms: number): void {
    // Unref'd: a pending deadline never keeps the process alive (the request itself does).
    this.#timer = setTimeout(() => this.#fire(), ms);
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (const entry of this.#running) {
      if (entry.deadline > now) {
        this.#arm(Math.max(1, Math.ceil(entry.deadline - now)));
        return;
      }
      this.#running.delete(entry);
      try {
        entry.expire();
      } catch {
        // An exchange's abort that throws must not keep the others from timing out.
      }
    }
  }
}
