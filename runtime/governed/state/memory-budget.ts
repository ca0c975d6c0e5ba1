/**
 * MemoryBudgetStore: a SharedBudgetStore in one process's memory, for budgets shared by the runs
 * of one process (and as the reference the PostgreSQL store is tested against). JavaScript runs one
 * reservation at a time, so check-then-consume is atomic here without locks.
 */
import { canonicalJson } from "../../format/fingerprint.js";
import {
  type BudgetRequest,
  firstExceeded,
  type ReserveResult,
  type SharedBudgetLimits,
  type SharedBudgetStore,
  type SharedBudgetUsage,
  windowIndex,
} from "./budget-store.js";
import { StateError } from "./errors.js";

interface Entry {
  readonly limits: string;
  calls: number;
  attempts: number;
  remoteAttempts: number;
  cost: number;
  readonly toolAttempts: Map<string, number>;
  inFlight: number;
  window: number;
  windowAttempts: number;
}

export class MemoryBudgetStore implements SharedBudgetStore {
  readonly #budgets = new Map<string, Entry>();

  constructor(private readonly clock: () => number = Date.now) {}

  async reserve(key: string, limits: SharedBudgetLimits, request: BudgetRequest): Promise<ReserveResult> {
    const text = canonicalJson(limits);
    let entry = this.#budgets.get(key);
    if (entry === undefined) {
      entry = {
        limits: text,
        calls: 0,
        attempts: 0,
        remoteAttempts: 0,
        cost: 0,
        toolAttempts: new Map(),
        inFlight: 0,
        window: 0,
        windowAttempts: 0,
      };
      this.#budgets.set(key, entry);
    }
    if (entry.limits !== text) throw conflict(key, entry.limits, text);
    const window = windowIndex(limits, this.clock());
    if (entry.window !== window) {
      entry.window = window;
      entry.windowAttempts = 0;
    }
    const refusal = firstExceeded(limits, snapshot(entry), request);
    if (refusal !== undefined) return { reserved: false, refusal };
    apply(entry, request, 1);
    entry.inFlight++;
    entry.windowAttempts++;
    return { reserved: true };
  }

  async settle(key: string, _request: BudgetRequest): Promise<void> {
    const entry = this.#budgets.get(key);
    if (entry !== undefined) entry.inFlight = Math.max(0, entry.inFlight - 1);
  }

  async release(key: string, request: BudgetRequest): Promise<void> {
    const entry = this.#budgets.get(key);
    if (entry === undefined) return;
    apply(entry, request, -1);
    entry.inFlight = Math.max(0, entry.inFlight - 1);
  }

  async usage(key: string): Promise<SharedBudgetUsage | undefined> {
    const entry = this.#budgets.get(key);
    return entry === undefined ? undefined : snapshot(entry);
  }
}

function apply(entry: Entry, request: BudgetRequest, sign: 1 | -1): void {
  entry.calls += sign * request.calls;
  entry.attempts += sign;
  if (request.remote) entry.remoteAttempts += sign;
  entry.cost += sign * request.cost;
  entry.toolAttempts.set(request.tool, (entry.toolAttempts.get(request.tool) ?? 0) + sign);
}

function snapshot(entry: Entry): SharedBudgetUsage {
  return Object.freeze({
    calls: entry.calls,
    attempts: entry.attempts,
    remoteAttempts: entry.remoteAttempts,
    cost: entry.cost,
    toolAttempts: Object.freeze(Object.fromEntries(entry.toolAttempts)),
    inFlight: entry.inFlight,
    windowAttempts: entry.windowAttempts,
  });
}

/** The STATE_BUDGET_CONFLICT refusal: `key` is stored with `stored` limits, the caller has `wanted`. */
export function conflict(key: string, stored: string, wanted: string): StateError {
  return new StateError(
    "STATE_BUDGET_CONFLICT",
    `The shared budget "${key}" is already in use with the limits ${stored}, not ${wanted}. ` +
      "Every process sharing a budget must give it the same limits; to change them, use a new key.",
    { budget: key, stored: JSON.parse(stored), wanted: JSON.parse(wanted) },
  );
}
