/**
 * `schemarouter db migrate` and `schemarouter db status`: the only commands that change or inspect
 * the schema of the PostgreSQL runtime state (docs/state/postgres.md, "Migrations"). The URL comes
 * from --url or DATABASE_URL; it is never printed with its password.
 */
import {
  type MigrationResult,
  migratePostgres,
  postgresSchemaStatus,
  type SchemaStatus,
} from "schemarouter/internal";
import { ConfigError } from "../errors/errors.js";

export interface DbOptions {
  readonly url?: string;
  readonly schema?: string;
  readonly json?: boolean;
}

export interface DbOutput {
  readonly text: string;
  /** 0, or 1 when `status` finds migrations pending. */
  readonly exitCode: number;
}

export async function dbMigrate(
  options: DbOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DbOutput> {
  const result = await migratePostgres(connection(options, env));
  return { text: options.json ? json(result) : describeMigration(result), exitCode: 0 };
}

export async function dbStatus(
  options: DbOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DbOutput> {
  const status = await postgresSchemaStatus(connection(options, env));
  return {
    text: options.json ? json(status) : describeStatus(status),
    exitCode: status.pending.length > 0 ? 1 : 0,
  };
}

function connection(options: DbOptions, env: Readonly<Record<string, string | undefined>>) {
  const url = options.url ?? env.DATABASE_URL;
  if (url === undefined || url === "") {
    throw new ConfigError(
      "DATABASE_URL_MISSING",
      "Give the database as --url postgres://user:password@host:5432/db, or set DATABASE_URL.",
    );
  }
  return { url, ...(options.schema !== undefined ? { schema: options.schema } : {}) };
}

function describeMigration(result: MigrationResult): string {
  if (result.applied.length === 0) {
    return `Schema "${result.schema}" on ${result.database} is up to date (version ${result.to}).\n`;
  }
  const applied = result.applied.map((m) => `  ${m.version}  ${m.name}\n`).join("");
  return `Migrated schema "${result.schema}" on ${result.database} from version ${result.from} to ${result.to}:\n${applied}`;
}

function describeStatus(status: SchemaStatus): string {
  const head = `Schema "${status.schema}" on ${status.database}: version ${status.version}; this schemarouter needs ${status.latest}.\n`;
  if (status.pending.length === 0) return `${head}Up to date.\n`;
  const pending = status.pending.map((m) => `  ${m.version}  ${m.name}\n`).join("");
  return `${head}Pending (run \`schemarouter db migrate\`):\n${pending}`;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
