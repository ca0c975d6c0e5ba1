/**
 * The served project of the `schemarouter serve` end-to-end tests: the example Petstore (OpenAPI,
 * examples/petstore/server.mjs, bearer-protected), @modelcontextprotocol/server-memory over stdio
 * and the OPTIMADE example provider (the fixture server examples/optimade/provider.ts starts, here on
 * an ephemeral port so test files can run in parallel), compiled into a temporary project with a
 * `serve` section. `spawnServe` runs the built CLI (`compiler/dist/cli/bin.js serve`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { type OptimadeServer, startOptimadeServer } from "../fixtures/optimade/server.js";
import { runCli } from "./cli.js";
import { copyInto, REPO_ROOT, type TempProject, tempProject } from "./project.js";

export const BIN = join(REPO_ROOT, "compiler/dist/cli/bin.js");
export const MEMORY_SERVER = join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/server-memory/dist/index.js",
);
/** What the served project sends upstream; the MCP client's token is another one. */
export const UPSTREAM_TOKEN = "upstream-petstore-token";

export interface ServedProject {
  readonly project: TempProject;
  readonly petstore: Awaited<ReturnType<typeof startPetstoreServer>>;
  readonly optimade: OptimadeServer;
  /** Environment of `schemarouter compile` and `serve` (the upstream token, the memory file). */
  readonly env: Record<string, string>;
  /** Writes the config with this `serve` section (and optional extra sources), then compiles. */
  compile(serve: Record<string, unknown>, sources?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startServedProject(name = "serve"): Promise<ServedProject> {
  const project = tempProject(name);
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  const petstore = await startPetstoreServer({ token: UPSTREAM_TOKEN });
  const optimade = await startOptimadeServer();
  const memoryDir = mkdtempSync(join(tmpdir(), "schemarouter-serve-memory-"));
  const env = {
    PATH: process.env.PATH ?? "",
    PETSTORE_TOKEN: UPSTREAM_TOKEN,
    MEMORY_FILE_PATH: join(memoryDir, "memory.jsonl"),
  };
  const baseSources = {
    petstore: {
      kind: "openapi",
      location: "openapi.yaml",
      overlays: {
        endpoints: {
          getPetById: {
            replaceFields: true,
            fields: [
              { id: "id", path: ["id"], identifier: true },
              {
                id: "weight",
                path: ["weightKg"],
                unit: "kg",
                normalization: { canonicalUnit: "g", scale: 1000 },
              },
              { id: "owner_city", path: ["owner", "address", "city"] },
            ],
          },
        },
      },
    },
    memory: {
      kind: "mcp",
      stdio: { command: "node", args: [MEMORY_SERVER], env: ["MEMORY_FILE_PATH"] },
      effects: { read_graph: "read", search_nodes: "read", open_nodes: "read", create_entities: "write" },
    },
    materials: { kind: "optimade", location: optimade.baseUrl },
  };
  return {
    project,
    petstore,
    optimade,
    env,
    async compile(serve, sources = {}) {
      project.write({ sources: { ...baseSources, ...sources }, serve });
      const run = await runCli(project.dir, ["compile"], env);
      if (run.code !== 0) throw new Error(`compile failed: ${run.stderr}${run.stdout}`);
    },
    async close() {
      await petstore.close();
      await optimade.close();
      rmSync(memoryDir, { recursive: true, force: true });
    },
  };
}

/** The `serve` section most tests use: the upstream's base URL and credential from the environment. */
export function petstoreBinding(project: ServedProject): Record<string, unknown> {
  return {
    petstore: {
      baseUrl: project.petstore.url,
      headers: { authorization: { env: "PETSTORE_TOKEN", prefix: "Bearer " } },
    },
  };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The served URL (HTTP), once the server said it listens. */
  readonly url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves when stderr has a line matching `pattern` (or rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<number | null>;
}

/** Starts `schemarouter serve --http <address>` on the project's config and waits for its URL. */
export async function spawnServe(
  served: ServedProject,
  args: readonly string[] = ["--http", "127.0.0.1:0"],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--config", served.project.configPath, ...args], {
    env: { ...served.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
    for (const listener of listeners) listener();
  });
  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match !== null) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match[1] ?? match[0]);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${pattern}; stderr so far:\n${text}`));
      }, timeoutMs);
      child.once("exit", () => {
        if (listeners.has(check)) {
          listeners.delete(check);
          clearTimeout(timer);
          reject(new Error(`serve exited (${child.exitCode}) before ${pattern}; stderr:\n${text}`));
        }
      });
      listeners.add(check);
      check();
    });
  const url = args.includes("--http") ? await waitFor(/tools at (http:\/\/\S+) /) : "";
  return {
    child,
    url,
    stderr: () => text,
    waitFor,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}
