/**
 * Decision-trace reports (docs/runtime/trace-reports.md): an aggregate over stored runs — routes
 * chosen, refusals and failures by code, fallbacks taken, budgets hit, per-route latency percentiles.
 * Built only from host-visible structured facts of validated events: never arguments or results
 * (even when a store kept payloads), never error messages (remote text), never run metadata, scores
 * or credentials, and only routes that appear in the runs (no hidden inventory).
 */
import { ERRORS } from "../errors/registry.js";
import { type RunEvent, TraceError, validateRunEvent } from "./events.js";
import { assertFollows, type TraceStore } from "./store.js";

export interface LatencySummary {
  readonly count: number;
  /** Nearest-rank percentiles of `tool.end` durations, in milliseconds. */
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export interface RouteSummary {
  readonly route: string;
  /** Logical calls that started on this route (first attempts). */
  readonly calls: number;
  readonly attempts: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly latency?: LatencySummary;
}

export interface CodeCount {
  readonly code: string;
  readonly count: number;
}

export interface FallbackSummary {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
  readonly count: number;
}

export interface DecisionReport {
  readonly runs: {
    readonly total: number;
    readonly completed: number;
    readonly failed: number;
    readonly open: number;
  };
  /** First and last event timestamps (ISO 8601), absent for an empty store. */
  readonly period?: { readonly first: string; readonly last: string };
  readonly routes: readonly RouteSummary[];
  /** `tool.error` codes, most frequent first. */
  readonly callErrors: readonly CodeCount[];
  /** `run.error` codes, most frequent first. */
  readonly runErrors: readonly CodeCount[];
  readonly fallbacks: readonly FallbackSummary[];
  /** Runs that hit a budget, per budget code (a run counts once per code, at call or run level). */
  readonly budgets: readonly CodeCount[];
}

/**
 * Codes are the runtime's own (docs/reference/error-codes.md); anything else a store holds is shown
 * as `OTHER`, never echoed (a stored value is not trusted to be a code).
 */
const codeOf = (code: string): string => (Object.hasOwn(ERRORS, code) ? code : "OTHER");

export interface ReportOptions {
  /** At most this many runs are read (default 100,000); a larger store is refused, not sampled. */
  readonly maxRuns?: number;
}

export async function buildDecisionReport(
  store: TraceStore,
  options: ReportOptions = {},
): Promise<DecisionReport> {
  const maxRuns = options.maxRuns ?? 100_000;
  const runIds = await store.listRuns();
  if (runIds.length > maxRuns) {
    throw new TraceError(
      "TRACE_REPORT_TOO_LARGE",
      `The trace store holds ${runIds.length} runs, more than a report reads (${maxRuns}); prune old runs (docs/runtime/traces.md) or raise the bound (--max-runs).`,
      { runs: runIds.length, maxRuns },
    );
  }
  const acc = new Accumulator();
  for (const runId of runIds) {
    let previous: RunEvent | undefined;
    for (const stored of await store.readRun(runId)) {
      const event = validateRunEvent(JSON.parse(stored.data));
      assertFollows(previous, event);
      acc.add(event);
      previous = event;
    }
    acc.endRun(previous);
  }
  return acc.report();
}

class Accumulator {
  private total = 0;
  private completed = 0;
  private failedRuns = 0;
  private open = 0;
  private first: string | undefined;
  private last: string | undefined;
  private readonly routes = new Map<
    string,
    { calls: number; attempts: number; ok: number; failed: number; durations: number[] }
  >();
  private readonly callErrors = new Map<string, number>();
  private readonly runErrors = new Map<string, number>();
  private readonly fallbacks = new Map<string, number>();
  private readonly budgetRuns = new Map<string, number>();
  private runCodes = new Set<string>();

  add(event: RunEvent): void {
    if (this.first === undefined || event.timestamp < this.first) this.first = event.timestamp;
    if (this.last === undefined || event.timestamp > this.last) this.last = event.timestamp;
    switch (event.type) {
      case "tool.start": {
        const route = this.route(`${event.tool}.${event.endpoint}`);
        route.attempts++;
        if (event.attempt === 1) route.calls++;
        return;
      }
      case "tool.end": {
        const route = this.route(`${event.tool}.${event.endpoint}`);
        route.ok++;
        route.durations.push(event.durationMs);
        return;
      }
      case "tool.error":
        this.route(`${event.tool}.${event.endpoint}`).failed++;
        bump(this.callErrors, codeOf(event.code));
        this.runCodes.add(codeOf(event.code));
        return;
      case "tool.fallback":
        bump(
          this.fallbacks,
          `${event.fromTool}.${event.fromEndpoint}\u0000${event.toTool}.${event.toEndpoint}\u0000${codeOf(event.reason)}`,
        );
        return;
      case "run.error":
        bump(this.runErrors, codeOf(event.code));
        this.runCodes.add(codeOf(event.code));
        return;
      default:
        return;
    }
  }

  endRun(last: RunEvent | undefined): void {
    for (const code of this.runCodes) if (code.includes("BUDGET")) bump(this.budgetRuns, code);
    this.runCodes = new Set();
    if (last === undefined) return;
    this.total++;
    if (last.type === "run.end") this.completed++;
    else if (last.type === "run.error") this.failedRuns++;
    else this.open++;
  }

  report(): DecisionReport {
    const routes = [...this.routes]
      .map(([route, r]) => ({
        route,
        calls: r.calls,
        attempts: r.attempts,
        succeeded: r.ok,
        failed: r.failed,
        ...(r.durations.length > 0 ? { latency: latencyOf(r.durations) } : {}),
      }))
      .sort((a, b) => b.calls - a.calls || compare(a.route, b.route));
    const callErrors = counts(this.callErrors);
    const runErrors = counts(this.runErrors);
    const fallbacks = [...this.fallbacks]
      .map(([key, count]) => {
        const [from, to, reason] = key.split("\u0000") as [string, string, string];
        return { from, to, reason, count };
      })
      .sort(
        (a, b) =>
          b.count - a.count || compare(a.from, b.from) || compare(a.to, b.to) || compare(a.reason, b.reason),
      );
    return {
      runs: { total: this.total, completed: this.completed, failed: this.failedRuns, open: this.open },
      ...(this.first !== undefined && this.last !== undefined
        ? { period: { first: this.first, last: this.last } }
        : {}),
      routes,
      callErrors,
      runErrors,
      fallbacks,
      budgets: counts(this.budgetRuns),
    };
  }

  private route(name: string) {
    let entry = this.routes.get(name);
    if (entry === undefined) {
      entry = { calls: 0, attempts: 0, ok: 0, failed: 0, durations: [] };
      this.routes.set(name, entry);
    }
    return entry;
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function counts(map: ReadonlyMap<string, number>): CodeCount[] {
  return [...map]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || compare(a.code, b.code));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function latencyOf(durations: readonly number[]): LatencySummary {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1]!,
  };
}
