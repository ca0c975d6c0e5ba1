/**
 * What a *.pg.test.ts file uses: the shared server's URL (or a skip with the reason the server
 * could not start), a fresh schema per test so tests never see each other's rows, and cleanup.
 */
import { randomBytes } from "node:crypto";
import { describe, inject } from "vitest";
import { connectPostgres, type PostgresState } from "../../runtime/postgres/index.js";
import type { Cleanups } from "./cleanup.js";

const provided = inject("postgres");

/** The shared server's URL (only inside describePostgres). */
export function postgresUrl(): string {
  if ("skipped" in provided) throw new Error(`no PostgreSQL server: ${provided.skipped}`);
  return provided.url;
}

/**
 * `describe`, skipped with the reason when the embedded server could not start (a machine where
 * PostgreSQL cannot run). CI sets SCHEMAROUTER_REQUIRE_POSTGRES=1, which makes that a failure in the
 * globalSetup instead (test/helpers/postgres-setup.ts), so the skip never hides a CI run.
 */
export function describePostgres(name: string, body: () => void): void {
  if ("skipped" in provided) {
    describe.skip(`${name} (SKIPPED: PostgreSQL could not start: ${provided.skipped.split("\n")[0]})`, body);
  } else {
    describe(name, body);
  }
}

/** A schema name no other test uses. */
export function freshSchema(prefix = "t"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** Connects to a fresh, migrated schema; closed after the test. */
export async function freshState(
  cleanups: Cleanups,
  options: { readonly schema?: string; readonly url?: string; readonly queryTimeoutMs?: number } = {},
): Promise<PostgresState> {
  const state = await connectPostgres({
    url: options.url ?? postgresUrl(),
    schema: options.schema ?? freshSchema(),
    migrate: true,
    ...(options.queryTimeoutMs !== undefined ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
  });
  cleanups.push(() => state.close());
  return state;
}
