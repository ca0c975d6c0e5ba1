/**
 * PostgresTraceStore: the shared, append-only RunEvent store (docs/state/postgres.md, "Traces"). The
 * same envelope, ordering rules (assertFollows), privacy default (redacted unless includePayloads)
 * and stored text as the SQLite store, so `replayRun` gives identical results. One statement per
 * append: a conditional INSERT that only succeeds when the event follows the run's stored last one;
 * when it does not, the stored last event is read and assertFollows names the rule it breaks. A
 * trigger refuses UPDATE, DELETE and TRUNCATE except the explicit retention of `prune`.
 */
import { canonicalJson } from "../format/fingerprint.js";
import { StateError } from "../governed/state/errors.js";
import { type RunEvent, TraceError, validateRunEvent } from "../traces/events.js";
import { redactEvent } from "../traces/redact.js";
import { assertFollows, type EventPosition, type StoredEvent, type TraceStore } from "../traces/store.js";
import type { Database } from "./database.js";

export interface PostgresTraceStoreOptions {
  /**
   * Store tool arguments and results unredacted. Off by default. When on, the database holds real
   * argument and result values: protect, encrypt and expire it like the payloads themselves.
   */
  readonly includePayloads?: boolean;
}

export interface TraceRetention {
  /** Delete runs whose newest event was recorded longer ago than this. */
  readonly olderThanMs?: number;
  /** Keep only the newest this many complete runs (ended with run.end / run.error); incomplete runs are left to `olderThanMs`. */
  readonly keepCompleteRuns?: number;
}

const MAX_RACES = 5;

export class PostgresTraceStore implements TraceStore {
  readonly includePayloads: boolean;
  #open = true;

  constructor(
    private readonly db: Database,
    options: PostgresTraceStoreOptions = {},
  ) {
    if (options.includePayloads !== undefined && typeof options.includePayloads !== "boolean") {
      throw new StateError(
        "STATE_CONFIG_INVALID",
        "PostgreSQL trace store: includePayloads must be true or false.",
        {
          option: "includePayloads",
        },
      );
    }
    this.includePayloads = options.includePayloads === true;
  }

  /** Validates the event and the run's ordering, then stores it (redacted unless includePayloads). */
  async append(event: RunEvent): Promise<void> {
    this.#assertOpen();
    const valid = validateRunEvent(event);
    const data = canonicalJson(redactEvent(valid, { includePayloads: this.includePayloads }));
    const s = this.db.ident;
    for (let race = 0; race < MAX_RACES; race++) {
      const inserted = await this.db.query(
        `INSERT INTO ${s}.trace_events (run_id, sequence, type, "timestamp", event)
         SELECT $1::text, $2::integer, $3::text, $4::text, $5::text
         WHERE ($2::integer = 0 AND $3::text = 'run.start')
            OR ($3::text <> 'run.start' AND EXISTS (
                 SELECT 1 FROM ${s}.trace_events p
                 WHERE p.run_id = $1::text AND p.sequence = $2::integer - 1
                   AND p.type NOT IN ('run.end', 'run.error') AND p."timestamp" <= $4::text))
         ON CONFLICT (run_id, sequence) DO NOTHING
         RETURNING 1 AS stored`,
        [valid.runId, valid.sequence, valid.type, valid.timestamp, data],
        `appending event ${valid.sequence} of run ${valid.runId}`,
      );
      if (inserted.length === 1) return;
      // Refused: the stored last event says which rule the event breaks (or a concurrent append
      // has just made it valid, and the insert is tried again).
      assertFollows(await this.#last(valid.runId), valid);
    }
    throw new TraceError(
      "TRACE_ORDER_INVALID",
      `Run ${valid.runId} is being appended to concurrently; event ${valid.sequence} could not be ordered.`,
      { runId: valid.runId, sequence: valid.sequence, type: valid.type },
    );
  }

  async readRun(runId: string): Promise<readonly StoredEvent[]> {
    this.#assertOpen();
    const rows = await this.db.query<{ run_id: string; sequence: number; event: string }>(
      `SELECT run_id, sequence, event FROM ${this.db.ident}.trace_events WHERE run_id = $1 ORDER BY sequence`,
      [runId],
      `reading run ${runId}`,
    );
    return rows.map((row) => ({ runId: row.run_id, sequence: row.sequence, data: row.event }));
  }

  /** Run ids in the order their first event was stored. */
  async listRuns(): Promise<readonly string[]> {
    this.#assertOpen();
    const rows = await this.db.query<{ run_id: string }>(
      `SELECT run_id FROM ${this.db.ident}.trace_events WHERE sequence = 0 ORDER BY id`,
      [],
      "listing runs",
    );
    return rows.map((row) => row.run_id);
  }

  /**
   * Retention: deletes whole runs (never single events) by age and/or count, in one transaction.
   * Returns how many runs and events were deleted.
   */
  async prune(retention: TraceRetention): Promise<{ readonly runs: number; readonly events: number }> {
    this.#assertOpen();
    const olderThanMs = retention.olderThanMs;
    const keep = retention.keepCompleteRuns;
    const valid = (value: number | undefined) =>
      value === undefined || (Number.isSafeInteger(value) && value >= 0);
    if (!valid(olderThanMs) || !valid(keep) || (olderThanMs === undefined && keep === undefined)) {
      throw new StateError(
        "STATE_CONFIG_INVALID",
        "PostgreSQL trace store: prune needs olderThanMs and/or keepCompleteRuns, each an integer >= 0.",
        { option: "retention" },
      );
    }
    const s = this.db.ident;
    return this.db.transaction("pruning traces", async (client) => {
      await client.query("SET LOCAL schemarouter.trace_retention = 'on'");
      const result = await client.query<{ runs: string; events: string }>(
        `WITH runs AS (
           SELECT run_id, min(id) AS first, max(recorded_at) AS newest,
                  bool_or(type IN ('run.end', 'run.error')) AS complete
           FROM ${s}.trace_events GROUP BY run_id),
         doomed AS (
           SELECT run_id FROM runs
           WHERE ($1::bigint IS NOT NULL AND newest < clock_timestamp() - $1::bigint * interval '1 millisecond')
           UNION
           SELECT run_id FROM (SELECT run_id, row_number() OVER (ORDER BY first DESC) AS rank
                               FROM runs WHERE complete) ranked
           WHERE $2::bigint IS NOT NULL AND rank > $2::bigint),
         deleted AS (
           DELETE FROM ${s}.trace_events WHERE run_id IN (SELECT run_id FROM doomed) RETURNING run_id)
         SELECT count(DISTINCT run_id) AS runs, count(*) AS events FROM deleted`,
        [olderThanMs ?? null, keep ?? null],
      );
      const row = result.rows[0];
      return Object.freeze({ runs: Number(row?.runs ?? 0), events: Number(row?.events ?? 0) });
    });
  }

  /** Closes this store (the shared connection pool stays with its PostgresState). Idempotent. */
  async close(): Promise<void> {
    this.#open = false;
  }

  async #last(runId: string): Promise<EventPosition | undefined> {
    const [row] = await this.db.query<{ run_id: string; sequence: number; type: string; timestamp: string }>(
      `SELECT run_id, sequence, type, "timestamp" FROM ${this.db.ident}.trace_events
       WHERE run_id = $1 ORDER BY sequence DESC LIMIT 1`,
      [runId],
      `reading the last event of run ${runId}`,
    );
    return row === undefined
      ? undefined
      : { runId: row.run_id, sequence: row.sequence, type: row.type, timestamp: row.timestamp };
  }

  #assertOpen(): void {
    if (!this.#open) {
      throw new TraceError("TRACE_STORE_CLOSED", "The PostgreSQL trace store is closed; open it again.", {
        store: "postgres",
      });
    }
  }
}
