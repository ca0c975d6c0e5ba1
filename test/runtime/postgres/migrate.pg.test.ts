/**
 * Explicit, versioned migrations of the PostgreSQL state (docs/state/postgres.md, "Migrations"):
 * connecting never alters a database; an unmigrated, older, newer, altered or foreign schema is
 * refused with a typed error that says what to run; migrating is idempotent and safe to race.
 */
import pg from "pg";
import { expect, it } from "vitest";
import {
  connectPostgres,
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
  postgresSchemaStatus,
} from "../../../runtime/postgres/index.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres, freshSchema, postgresUrl } from "../../helpers/postgres.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

const schemaExists = async (schema: string) =>
  (await sql("SELECT to_regnamespace($1) IS NOT NULL AS found", [schema])).rows[0].found as boolean;

describePostgres("migrations", () => {
  it("refuses an unmigrated database with STATE_MIGRATION_REQUIRED and changes nothing", async () => {
    const schema = freshSchema();
    const error = await failure(connectPostgres({ url: postgresUrl(), schema }));
    expect(error).toMatchObject({
      code: "STATE_MIGRATION_REQUIRED",
      details: { schema, version: 0, required: POSTGRES_SCHEMA_VERSION },
    });
    expect(error.message).toContain(`schemarouter db migrate --url <url> --schema ${schema}`);
    expect(error.message).not.toContain(new URL(postgresUrl()).password);
    expect(await schemaExists(schema)).toBe(false);
  });

  it("applies every migration once, in order; a second run applies nothing", async () => {
    const schema = freshSchema();
    const first = await migratePostgres({ url: postgresUrl(), schema });
    const database = `postgres://postgres@${new URL(postgresUrl()).host}/postgres`;
    expect(first).toEqual({
      database,
      schema,
      from: 0,
      to: POSTGRES_SCHEMA_VERSION,
      applied: [
        { version: 1, name: "trace events" },
        { version: 2, name: "budgets and availability" },
      ],
    });
    expect(await migratePostgres({ url: postgresUrl(), schema })).toEqual({
      database,
      schema,
      from: POSTGRES_SCHEMA_VERSION,
      to: POSTGRES_SCHEMA_VERSION,
      applied: [],
    });
    const state = await connectPostgres({ url: postgresUrl(), schema });
    cleanups.push(() => state.close());
    expect(state.schema).toBe(schema);
    expect(await postgresSchemaStatus({ url: postgresUrl(), schema })).toEqual({
      database,
      schema,
      version: POSTGRES_SCHEMA_VERSION,
      latest: POSTGRES_SCHEMA_VERSION,
      pending: [],
    });
  });

  it("refuses an older schema and says which version to migrate to", async () => {
    const schema = freshSchema();
    await migratePostgres({ url: postgresUrl(), schema, to: 1 });
    expect(await postgresSchemaStatus({ url: postgresUrl(), schema })).toMatchObject({
      version: 1,
      pending: [{ version: 2, name: "budgets and availability" }],
    });
    const error = await failure(connectPostgres({ url: postgresUrl(), schema }));
    expect(error).toMatchObject({ code: "STATE_MIGRATION_REQUIRED", details: { version: 1 } });
    const state = await connectPostgres({ url: postgresUrl(), schema, migrate: true });
    cleanups.push(() => state.close());
    expect(state.migration).toMatchObject({ from: 1, to: 2, applied: [{ version: 2 }] });
  });

  it("refuses a schema written by a newer schemarouter, or with an altered migration", async () => {
    const newer = freshSchema();
    await migratePostgres({ url: postgresUrl(), schema: newer });
    await sql(
      `INSERT INTO "${newer}".schema_migrations (version, name, checksum) VALUES (99, 'future', 'x')`,
    );
    for (const attempt of [
      () => connectPostgres({ url: postgresUrl(), schema: newer }),
      () => migratePostgres({ url: postgresUrl(), schema: newer }),
    ]) {
      const error = await failure(attempt());
      expect(error.code).toBe("STATE_SCHEMA_UNSUPPORTED");
      expect(error.message).toContain("newer schemarouter");
    }
    const altered = freshSchema();
    await migratePostgres({ url: postgresUrl(), schema: altered });
    await sql(`UPDATE "${altered}".schema_migrations SET checksum = 'sha256:0' WHERE version = 1`);
    const error = await failure(connectPostgres({ url: postgresUrl(), schema: altered }));
    expect(error.code).toBe("STATE_SCHEMA_UNSUPPORTED");
    expect(error.message).toContain('migration 1 ("trace events") was applied from a different text');
  });

  it("never migrates into a schema that holds someone else's tables", async () => {
    const schema = freshSchema();
    await sql(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".orders (id int)`);
    const error = await failure(migratePostgres({ url: postgresUrl(), schema }));
    expect(error).toMatchObject({ code: "STATE_SCHEMA_UNSUPPORTED" });
    expect(
      (await sql(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1`, [schema])).rows[0].n,
    ).toBe(1);
  });

  it("lets concurrent migrators race: exactly one applies, the others find nothing to do", async () => {
    const schema = freshSchema();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => migratePostgres({ url: postgresUrl(), schema })),
    );
    expect(results.map((result) => result.applied.length).sort()).toEqual([0, 0, 0, 2]);
  });
});
