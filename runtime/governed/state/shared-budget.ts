/**
 * SharedBudget: an ExecutionBudget's limits (calls, attempts, remote attempts, per-tool quotas, cost)
 * plus a rate quota, kept in a SharedBudgetStore under a key, so every run and every process that
 * names the key spends one budget. It is reserved before each attempt (after the run's own
 * ExecutionBudget), settled once the attempt was sent and released when it never was; a store that
 * cannot answer refuses the attempt (docs/state/postgres.md).
 */
import { CallRefusedError } from "../../errors/errors.js";
import { deepFreeze } from "../../model/freeze.js";
import { type CostSubject, priceOf } from "../budget.js";
import { assertOptionKeys, configInvalid, integerOption, numberOption } from "../refusals.js";
import type {
  BudgetRequest,
  RateQuota,
  SharedBudgetLimits,
  SharedBudgetStore,
  SharedBudgetUsage,
} from "./budget-store.js";
import { StateError } from "./errors.js";

export interface SharedBudgetOptions {
  /** Names the budget in the store: every run and process using this key shares its usage. */
  readonly key: string;
  /** Where the usage lives (MemoryBudgetStore in one process, PostgreSQL for a fleet). */
  readonly store: SharedBudgetStore;
  readonly maxCalls?: number;
  readonly maxAttempts?: number;
  readonly maxRemoteAttempts?: number;
  readonly toolQuotas?: Readonly<Record<string, number>>;
  readonly maxCost?: number;
  /** Trusted local pricing of one attempt: a finite number >= 0. Required with `maxCost`. */
  readonly cost?: (subject: CostSubject) => number;
  /** At most `maxAttempts` attempts per `windowMs` window, across every process. */
  readonly rate?: RateQuota;
}

/** One reserved attempt: settle it once sent, release it when it was not. */
export interface BudgetReservation {
  readonly budget: SharedBudget;
  readonly request: BudgetRequest;
}

const KEYS = [
  "key",
  "store",
  "maxCalls",
  "maxAttempts",
  "maxRemoteAttempts",
  "toolQuotas",
  "maxCost",
  "cost",
  "rate",
];
const MAX_KEY = 200;
const MAX_WINDOW_MS = 86_400_000;

export class SharedBudget {
  readonly key: string;
  readonly store: SharedBudgetStore;
  readonly limits: SharedBudgetLimits;
  readonly cost: ((subject: CostSubject) => number) | undefined;

  constructor(options: SharedBudgetOptions) {
    const owner = "SharedBudget";
    assertOptionKeys(owner, options, KEYS);
    if (typeof options.key !== "string" || options.key.length === 0 || options.key.length > MAX_KEY) {
      throw configInvalid(`${owner}: key must be a non-empty string of at most ${MAX_KEY} characters.`, {
        option: "key",
      });
    }
    const store = options.store as Partial<SharedBudgetStore> | null | undefined;
    if (store === null || typeof store !== "object" || typeof store.reserve !== "function") {
      throw configInvalid(
        `${owner}: store must implement SharedBudgetStore (MemoryBudgetStore, or the PostgreSQL state's budgets).`,
        { option: "store" },
      );
    }
    if (options.cost !== undefined && typeof options.cost !== "function") {
      throw configInvalid(`${owner}: cost must be a function pricing one attempt.`, { option: "cost" });
    }
    const maxCost = numberOption(owner, "maxCost", options.maxCost, 0, Number.MAX_VALUE);
    if (maxCost !== undefined && options.cost === undefined) {
      throw configInvalid(`${owner}: maxCost needs a cost function that prices each attempt.`, {
        option: "cost",
      });
    }
    const quotas: Record<string, number> = {};
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
    const limits: Record<string, unknown> = { toolQuotas: quotas };
    const put = (name: string, value: unknown) => {
      if (value !== undefined) limits[name] = value;
    };
    put("maxCalls", integerOption(owner, "maxCalls", options.maxCalls, 0));
    put("maxAttempts", integerOption(owner, "maxAttempts", options.maxAttempts, 0));
    put("maxRemoteAttempts", integerOption(owner, "maxRemoteAttempts", options.maxRemoteAttempts, 0));
    put("maxCost", maxCost);
    put("rate", rateOption(owner, options.rate));
    this.key = options.key;
    this.store = options.store;
    this.limits = deepFreeze(limits) as unknown as SharedBudgetLimits;
    this.cost = options.cost;
    Object.freeze(this);
  }

  /**
   * Reserves one attempt (with its logical call when `firstOfCall`). Throws BUDGET_EXCEEDED naming
   * the limit, or STATE_UNAVAILABLE / STATE_BUDGET_CONFLICT when the store cannot meter it.
   */
  async reserve(subject: CostSubject, firstOfCall: boolean, route: string): Promise<BudgetReservation> {
    const request: BudgetRequest = Object.freeze({
      calls: firstOfCall ? 1 : 0,
      remote: subject.remote,
      tool: subject.tool,
      cost: this.cost === undefined ? 0 : priceOf(this.cost, subject, route),
    });
    let result: Awaited<ReturnType<SharedBudgetStore["reserve"]>>;
    try {
      result = await this.store.reserve(this.key, this.limits, request);
    } catch (error) {
      throw storeFailure(this.key, route, error);
    }
    if (!result.reserved) {
      const { limit, max, used, tool } = result.refusal;
      throw new CallRefusedError(
        "BUDGET_EXCEEDED",
        `${route}: the shared budget "${this.key}" is exhausted: ${limit}${tool !== undefined ? ` of ${tool}` : ""} ` +
          `(${used} of ${max} used by every process sharing it). Raise the limit under a new key${limit === "rate" ? ", or wait for the next rate window" : ""}.`,
        { limit, max, used, route, budget: this.key, ...(tool !== undefined ? { tool } : {}) },
      );
    }
    return Object.freeze({ budget: this, request });
  }

  /** The usage of every process sharing the key (zero when nothing was reserved yet). */
  async usage(): Promise<SharedBudgetUsage> {
    return (
      (await this.store.usage(this.key)) ??
      Object.freeze({
        calls: 0,
        attempts: 0,
        remoteAttempts: 0,
        cost: 0,
        toolAttempts: Object.freeze({}),
        inFlight: 0,
        windowAttempts: 0,
      })
    );
  }
}

/** Settles a sent attempt; a store failure leaves it counted (never spent twice, never given back). */
export async function settleQuietly(reservation: BudgetReservation): Promise<void> {
  await reservation.budget.store.settle(reservation.budget.key, reservation.request).catch(() => undefined);
}

/** Gives back an attempt that was never sent; a store failure leaves it counted (safe side). */
export async function releaseQuietly(reservation: BudgetReservation): Promise<void> {
  await reservation.budget.store.release(reservation.budget.key, reservation.request).catch(() => undefined);
}

function rateOption(owner: string, rate: unknown): RateQuota | undefined {
  if (rate === undefined) return undefined;
  if (rate === null || typeof rate !== "object") {
    throw configInvalid(`${owner}: rate must be { maxAttempts, windowMs }.`, { option: "rate" });
  }
  assertOptionKeys(`${owner}.rate`, rate, ["maxAttempts", "windowMs"]);
  const { maxAttempts, windowMs } = rate as Record<string, unknown>;
  if (maxAttempts === undefined || windowMs === undefined) {
    throw configInvalid(`${owner}: rate needs both maxAttempts and windowMs.`, { option: "rate" });
  }
  return {
    maxAttempts: integerOption(owner, "rate.maxAttempts", maxAttempts, 0)!,
    windowMs: integerOption(owner, "rate.windowMs", windowMs, 1, MAX_WINDOW_MS)!,
  };
}

function storeFailure(key: string, route: string, error: unknown): StateError {
  const cause = error instanceof StateError ? error : undefined;
  const code = cause?.code ?? "STATE_UNAVAILABLE";
  const why = error instanceof Error ? error.message : String(error);
  return new StateError(
    code,
    `${route}: the shared budget "${key}" could not be reserved, so the attempt is refused and nothing was sent. ${why}`,
    { ...(cause?.details ?? {}), route, budget: key },
    { cause: error },
  );
}
