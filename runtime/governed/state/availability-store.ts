/**
 * The AvailabilityStore contract: where cooldowns and health-probe verdicts live. The default,
 * AvailabilityMemory, is one process's memory and answers synchronously; a shared store (PostgreSQL,
 * docs/state/postgres.md) answers with promises, so every process sees the same cooldowns. The
 * governed runner awaits a method only when it returns a promise, so the in-memory path keeps its
 * exact timing.
 */
import type { AvailabilityStatus } from "../availability.js";

export interface ProbeVerdict {
  readonly tool: string;
  readonly healthy: boolean;
  /** Why it is not: `returned-false`, `threw`, `timeout`. */
  readonly reason?: string;
}

export interface AvailabilityStore {
  /** The path's state as this process last saw it (a shared store's local view; never a query). */
  status(tool: string): AvailabilityStatus;
  /** Throws INVOCATION_UNAVAILABLE (nothing sent) while the path cools down, for every process. */
  assertAvailable(tool: string, route: string): void | Promise<void>;
  /** Starts (or extends) a cooldown: doubled per consecutive failure, at least `retryAfterMs`, bounded. */
  markUnavailable(tool: string, reason: string, retryAfterMs?: number): void | Promise<void>;
  /** The path worked (a successful attempt or health probe): it is eligible now, failures reset. */
  markAvailable(tool: string): void | Promise<void>;
  /** Forgets everything about a path (its contract was replaced). */
  clear(tool: string): void | Promise<void>;
  /** Records a health probe's verdict where every process can read it (shared stores only). */
  recordProbe?(verdict: ProbeVerdict): Promise<void>;
}

/** `result` when it is a promise, else undefined: callers await only a shared store's answers. */
export function pendingOf(result: void | Promise<void>): Promise<void> | undefined {
  return result instanceof Promise ? result : undefined;
}
