/**
 * `schemarouter serve [--stdio | --http [host:port]]` (docs/serve.md): loads and fully verifies the
 * lock, serves its exposed capabilities over stdio (one session; the default) or Streamable HTTP,
 * reloads when the lock changes (unless `--no-watch` or `serve.watch: false`), and runs until the
 * input ends (stdio), a signal arrives, or the caller's abort signal fires. stdout carries only the
 * protocol in stdio mode: operational lines go to stderr.
 */
import { createMcpServer } from "schemarouter/serve";
import { loadConfig } from "../config/config.js";
import type { CliIo } from "./program.js";
import { httpOptionsOf, serveSetup } from "./serve-setup.js";

export interface ServeFlags {
  readonly stdio?: boolean;
  /** `true` for `--http` without an address (the config's host and port). */
  readonly http?: string | boolean;
  readonly watch?: boolean;
}

export async function runServe(configPath: string, io: CliIo, flags: ServeFlags): Promise<number> {
  const config = await loadConfig(configPath);
  const mode = flags.http !== undefined && flags.http !== false ? "http" : "stdio";
  const setup = await serveSetup(config, io.env);
  const log = (line: string) => io.stderr(`${line}\n`);
  let stopped: () => void = () => undefined;
  const stop = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const onSignal = () => stopped();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  io.signal?.addEventListener("abort", onSignal, { once: true });
  // A local tool that logs with console.log must not corrupt the protocol on stdout.
  const consoleLog = console.log;
  if (mode === "stdio") console.log = console.error;
  try {
    const router = await setup.load();
    const server = await createMcpServer(router, {
      ...setup.server,
      reload: setup.load,
      ownsRouter: true,
      watch: flags.watch !== false && config.file.serve?.watch !== false,
      log,
    });
    const tools = server.listTools().length;
    try {
      if (mode === "stdio") {
        const handle = await server.serveStdio();
        log(`schemarouter serve: ${tools} tools over stdio (lock ${config.lockfile}).`);
        await Promise.race([handle.closed, stop]);
      } else {
        const address = typeof flags.http === "string" ? flags.http : undefined;
        const handle = await server.listen(httpOptionsOf(config, io.env, address));
        log(`schemarouter serve: ${tools} tools at ${handle.url} (lock ${config.lockfile}).`);
        await stop;
      }
    } finally {
      await server.close();
    }
    return 0;
  } finally {
    console.log = consoleLog;
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    io.signal?.removeEventListener("abort", onSignal);
    await setup.close();
  }
}
