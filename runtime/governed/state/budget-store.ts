/**
 * The SharedBudgetStore contract: budget usage shared by every run and process that names the same
 * budget key. `reserve` checks every limit and consumes one attempt (and its logical call) in one
 * atomic step, or consumes nothing; `settle` marks a reserved attempt as sent; `release` gives back
 * one that was never sent. The limit order and the refusal facts are defined here once, for the
 * in-memory store and PostgreSQL alike (docs/state/postgres.md).
 */
import type { BudgetLimit } from "../budget.js";

/** Limits that can refuse a shared reservation: the run limits except wall-clock time, plus a rate. */
export type SharedBudgetLimit = Exclude<BudgetLimit, "wallClock"> | "rate";

/** At most `maxAttempts` attempts per fixed window of `windowMs` (windows aligned on the epoch). */
export interface RateQuota {
  readonly maxAttempts: number;
  readonly windowMs: number;
}

/** A shared budget's limits as stored with its key (JSON; absent means unlimited). */
export interface SharedBudgetLimits {
  readonly maxCalls?: number;
  readonly maxAttempts?: number;
  readonly maxRemoteAttempts?: number;
  readonly maxCost?: number;
  readonly toolQuotas: Readonly<Record<string, number>>;
  readonly rate?: RateQuota;
}

/** One attempt's claim on a shared budget. */
export interface BudgetRequest {
  /** 1 on the first attempt of a logical call (the call is counted with it), 0 on later ones. */
  readonly calls: 0 | 1;
  readonly remote: boolean;
  readonly tool: string;
  /** Cost units of the attempt, as the budget's cost function priced it. */
  readonly cost: number;
}

export interface SharedBudgetUsage {
  readonly calls: number;
  readonly attempts: number;
  readonly remoteAttempts: number;
  readonly cost: number;
  readonly toolAttempts: Readonly<Record<string, number>>;
  /** Reserved attempts not yet settled or released (a process that died keeps its share here). */
  readonly inFlight: number;
  /** Attempts in the current rate window (0 without a rate quota). */
  readonly windowAttempts: number;
}

export interface BudgetRefusal {
  readonly limit: SharedBudgetLimit;
  readonly max: number;
  readonly used: number;
  /** The tool, when its quota refused. */
  readonly tool?: string;
}

export type ReserveResult =
  | { readonly reserved: true }
  | { readonly reserved: false; readonly refusal: BudgetRefusal };

export interface SharedBudgetStore {
  /**
   * Atomically: refuses with the first limit `request` would exceed, or consumes it (and counts it
   * in flight). Throws STATE_BUDGET_CONFLICT when `key` is stored with other limits and
   * STATE_UNAVAILABLE when the store cannot answer (then nothing may be sent).
   */
  reserve(key: string, limits: SharedBudgetLimits, request: BudgetRequest): Promise<ReserveResult>;
  /** The reserved attempt was sent: it stays consumed and leaves the in-flight count. */
  settle(key: string, request: BudgetRequest): Promise<void>;
  /** The reserved attempt was never sent: its consumption is given back (its rate slot is kept). */
  release(key: string, request: BudgetRequest): Promise<void>;
  /** The budget's usage, or undefined when nothing reserved under `key` yet. */
  usage(key: string): Promise<SharedBudgetUsage | undefined>;
}

/** The rate window `time` falls in (0 without a rate quota). */
export function windowIndex(limits: SharedBudgetLimits, time: number): number {
  return limits.rate === undefined ? 0 : Math.floor(time / limits.rate.windowMs);
}

/**
 * The first limit `request` would exceed on top of `usage`, in the order the per-run ledger checks
 * them (calls, attempts, remote attempts, tool quota, cost), then the rate quota.
 */
export function firstExceeded(
  limits: SharedBudgetLimits,
  usage: SharedBudgetUsage,
  request: BudgetRequest,
): BudgetRefusal | undefined {
  const over = (limit: SharedBudgetLimit, max: number | undefined, used: number, add: number) =>
    max !== undefined && used + add > max ? { limit, max, used } : undefined;
  const quota = limits.toolQuotas[request.tool];
  const toolUsed = usage.toolAttempts[request.tool] ?? 0;
  return (
    over("calls", limits.maxCalls, usage.calls, request.calls) ??
    over("attempts", limits.maxAttempts, usage.attempts, 1) ??
    (request.remote
      ? over("remoteAttempts", limits.maxRemoteAttempts, usage.remoteAttempts, 1)
      : undefined) ??
    (quota !== undefined && toolUsed + 1 > quota
      ? { limit: "toolQuota", max: quota, used: toolUsed, tool: request.tool }
      : undefined) ??
    over("cost", limits.maxCost, usage.cost, request.cost) ??
    over("rate", limits.rate?.maxAttempts, usage.windowAttempts, 1)
  );
}
