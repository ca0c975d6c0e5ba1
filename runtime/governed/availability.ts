/**
 * Availability memory (docs/trust-model.md §30): passive failures (timeouts, connection failures, 429,
 * exhausted 5xx) put an access path (a tool) in a bounded cooldown; it becomes eligible again on its
 * own when the cooldown ends, or earlier when a trusted health probe succeeds. Never a permanent
 * blacklist. State lives in one instance per router; replacing a tool contract clears it.
 */
import { InvocationUnavailableError } from "../errors/errors.js";
import { assertOptionKeys, integerOption } from "./refusals.js";
import type { AvailabilityStore } from "./state/availability-store.js";

export interface AvailabilityOptions {
  /** First cooldown after a path becomes unavailable (default 5 000 ms; 0 turns cooldowns off). */
  readonly cooldownMs?: number;
  /** Longest cooldown: consecutive failures double it up to this bound (default 60 000 ms). */
  readonly maxCooldownMs?: number;
}

export interface AvailabilityStatus {
  readonly tool: string;
  readonly available: boolean;
  /** ISO time the cooldown ends (only while unavailable). */
  readonly until?: string;
  /** Why the path is cooling down: `timeout`, `connection`, `http-429`, `http-5xx`, `probe-failed`, … */
  readonly reason?: string;
  /** Consecutive failures since the path last worked. */
  readonly failures: number;
}

interface Cooldown {
  readonly until: number;
  readonly reason: string;
  readonly failures: number;
}

/** Upper bound of any cooldown (one day). */
export const MAX_COOLDOWN_MS = 86_400_000;

export class AvailabilityMemory implements AvailabilityStore {
  readonly cooldownMs: number;
  readonly maxCooldownMs: number;
  readonly #paths = new Map<string, Cooldown>();

  constructor(
    options: AvailabilityOptions = {},
    private readonly clock: () => number = Date.now,
  ) {
    const bounds = cooldownBounds(options);
    this.cooldownMs = bounds.cooldownMs;
    this.maxCooldownMs = bounds.maxCooldownMs;
  }

  status(tool: string): AvailabilityStatus {
    const entry = this.#paths.get(tool);
    if (entry === undefined) return Object.freeze({ tool, available: true, failures: 0 });
    if (entry.until <= this.clock())
      return Object.freeze({ tool, available: true, failures: entry.failures });
    return Object.freeze({
      tool,
      available: false,
      until: new Date(entry.until).toISOString(),
      reason: entry.reason,
      failures: entry.failures,
    });
  }

  /** Throws INVOCATION_UNAVAILABLE (without sending anything) while the path cools down. */
  assertAvailable(tool: string, route: string): void {
    // A path without a cooldown (every call's common case) needs no status object.
    const entry = this.#paths.get(tool);
    if (entry === undefined) return;
    const status = this.status(tool);
    if (status.available) return;
    throw cooldownRefusal(status, route);
  }

  /** Starts (or extends) a cooldown: doubled per consecutive failure, at least `retryAfterMs`, bounded. */
  markUnavailable(tool: string, reason: string, retryAfterMs?: number): void {
    if (this.cooldownMs === 0) return;
    const failures = (this.#paths.get(tool)?.failures ?? 0) + 1;
    const length = cooldownLength(this, failures, retryAfterMs);
    this.#paths.set(tool, { until: this.clock() + length, reason, failures });
  }

  /** The path worked (a successful attempt or health probe): it is eligible now, failures reset. */
  markAvailable(tool: string): void {
    this.#paths.delete(tool);
  }

  /** Forgets everything about a path (its contract was replaced). */
  clear(tool: string): void {
    this.#paths.delete(tool);
  }
}

export interface CooldownBounds {
  readonly cooldownMs: number;
  readonly maxCooldownMs: number;
}

/** Validated cooldown bounds (defaults 5 000 and 60 000 ms), shared by every availability store. */
export function cooldownBounds(options: AvailabilityOptions): CooldownBounds {
  const owner = "availability";
  assertOptionKeys(owner, options, ["cooldownMs", "maxCooldownMs"]);
  const cooldownMs = integerOption(owner, "cooldownMs", options.cooldownMs, 0, MAX_COOLDOWN_MS) ?? 5_000;
  return {
    cooldownMs,
    maxCooldownMs: Math.max(
      cooldownMs,
      integerOption(owner, "maxCooldownMs", options.maxCooldownMs, 0, MAX_COOLDOWN_MS) ?? 60_000,
    ),
  };
}

/** Length of the cooldown after the `failures`-th consecutive failure (doubling, bounded). */
export function cooldownLength(bounds: CooldownBounds, failures: number, retryAfterMs?: number): number {
  const backoff = bounds.cooldownMs * 2 ** Math.min(failures - 1, 30);
  return Math.min(bounds.maxCooldownMs, Math.max(backoff, retryAfterMs ?? 0));
}

/** The INVOCATION_UNAVAILABLE refusal of a path that is cooling down (nothing was sent). */
export function cooldownRefusal(status: AvailabilityStatus, route: string): InvocationUnavailableError {
  const { tool } = status;
  return new InvocationUnavailableError(
    `${route}: access path "${tool}" is cooling down after ${status.reason} until ${status.until}; nothing was sent. It reopens by itself then, or earlier when a registered health probe succeeds.`,
    {
      route,
      tool,
      reason: "cooldown",
      ...(status.reason === undefined ? {} : { cause: status.reason }),
      ...(status.until === undefined ? {} : { until: status.until }),
    },
    { retryable: false },
  );
}

/** A short, stable reason for a cooldown caused by `error`. */
export function cooldownReason(error: unknown): string {
  const details = (error as { details?: Record<string, unknown> } | null)?.details ?? {};
  const status = details.status;
  if (typeof status === "number")
    return status === 429 ? "http-429" : status >= 500 ? "http-5xx" : `http-${status}`;
  if (details.reason === "timeout") return "timeout";
  return "connection";
}
