/**
 * ExecutionBudget (docs/trust-model.md §19): limits on logical calls, total attempts, remote attempts,
 * wall-clock time, per-tool attempt quotas and application-defined cost units. A BudgetLedger holds
 * one run's usage; it is checked before every logical call and consumed before every attempt
 * (retries included), all-or-nothing, so a refused attempt consumes nothing.
 */
import { CallRefusedError, type ErrorDetailsOf } from "../errors/errors.js";
import type { Effect } from "../model/specs.js";
import { assertOptionKeys, configInvalid, integerOption, numberOption } from "./refusals.js";

/** What the cost function sees about one attempt. */
export interface CostSubject {
  readonly tool: string;
  readonly endpoint: string;
  readonly effect: Effect;
  readonly remote: boolean;
  /** 1-based attempt number on this route. */
  readonly attempt: number;
}

export interface ExecutionBudgetOptions {
  /** Logical calls (a call and its retries and fallbacks count once). */
  readonly maxCalls?: number;
  /** Invoker attempts across all calls, retries and fallbacks included. */
  readonly maxAttempts?: number;
  /** Attempts to tools classified remote. */
  readonly maxRemoteAttempts?: number;
  /** Wall-clock time of the whole run, from its start (bounds approval, hooks, invocation, backoff). */
  readonly maxWallClockMs?: number;
  /** Attempts per tool name. */
  readonly toolQuotas?: Readonly<Record<string, number>>;
  /** Cost units across all attempts, as the `cost` function prices them. */
  readonly maxCost?: number;
  /** Trusted local pricing of one attempt: a finite number >= 0. Required with `maxCost`. */
  readonly cost?: (subject: CostSubject) => number;
}

export type BudgetLimit = "calls" | "attempts" | "remoteAttempts" | "wallClock" | "toolQuota" | "cost";

/** Longest wall-clock budget (the largest timer delay Node accepts). */
export const MAX_WALL_CLOCK_MS = 2_147_483_647;

const KEYS = [
  "maxCalls",
  "maxAttempts",
  "maxRemoteAttempts",
  "maxWallClockMs",
  "toolQuotas",
  "maxCost",
  "cost",
];

/** Immutable limits; every run gets its own ledger. */
export class ExecutionBudget {
  readonly maxCalls: number | undefined;
  readonly maxAttempts: number | undefined;
  readonly maxRemoteAttempts: number | undefined;
  readonly maxWallClockMs: number | undefined;
  readonly toolQuotas: Readonly<Record<string, number>>;
  readonly maxCost: number | undefined;
  readonly cost: ((subject: CostSubject) => number) | undefined;

  constructor(options: ExecutionBudgetOptions = {}) {
    const owner = "ExecutionBudget";
    assertOptionKeys(owner, options, KEYS);
    this.maxCalls = integerOption(owner, "maxCalls", options.maxCalls, 0);
    this.maxAttempts = integerOption(owner, "maxAttempts", options.maxAttempts, 0);
    this.maxRemoteAttempts = integerOption(owner, "maxRemoteAttempts", options.maxRemoteAttempts, 0);
    this.maxWallClockMs = integerOption(
      owner,
      "maxWallClockMs",
      options.maxWallClockMs,
      1,
      MAX_WALL_CLOCK_MS,
    );
    this.maxCost = numberOption(owner, "maxCost", options.maxCost, 0, Number.MAX_VALUE);
    if (options.cost !== undefined && typeof options.cost !== "function") {
      throw configInvalid(`${owner}: cost must be a function pricing one attempt.`, { option: "cost" });
    }
    if (this.maxCost !== undefined && options.cost === undefined) {
      throw configInvalid(`${owner}: maxCost needs a cost function that prices each attempt.`, {
        option: "cost",
      });
    }
    this.cost = options.cost;
    const quotas: Record<string, number> = Object.create(null) as Record<string, number>;
    if (options.toolQuotas !== undefined) {
      if (options.toolQuotas === null || typeof options.toolQuotas !== "object") {
        throw configInvalid(`${owner}: toolQuotas must map tool names to attempt counts.`, {
          option: "toolQuotas",
        });
      }
      for (const [tool, quota] of Object.entries(options.toolQuotas)) {
        quotas[tool] = integerOption(owner, `toolQuotas.${tool}`, quota, 0)!;
      }
    }
    this.toolQuotas = Object.freeze(quotas);
    Object.freeze(this);
  }
}

/** A snapshot of one run's consumption. */
export interface BudgetUsage {
  readonly calls: number;
  readonly attempts: number;
  readonly remoteAttempts: number;
  readonly cost: number;
  readonly elapsedMs: number;
  readonly toolAttempts: Readonly<Record<string, number>>;
}

/** One run's consumption of an ExecutionBudget (or of no budget: counts only). */
export class BudgetLedger {
  #calls = 0;
  #attempts = 0;
  #remoteAttempts = 0;
  #cost = 0;
  /**
   * Attempts per tool: the run's first tool in two fields, a Map only once a second tool is attempted
   * (most runs are one call: no Map per run).
   */
  #firstTool: string | undefined;
  #firstToolAttempts = 0;
  #otherTools: Map<string, number> | undefined;
  readonly #startedAt: number;

  constructor(
    readonly budget: ExecutionBudget | undefined,
    private readonly clock: () => number,
  ) {
    this.#startedAt = clock();
  }

  elapsedMs(): number {
    return Math.max(0, this.clock() - this.#startedAt);
  }

  /** Milliseconds left of the wall-clock budget (Infinity without one; 0 when spent). */
  remainingMs(): number {
    const max = this.budget?.maxWallClockMs;
    return max === undefined ? Number.POSITIVE_INFINITY : Math.max(0, max - this.elapsedMs());
  }

  /** Throws BUDGET_EXCEEDED (wallClock) when the wall-clock budget is spent. */
  checkWallClock(route?: string): void {
    const max = this.budget?.maxWallClockMs;
    if (max !== undefined && this.remainingMs() <= 0) {
      throw exceeded("wallClock", max, this.elapsedMs(), route);
    }
  }

  /** Checks and consumes one logical call. */
  startCall(route: string): void {
    this.checkWallClock(route);
    const max = this.budget?.maxCalls;
    if (max !== undefined && this.#calls + 1 > max) throw exceeded("calls", max, this.#calls, route);
    this.#calls++;
  }

  /**
   * Checks every limit for one more attempt, then consumes them together (before the attempt runs).
   * Returns the cost it charged (for `refundAttempt`).
   */
  startAttempt(subject: CostSubject, route: string): number {
    this.checkWallClock(route);
    const budget = this.budget;
    if (budget === undefined) {
      this.#consume(subject, 0);
      return 0;
    }
    if (budget.maxAttempts !== undefined && this.#attempts + 1 > budget.maxAttempts) {
      throw exceeded("attempts", budget.maxAttempts, this.#attempts, route);
    }
    if (subject.remote && budget.maxRemoteAttempts !== undefined) {
      if (this.#remoteAttempts + 1 > budget.maxRemoteAttempts) {
        throw exceeded("remoteAttempts", budget.maxRemoteAttempts, this.#remoteAttempts, route);
      }
    }
    const quota = budget.toolQuotas[subject.tool];
    const used = this.#toolAttemptsOf(subject.tool);
    if (quota !== undefined && used + 1 > quota) {
      throw exceeded("toolQuota", quota, used, route, { tool: subject.tool });
    }
    let cost = 0;
    if (budget.cost !== undefined) {
      cost = priceOf(budget.cost, subject, route);
      // A synchronous trusted callback is checked right after it returns.
      this.checkWallClock(route);
      if (budget.maxCost !== undefined && this.#cost + cost > budget.maxCost) {
        throw exceeded("cost", budget.maxCost, this.#cost, route, { price: cost });
      }
    }
    this.#consume(subject, cost);
    return cost;
  }

  /** Gives back an attempt `startAttempt` consumed that was then refused elsewhere (a shared budget). */
  refundAttempt(subject: CostSubject, cost: number): void {
    this.#attempts--;
    if (subject.remote) this.#remoteAttempts--;
    this.#addToolAttempts(subject.tool, -1);
    this.#cost -= cost;
  }

  usage(): BudgetUsage {
    return Object.freeze({
      calls: this.#calls,
      attempts: this.#attempts,
      remoteAttempts: this.#remoteAttempts,
      cost: this.#cost,
      elapsedMs: this.elapsedMs(),
      toolAttempts: Object.freeze(Object.fromEntries(this.#toolEntries())),
    });
  }

  #consume(subject: CostSubject, cost: number): void {
    this.#attempts++;
    if (subject.remote) this.#remoteAttempts++;
    this.#addToolAttempts(subject.tool, 1);
    this.#cost += cost;
  }

  #toolAttemptsOf(tool: string): number {
    if (tool === this.#firstTool) return this.#firstToolAttempts;
    return this.#otherTools?.get(tool) ?? 0;
  }

  #addToolAttempts(tool: string, count: number): void {
    if (this.#firstTool === undefined) this.#firstTool = tool;
    if (tool === this.#firstTool) {
      this.#firstToolAttempts += count;
      return;
    }
    this.#otherTools ??= new Map();
    this.#otherTools.set(tool, (this.#otherTools.get(tool) ?? 0) + count);
  }

  /** Attempts per tool, the first tool first (the order a Map of all of them would have). */
  #toolEntries(): [string, number][] {
    const entries: [string, number][] =
      this.#firstTool === undefined ? [] : [[this.#firstTool, this.#firstToolAttempts]];
    if (this.#otherTools !== undefined) entries.push(...this.#otherTools);
    return entries;
  }
}

/** Calls a trusted cost function for one attempt; a throw or a bad price refuses the attempt. */
export function priceOf(cost: (subject: CostSubject) => number, subject: CostSubject, route: string): number {
  let price: unknown;
  try {
    price = cost(Object.freeze({ ...subject }));
  } catch (error) {
    throw new CallRefusedError(
      "RUN_CONFIG_INVALID",
      `${route}: the budget's cost function threw, so the attempt is refused.`,
      { route, reason: "cost-function-threw" },
      { cause: error },
    );
  }
  if (typeof price !== "number" || !Number.isFinite(price) || price < 0) {
    throw new CallRefusedError(
      "RUN_CONFIG_INVALID",
      `${route}: the budget's cost function returned ${String(price)}; it must return a finite number >= 0.`,
      { route, reason: "cost-function-result" },
    );
  }
  return price;
}

/** The BUDGET_EXCEEDED refusal for one limit. */
export function exceeded(
  limit: BudgetLimit,
  max: number,
  used: number,
  route?: string,
  extra: Pick<ErrorDetailsOf<"BUDGET_EXCEEDED">, "tool" | "price"> = {},
): CallRefusedError {
  const where = route === undefined ? "The run" : route;
  const what =
    limit === "wallClock"
      ? `its ${max} ms wall-clock budget (${Math.round(used)} ms used)`
      : `${limit} (${used} of ${max} used)`;
  return new CallRefusedError(
    "BUDGET_EXCEEDED",
    `${where}: the execution budget is exhausted: ${what}. Raise the limit in ExecutionBudget or plan fewer calls.`,
    { limit, max, used, ...(route !== undefined ? { route } : {}), ...extra },
  );
}
