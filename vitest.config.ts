import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const runtime = (path: string): string => fileURLToPath(new URL(`./runtime/${path}`, import.meta.url));

/** Tests that need the PostgreSQL server the `postgres` project starts (docs/state/postgres.md). */
const POSTGRES_TESTS = "test/**/*.pg.test.ts";

export default defineConfig({
  // Tests run the runtime from source, like tsconfig.json's `paths`: one copy of every class, so
  // `instanceof` holds between the compiler's view (`schemarouter/internal`) and the tests' imports.
  resolve: {
    alias: [
      { find: /^schemarouter$/, replacement: runtime("index.ts") },
      { find: /^schemarouter\/internal$/, replacement: runtime("internal.ts") },
      {
        find: /^schemarouter\/(agents|bindings|format|postgres|serve|traces|transports)$/,
        replacement: runtime("$1/index.ts"),
      },
    ],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, POSTGRES_TESTS],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
      {
        // One embedded PostgreSQL server for every test file of this project, started only when
        // one of them runs (test/helpers/postgres-setup.ts).
        extends: true,
        test: {
          name: "postgres",
          include: [POSTGRES_TESTS],
          globalSetup: ["test/helpers/postgres-setup.ts"],
        },
      },
    ],
  },
});
