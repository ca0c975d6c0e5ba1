import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const runtime = (path: string): string => fileURLToPath(new URL(`./runtime/${path}`, import.meta.url));

export default defineConfig({
  // Tests run the runtime from source, like tsconfig.json's `paths`: one copy of every class, so
  // `instanceof` holds between the compiler's view (`schemarouter/internal`) and the tests' imports.
  resolve: {
    alias: [
      { find: /^schemarouter$/, replacement: runtime("index.ts") },
      { find: /^schemarouter\/internal$/, replacement: runtime("internal.ts") },
      {
        find: /^schemarouter\/(agents|bindings|format|serve|traces|transports)$/,
        replacement: runtime("$1/index.ts"),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
