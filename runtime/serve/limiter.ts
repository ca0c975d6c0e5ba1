/**
 * The server-wide concurrency bound (docs/serve.md, "HTTP security"): at most `limit` calls run at
 * once, at most `queued` more wait in arrival order, and anything beyond is refused at once with
 * SERVE_BUSY (a tool result the client may retry), so a flood of calls never builds an unbounded
 * queue. A waiting call whose request is cancelled leaves the queue.
 */
import { SchemaRouterError } from "../errors/errors.js";

interface Waiter {
  readonly grant: () => void;
}

export class Limiter {
  #running = 0;
  readonly #waiting: Waiter[] = [];

  constructor(
    readonly limit: number,
    readonly queued: number,
  ) {}

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Waits for a slot; the returned function frees it (once). Rejects with the signal's reason on abort. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.#running < this.limit && this.#waiting.length === 0) {
      this.#running++;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.queued) {
      throw new SchemaRouterError(
        "SERVE_BUSY",
        `The MCP server is running ${this.limit} calls with ${this.queued} waiting; try again shortly.`,
        { limit: this.limit, queued: this.queued },
      );
    }
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter (running stays the same).
      if (next !== undefined) next.grant();
      else this.#running--;
    };
  }
}
