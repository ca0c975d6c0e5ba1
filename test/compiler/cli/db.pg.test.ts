/**
 * `schemarouter db migrate` / `db status` against a real PostgreSQL (docs/state/postgres.md,
 * "Migrations"): the URL from --url or DATABASE_URL, never printed with its password; status exits
 * 1 while migrations are pending; a missing URL or a bad one is a typed error with exit code 2.
 */
import { expect, it } from "vitest";
import { connectPostgres } from "../../../runtime/postgres/index.js";
import { runCli } from "../../helpers/cli.js";
import { describePostgres, freshSchema, postgresUrl } from "../../helpers/postgres.js";
import { REPO_ROOT } from "../../helpers/project.js";

describePostgres("schemarouter db", () => {
  it("status reports pending migrations (exit 1); migrate applies them; both say so again after", async () => {
    const schema = freshSchema();
    const password = new URL(postgresUrl()).password;
    const before = await runCli(REPO_ROOT, ["db", "status", "--schema", schema], {
      DATABASE_URL: postgresUrl(),
    });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`Schema "${schema}"`);
    expect(before.stdout).toContain("version 0; this schemarouter needs 2");
    expect(before.stdout).toContain("1  trace events");

    const migrated = await runCli(REPO_ROOT, ["db", "migrate", "--url", postgresUrl(), "--schema", schema]);
    expect(migrated).toMatchObject({ code: 0, stderr: "" });
    expect(migrated.stdout).toContain(`Migrated schema "${schema}" on postgres://postgres@127.0.0.1:`);
    expect(migrated.stdout).toContain(
      "from version 0 to 2:\n  1  trace events\n  2  budgets and availability\n",
    );
    const again = await runCli(REPO_ROOT, ["db", "migrate", "--json", "--schema", schema], {
      DATABASE_URL: postgresUrl(),
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ schema, from: 2, to: 2, applied: [] });
    const after = await runCli(REPO_ROOT, ["db", "status", "--url", postgresUrl(), "--schema", schema]);
    expect(after).toMatchObject({ code: 0 });
    expect(after.stdout).toContain("Up to date.");
    for (const run of [before, migrated, again, after])
      expect(run.stdout + run.stderr).not.toContain(password);

    const state = await connectPostgres({ url: postgresUrl(), schema });
    await state.close();
  });

  it("refuses without a URL, with a bad URL, and with an unreachable database (exit 2, typed)", async () => {
    const none = await runCli(REPO_ROOT, ["db", "migrate"], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("error [DATABASE_URL_MISSING]");
    const bad = await runCli(REPO_ROOT, ["db", "migrate", "--url", "mysql://x@y/z"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("error [STATE_CONFIG_INVALID]");
    const unreachable = await runCli(REPO_ROOT, [
      "db",
      "status",
      "--url",
      "postgres://u:hunter2@127.0.0.1:1/db",
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("error [STATE_UNAVAILABLE]");
    expect(unreachable.stderr).not.toContain("hunter2");
  });
});
