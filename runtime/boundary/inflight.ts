/**
 * In-flight invocations per invoker, so an invoker retired by a snapshot reload is closed only once
 * the calls already running on it have settled (docs/runtime/snapshots.md, "Reload").
 */
import type { Invoker } from "./invoker.js";

export class InflightInvocations {
  private readonly counts = new Map<Invoker, number>();
  private readonly waiters = new Map<Invoker, (() => void)[]>();

  enter(invoker: Invoker): void {
    this.counts.set(invoker, (this.counts.get(invoker) ?? 0) + 1);
  }

  leave(invoker: Invoker): void {
    const left = (this.counts.get(invoker) ?? 1) - 1;
    if (left > 0) {
      this.counts.set(invoker, left);
      return;
    }
    this.counts.delete(invoker);
    // Someone waits only while a reload retires an invoker.
    if (this.waiters.size === 0) return;
    const waiting = this.waiters.get(invoker);
    this.waiters.delete(invoker);
    for (const resolve of waiting ?? []) resolve();
  }

  /** Resolves when no invocation is running on `invoker` (at once when none is). */
  idle(invoker: Invoker): Promise<void> {
    if (!this.counts.has(invoker)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(invoker) ?? [];
      list.push(resolve);
      this.waiters.set(invoker, list);
    });
  }
}
