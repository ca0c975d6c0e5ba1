/**
 * PostgresAvailabilityStore: cooldowns and health-probe verdicts every process sees (docs/state/
 * postgres.md, "Availability"). The database is the truth: before every attempt the path's row is
 * read (one indexed SELECT), so a cooldown another process started skips the route here, and a
 * probe that passed anywhere reopens it everywhere. Times come from the database clock. `status`
 * is this process's last view, answered without a query.
 */
import {
  type AvailabilityOptions,
  type AvailabilityStatus,
  type CooldownBounds,
  cooldownBounds,
  cooldownRefusal,
} from "../governed/availability.js";
import type { AvailabilityStore, ProbeVerdict } from "../governed/state/availability-store.js";
import type { Database } from "./database.js";

interface CooldownRow {
  readonly until_ms: number;
  readonly reason: string;
  readonly failures: number;
  readonly cooling: boolean;
}

interface Seen {
  readonly until: number;
  readonly reason: string;
  readonly failures: number;
}

export interface ProbeRecord extends ProbeVerdict {
  /** When the probe ran (ISO, database clock). */
  readonly checkedAt: string;
}

const COLUMNS = `(extract(epoch FROM until) * 1000)::float8 AS until_ms, reason, failures,
  until > clock_timestamp() AS cooling`;

export class PostgresAvailabilityStore implements AvailabilityStore {
  readonly cooldownMs: number;
  readonly maxCooldownMs: number;
  readonly #seen = new Map<string, Seen>();

  constructor(
    private readonly db: Database,
    options: AvailabilityOptions = {},
  ) {
    const bounds: CooldownBounds = cooldownBounds(options);
    this.cooldownMs = bounds.cooldownMs;
    this.maxCooldownMs = bounds.maxCooldownMs;
  }

  status(tool: string): AvailabilityStatus {
    const seen = this.#seen.get(tool);
    if (seen === undefined) return Object.freeze({ tool, available: true, failures: 0 });
    if (seen.until <= Date.now()) return Object.freeze({ tool, available: true, failures: seen.failures });
    return cooling(tool, seen);
  }

  /** The path's state as stored now (a query; `status` is the last one this process saw). */
  async read(tool: string): Promise<AvailabilityStatus> {
    const [row] = await this.db.query<CooldownRow>(
      `SELECT ${COLUMNS} FROM ${this.db.ident}.cooldowns WHERE tool = $1`,
      [tool],
      `reading the availability of "${tool}"`,
    );
    if (row === undefined) {
      this.#seen.delete(tool);
      return Object.freeze({ tool, available: true, failures: 0 });
    }
    const seen = this.#remember(tool, row);
    return row.cooling
      ? cooling(tool, seen)
      : Object.freeze({ tool, available: true, failures: seen.failures });
  }

  async assertAvailable(tool: string, route: string): Promise<void> {
    const status = await this.read(tool);
    if (!status.available) throw cooldownRefusal(status, route);
  }

  async markUnavailable(tool: string, reason: string, retryAfterMs?: number): Promise<void> {
    if (this.cooldownMs === 0) return;
    // failures + 1, and min(max, max(base · 2^min(failures, 30), Retry-After)) ms from now, as one upsert.
    const [row] = await this.db.query<CooldownRow>(
      `INSERT INTO ${this.db.ident}.cooldowns AS c (tool, until, reason, failures)
       VALUES ($1, clock_timestamp() + least($3::float8, greatest($2::float8, $4::float8)) * interval '1 millisecond', $5, 1)
       ON CONFLICT (tool) DO UPDATE SET
         failures = c.failures + 1,
         until = clock_timestamp()
           + least($3::float8, greatest($2::float8 * power(2, least(c.failures, 30)), $4::float8)) * interval '1 millisecond',
         reason = excluded.reason,
         updated_at = clock_timestamp()
       RETURNING ${COLUMNS}`,
      [tool, this.cooldownMs, this.maxCooldownMs, retryAfterMs ?? 0, reason],
      `recording a cooldown of "${tool}"`,
    );
    if (row !== undefined) this.#remember(tool, row);
  }

  async markAvailable(tool: string): Promise<void> {
    await this.db.query(
      `DELETE FROM ${this.db.ident}.cooldowns WHERE tool = $1`,
      [tool],
      `reopening "${tool}"`,
    );
    this.#seen.delete(tool);
  }

  async clear(tool: string): Promise<void> {
    this.#seen.delete(tool);
    await this.db.query(
      `WITH probe AS (DELETE FROM ${this.db.ident}.probe_results WHERE tool = $1)
       DELETE FROM ${this.db.ident}.cooldowns WHERE tool = $1`,
      [tool],
      `forgetting "${tool}"`,
    );
  }

  async recordProbe(verdict: ProbeVerdict): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.db.ident}.probe_results (tool, healthy, reason) VALUES ($1, $2, $3)
       ON CONFLICT (tool) DO UPDATE SET healthy = excluded.healthy, reason = excluded.reason,
         checked_at = clock_timestamp()`,
      [verdict.tool, verdict.healthy, verdict.reason ?? null],
      `recording the health probe of "${verdict.tool}"`,
    );
  }

  /** The last health-probe verdict any process recorded for `tool`. */
  async lastProbe(tool: string): Promise<ProbeRecord | undefined> {
    const [row] = await this.db.query<{ healthy: boolean; reason: string | null; checked_at: Date }>(
      `SELECT healthy, reason, checked_at FROM ${this.db.ident}.probe_results WHERE tool = $1`,
      [tool],
      `reading the health probe of "${tool}"`,
    );
    if (row === undefined) return undefined;
    return Object.freeze({
      tool,
      healthy: row.healthy,
      ...(row.reason !== null ? { reason: row.reason } : {}),
      checkedAt: row.checked_at.toISOString(),
    });
  }

  #remember(tool: string, row: CooldownRow): Seen {
    const seen = { until: row.until_ms, reason: row.reason, failures: row.failures };
    this.#seen.set(tool, seen);
    return seen;
  }
}

function cooling(tool: string, seen: Seen): AvailabilityStatus {
  return Object.freeze({
    tool,
    available: false,
    until: new Date(seen.until).toISOString(),
    reason: seen.reason,
    failures: seen.failures,
  });
}
