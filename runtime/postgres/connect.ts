/**
 * connectPostgres: one pool to a PostgreSQL database whose schema is already at this schemarouter's
 * version (or is migrated first, with `migrate: true`), and the stores built on it: traces, shared
 * budgets and shared availability (docs/state/postgres.md). Connecting never alters the database
 * unless asked to.
 */
import type { AvailabilityOptions } from "../governed/availability.js";
import { StateError } from "../governed/state/errors.js";
import { PostgresAvailabilityStore } from "./availability.js";
import { PostgresBudgetStore } from "./budgets.js";
import { type Database, openDatabase, type PostgresConnectionOptions } from "./database.js";
import { applyMigrations, assertCurrentSchema, type MigrationResult } from "./migrate.js";
import { POSTGRES_SCHEMA_VERSION } from "./migrations.js";
import { PostgresTraceStore, type PostgresTraceStoreOptions } from "./traces.js";

export interface PostgresStateOptions extends PostgresConnectionOptions {
  /**
   * Apply pending schema migrations while connecting (default false: a database that is not at
   * this schemarouter's schema version is refused with STATE_MIGRATION_REQUIRED). Migrating from
   * application start-up is convenient for development; production usually runs
   * `schemarouter db migrate` as a deploy step instead.
   */
  readonly migrate?: boolean;
}

export class PostgresState {
  /** Usage of every SharedBudget whose store this is, shared by all processes on the database. */
  readonly budgets: PostgresBudgetStore;

  private constructor(
    private readonly db: Database,
    /** What `migrate: true` applied while connecting (undefined without it). */
    readonly migration: MigrationResult | undefined,
  ) {
    this.budgets = new PostgresBudgetStore(db);
  }

  static async connect(options: PostgresStateOptions): Promise<PostgresState> {
    const db = await openDatabase(options);
    try {
      if (options.migrate !== undefined && typeof options.migrate !== "boolean") {
        throw new StateError("STATE_CONFIG_INVALID", "PostgreSQL state: migrate must be true or false.", {
          option: "migrate",
        });
      }
      const migration =
        options.migrate === true ? await applyMigrations(db, POSTGRES_SCHEMA_VERSION) : undefined;
      await assertCurrentSchema(db);
      return new PostgresState(db, migration);
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** The database, without password or query string. */
  get database(): string {
    return this.db.label;
  }

  get schema(): string {
    return this.db.schema;
  }

  /** A trace store on this database (redacted payloads unless `includePayloads`). */
  traceStore(options: PostgresTraceStoreOptions = {}): PostgresTraceStore {
    return new PostgresTraceStore(this.db, options);
  }

  /** A shared availability store, for `SchemaRouter.load({ state: { availability } })`. */
  availability(options: AvailabilityOptions = {}): PostgresAvailabilityStore {
    return new PostgresAvailabilityStore(this.db, options);
  }

  /** Ends the pool; every store built on it then refuses with STATE_UNAVAILABLE (reason closed). */
  async close(): Promise<void> {
    if (!this.db.closed) await this.budgets.flush().catch(() => undefined);
    await this.db.close();
  }
}

/** Connects to the PostgreSQL state; see PostgresState. */
export function connectPostgres(options: PostgresStateOptions): Promise<PostgresState> {
  return PostgresState.connect(options);
}
