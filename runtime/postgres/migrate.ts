/**
 * Explicit schema migrations of the PostgreSQL state (docs/state/postgres.md, "Migrations"):
 * `migratePostgres` (what `schemarouter db migrate` and `connectPostgres({ migrate: true })` run)
 * applies pending migrations under an advisory lock, and `inspectSchema` tells a store whether it
 * may use the database. Nothing else ever changes the schema.
 */
import { createHash } from "node:crypto";
import type { PoolClient } from "pg";
import { StateError } from "../governed/state/errors.js";
import { type Database, openDatabase, type PostgresConnectionOptions } from "./database.js";
import { MIGRATIONS, MIGRATIONS_TABLE, type Migration, POSTGRES_SCHEMA_VERSION } from "./migrations.js";

export interface MigrationResult {
  /** The database, without password or query string. */
  readonly database: string;
  readonly schema: string;
  /** The schema version before (0: no schemarouter schema). */
  readonly from: number;
  readonly to: number;
  readonly applied: readonly { readonly version: number; readonly name: string }[];
}

export interface SchemaStatus {
  /** The database, without password or query string. */
  readonly database: string;
  readonly schema: string;
  /** The applied version (0: none). */
  readonly version: number;
  /** The version this schemarouter needs. */
  readonly latest: number;
  /** Migrations `schemarouter db migrate` would apply. */
  readonly pending: readonly { readonly version: number; readonly name: string }[];
}

interface Applied {
  readonly version: number;
  readonly checksum: string;
}

type Query = <R>(text: string, values: readonly unknown[]) => Promise<R[]>;

/** Applies every pending migration (up to `to`, default the latest) in one transaction. */
export async function migratePostgres(
  options: PostgresConnectionOptions & { readonly to?: number },
): Promise<MigrationResult> {
  const { to, ...connection } = options;
  const db = await openDatabase(connection);
  try {
    return await applyMigrations(db, to ?? POSTGRES_SCHEMA_VERSION);
  } finally {
    await db.close();
  }
}

/** The schema's version and what a migration would apply. Changes nothing. */
export async function postgresSchemaStatus(options: PostgresConnectionOptions): Promise<SchemaStatus> {
  const db = await openDatabase(options);
  try {
    const applied = await readApplied(db, (text, values) =>
      db.query(text, values, "reading the schema version"),
    );
    const version = applied.at(-1)?.version ?? 0;
    return Object.freeze({
      database: db.label,
      schema: db.schema,
      version,
      latest: POSTGRES_SCHEMA_VERSION,
      pending: MIGRATIONS.filter((m) => m.version > version).map(({ version: v, name }) => ({
        version: v,
        name,
      })),
    });
  } finally {
    await db.close();
  }
}

export async function applyMigrations(db: Database, target: number): Promise<MigrationResult> {
  if (!Number.isSafeInteger(target) || target < 1 || target > POSTGRES_SCHEMA_VERSION) {
    throw new StateError(
      "STATE_CONFIG_INVALID",
      `PostgreSQL state: migrate to a version from 1 to ${POSTGRES_SCHEMA_VERSION} (got ${String(target)}).`,
      { option: "to" },
    );
  }
  return db.transaction("migrating the schema", async (client) => {
    const query: Query = async (text, values) => (await client.query(text, values as unknown[])).rows;
    // One migrator at a time per schema; the others wait, then find nothing left to do.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
      `schemarouter:${db.schema}`,
    ]);
    const applied = await readApplied(db, query);
    const from = applied.at(-1)?.version ?? 0;
    await run(client, db, MIGRATIONS_TABLE);
    const pending = MIGRATIONS.filter((m) => m.version > from && m.version <= target);
    for (const migration of pending) {
      await run(client, db, migration.sql);
      await client.query(
        `INSERT INTO ${db.ident}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`,
        [migration.version, migration.name, checksumOf(migration)],
      );
    }
    return Object.freeze({
      database: db.label,
      schema: db.schema,
      from,
      to: Math.max(from, target),
      applied: pending.map(({ version, name }) => ({ version, name })),
    });
  });
}

/** Refuses a database this schemarouter must not use as it is (unmigrated, older, newer, altered). */
export async function assertCurrentSchema(db: Database): Promise<void> {
  const applied = await readApplied(db, (text, values) =>
    db.query(text, values, "checking the schema version"),
  );
  const version = applied.at(-1)?.version ?? 0;
  if (version < POSTGRES_SCHEMA_VERSION) {
    throw new StateError(
      "STATE_MIGRATION_REQUIRED",
      `The shared state database ${db.label} ${version === 0 ? `has no schemarouter schema "${db.schema}"` : `is at schema version ${version} of "${db.schema}"`}; ` +
        `this schemarouter needs version ${POSTGRES_SCHEMA_VERSION}. Run \`schemarouter db migrate --url <url>${db.schema === "schemarouter" ? "" : ` --schema ${db.schema}`}\` ` +
        "(or connect with migrate: true). Nothing was changed.",
      { database: db.label, schema: db.schema, version, required: POSTGRES_SCHEMA_VERSION },
    );
  }
}

/** The applied migrations, verified: known versions, unchanged text, no foreign tables. */
async function readApplied(db: Database, query: Query): Promise<readonly Applied[]> {
  const [found] = await query<{ has_schema: boolean; has_table: boolean; relations: string }>(
    `SELECT to_regnamespace($1) IS NOT NULL AS has_schema,
            to_regclass($2) IS NOT NULL AS has_table,
            (SELECT count(*) FROM pg_class WHERE relnamespace = to_regnamespace($1)) AS relations`,
    [db.schema, `${db.ident}.schema_migrations`],
  );
  if (found === undefined || !found.has_schema) return [];
  if (!found.has_table) {
    if (Number(found.relations) === 0) return [];
    throw unsupported(
      db,
      `schema "${db.schema}" holds tables that are not schemarouter's; choose another --schema`,
    );
  }
  const rows = await query<Applied>(
    `SELECT version, checksum FROM ${db.ident}.schema_migrations ORDER BY version`,
    [],
  );
  rows.forEach((row, index) => {
    const known = MIGRATIONS[index];
    if (row.version > POSTGRES_SCHEMA_VERSION) {
      throw unsupported(
        db,
        `its schema version ${row.version} was written by a newer schemarouter (this one knows ${POSTGRES_SCHEMA_VERSION}); upgrade schemarouter`,
      );
    }
    if (known === undefined || known.version !== row.version) {
      throw unsupported(db, `its migration history is not contiguous at version ${row.version}`);
    }
    if (row.checksum !== checksumOf(known)) {
      throw unsupported(db, `migration ${row.version} ("${known.name}") was applied from a different text`);
    }
  });
  return rows;
}

async function run(client: PoolClient, db: Database, sql: string): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${db.ident}`);
  await client.query(sql.replaceAll("{schema}", db.ident));
}

function checksumOf(migration: Migration): string {
  return `sha256:${createHash("sha256").update(migration.sql).digest("hex")}`;
}

function unsupported(db: Database, why: string): StateError {
  return new StateError(
    "STATE_SCHEMA_UNSUPPORTED",
    `Refusing to use ${db.label} (schema "${db.schema}"): ${why}. Nothing was changed.`,
    { database: db.label, schema: db.schema, supported: POSTGRES_SCHEMA_VERSION },
  );
}
