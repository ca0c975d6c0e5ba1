/**
 * PostgresBudgetStore: shared budgets as one row per key (docs/state/postgres.md, "Budgets"). A
 * reservation is one conditional UPDATE … WHERE used + n <= limit for every limit at once, so
 * concurrent processes can never over-spend: the row lock serializes them and PostgreSQL re-checks
 * the condition on the newest row. Limits are stored with the key and must match the caller's.
 */
import { canonicalJson } from "../format/fingerprint.js";
import {
  type BudgetRequest,
  firstExceeded,
  type ReserveResult,
  type SharedBudgetLimits,
  type SharedBudgetStore,
  type SharedBudgetUsage,
} from "../governed/state/budget-store.js";
import { StateError } from "../governed/state/errors.js";
import { conflict } from "../governed/state/memory-budget.js";
import type { Database } from "./database.js";

interface BudgetRow {
  readonly limits: unknown;
  readonly calls: string;
  readonly attempts: string;
  readonly remote_attempts: string;
  readonly cost: string;
  readonly tool_attempts: Record<string, number>;
  readonly in_flight: string;
  readonly window_attempts: string;
}

const ROW_COLUMNS = `b.limits, b.calls, b.attempts, b.remote_attempts, b.cost, b.tool_attempts, b.in_flight,
  CASE WHEN b.window_index = w.idx THEN b.window_attempts ELSE 0 END AS window_attempts`;

/** Longest delay of a batched settle. */
const SETTLE_MS = 100;

/** A contended reservation is tried again this often before it is refused with the limit it hit. */
const MAX_TRIES = 4;

export class PostgresBudgetStore implements SharedBudgetStore {
  readonly #unsettled = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database) {}

  async reserve(key: string, limits: SharedBudgetLimits, request: BudgetRequest): Promise<ReserveResult> {
    const text = canonicalJson(limits);
    const windowMs = limits.rate?.windowMs ?? null;
    const s = this.db.ident;
    for (let attempt = 1; ; attempt++) {
      // One statement: the conditional UPDATE, and the row as it was, to tell why when it refused.
      const [result] = await this.db.query<BudgetRow & { reserved: boolean; present: boolean }>(
        `WITH w AS (${windowSql("$7")}),
         upd AS (
           UPDATE ${s}.budgets AS b SET
             calls = b.calls + $3::integer,
             attempts = b.attempts + 1,
             remote_attempts = b.remote_attempts + $4::integer,
             cost = b.cost + $6::numeric,
             tool_attempts = jsonb_set(b.tool_attempts, ARRAY[$5::text],
               to_jsonb(COALESCE((b.tool_attempts ->> $5::text)::bigint, 0) + 1)),
             in_flight = b.in_flight + 1,
             window_attempts = CASE WHEN b.window_index = w.idx THEN b.window_attempts + 1 ELSE 1 END,
             window_index = w.idx,
             updated_at = clock_timestamp()
           FROM w
           WHERE b.key = $1 AND b.limits = $2::jsonb
             AND (b.limits ->> 'maxCalls' IS NULL OR b.calls + $3::integer <= (b.limits ->> 'maxCalls')::bigint)
             AND (b.limits ->> 'maxAttempts' IS NULL OR b.attempts + 1 <= (b.limits ->> 'maxAttempts')::bigint)
             AND ($4::integer = 0 OR b.limits ->> 'maxRemoteAttempts' IS NULL
                  OR b.remote_attempts + 1 <= (b.limits ->> 'maxRemoteAttempts')::bigint)
             AND (b.limits -> 'toolQuotas' ->> $5::text IS NULL
                  OR COALESCE((b.tool_attempts ->> $5::text)::bigint, 0) + 1 <= (b.limits -> 'toolQuotas' ->> $5::text)::bigint)
             AND (b.limits ->> 'maxCost' IS NULL OR b.cost + $6::numeric <= (b.limits ->> 'maxCost')::numeric)
             AND (b.limits -> 'rate' IS NULL OR (CASE WHEN b.window_index = w.idx THEN b.window_attempts ELSE 0 END) + 1
                  <= (b.limits -> 'rate' ->> 'maxAttempts')::bigint)
           RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM upd) AS reserved, b.key IS NOT NULL AS present, ${ROW_COLUMNS}
         FROM w LEFT JOIN ${s}.budgets AS b ON b.key = $1`,
        [key, text, request.calls, request.remote ? 1 : 0, request.tool, String(request.cost), windowMs],
        `reserving budget "${key}"`,
      );
      if (result?.reserved === true) return { reserved: true };
      if (result === undefined || !result.present) {
        await this.db.query(
          `INSERT INTO ${s}.budgets (key, limits) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING`,
          [key, text],
          `creating budget "${key}"`,
        );
        continue;
      }
      if (canonicalJson(result.limits) !== text) throw conflict(key, canonicalJson(result.limits), text);
      // The row as the statement began; when a concurrent change decided, read it again.
      const refusal =
        firstExceeded(limits, usageOf(result), request) ??
        firstExceeded(limits, usageOf((await this.#row(key, windowMs)) ?? result), request);
      if (refusal !== undefined) return { reserved: false, refusal };
      // Usage moved meanwhile (a release, a new rate window): try again.
      if (attempt >= MAX_TRIES) {
        throw new StateError(
          "STATE_UNAVAILABLE",
          `The shared budget "${key}" could not be reserved in ${MAX_TRIES} tries while its usage kept changing; the attempt is refused.`,
          { reason: "contended", budget: key, database: this.db.label },
        );
      }
    }
  }

  /**
   * Marks a reserved attempt as sent. The attempt is already consumed, so only the in-flight gauge
   * changes; those decrements are batched per key (at most SETTLE_MS late, or on `flush`), which
   * saves a statement per call. A lost batch only leaves the gauge high: nothing is ever given back.
   */
  async settle(key: string, _request: BudgetRequest): Promise<void> {
    this.#unsettled.set(key, (this.#unsettled.get(key) ?? 0) + 1);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush().catch(() => undefined), SETTLE_MS);
      this.#timer.unref?.();
    }
  }

  /** Writes the batched settles now. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#unsettled];
    this.#unsettled.clear();
    for (const [key, count] of batch) {
      await this.db.query(
        `UPDATE ${this.db.ident}.budgets SET in_flight = greatest(in_flight - $2::integer, 0), updated_at = clock_timestamp()
         WHERE key = $1`,
        [key, count],
        `settling budget "${key}"`,
      );
    }
  }

  async release(key: string, request: BudgetRequest): Promise<void> {
    await this.db.query(
      `UPDATE ${this.db.ident}.budgets SET
         calls = greatest(calls - $2::integer, 0),
         attempts = greatest(attempts - 1, 0),
         remote_attempts = greatest(remote_attempts - $3::integer, 0),
         cost = cost - $5::numeric,
         tool_attempts = jsonb_set(tool_attempts, ARRAY[$4::text],
           to_jsonb(greatest(COALESCE((tool_attempts ->> $4::text)::bigint, 1) - 1, 0))),
         in_flight = greatest(in_flight - 1, 0),
         updated_at = clock_timestamp()
       WHERE key = $1`,
      [key, request.calls, request.remote ? 1 : 0, request.tool, String(request.cost)],
      `releasing budget "${key}"`,
    );
  }

  /** The usage every process sees (after this process's batched settles are written). */
  async usage(key: string): Promise<SharedBudgetUsage | undefined> {
    await this.flush();
    const [row] = await this.db.query<{ limits: { rate?: { windowMs?: number } } }>(
      `SELECT limits FROM ${this.db.ident}.budgets WHERE key = $1`,
      [key],
      `reading budget "${key}"`,
    );
    if (row === undefined) return undefined;
    const found = await this.#row(key, row.limits.rate?.windowMs ?? null);
    return found === undefined ? undefined : usageOf(found);
  }

  async #row(key: string, windowMs: number | null): Promise<BudgetRow | undefined> {
    const [row] = await this.db.query<BudgetRow>(
      `SELECT ${ROW_COLUMNS} FROM ${this.db.ident}.budgets AS b, (${windowSql("$2")}) AS w WHERE b.key = $1`,
      [key, windowMs],
      `reading budget "${key}"`,
    );
    return row;
  }
}

/** The current rate window by the database's clock (one clock for every process). */
function windowSql(param: string): string {
  return `SELECT CASE WHEN ${param}::bigint IS NULL THEN 0::bigint
            ELSE floor(extract(epoch FROM clock_timestamp()) * 1000 / ${param}::bigint)::bigint END AS idx`;
}

function usageOf(row: BudgetRow): SharedBudgetUsage {
  return Object.freeze({
    calls: Number(row.calls),
    attempts: Number(row.attempts),
    remoteAttempts: Number(row.remote_attempts),
    cost: Number(row.cost),
    toolAttempts: Object.freeze({ ...row.tool_attempts }),
    inFlight: Number(row.in_flight),
    windowAttempts: Number(row.window_attempts),
  });
}
