/**
 * A fleet sharing one budget (docs/state/postgres.md, "Guarantees"): 4 worker processes × 2,500
 * calls at concurrency 8 against one shared budget of 5,000 calls. The HTTP server's own counter
 * shows exactly 5,000 executed, the other 5,000 are refused BUDGET_EXCEEDED, and every event of
 * every completed run replays from the PostgreSQL trace store.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, inject, it } from "vitest";
import { SharedBudget } from "../../../runtime/governed/state/shared-budget.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres, freshSchema, freshState, postgresUrl } from "../../helpers/postgres.js";
import { REPO_ROOT } from "../../helpers/project.js";

const cleanups = cleanupAfterEach();
const WORKERS = Number(process.env.FLEET_WORKERS ?? 4);
const CALLS = Number(process.env.FLEET_CALLS ?? 2_500);
const CONCURRENCY = 8;
const BUDGET = Number(process.env.FLEET_BUDGET ?? 5_000);

interface Summary {
  readonly worker: string;
  readonly outcomes: Record<string, number>;
  readonly ms: number;
  readonly cpuMs: number;
}

function runWorker(options: Record<string, unknown>): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`${REPO_ROOT}/test/fixtures/postgres-worker.mjs`, JSON.stringify(options)],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as Summary);
      else reject(new Error(`worker ${String(options.worker)} exited ${code}: ${stderr}`));
    });
  });
}

async function inBatches<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describePostgres("a fleet sharing one budget", () => {
  it("4 processes × 2,500 calls at concurrency 8, budget 5,000: exactly 5,000 executed, every run replays", async () => {
    let executed = 0;
    const server = createServer((request, response) => {
      executed++;
      request.resume();
      response.writeHead(200, { "content-type": "application/json", "content-length": "11" });
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const schema = freshSchema("fleet");
    const state = await freshState(cleanups, { schema });
    const started = performance.now();
    const summaries = await Promise.all(
      Array.from({ length: WORKERS }, (_, index) =>
        runWorker({
          runtimeDir: inject("runtimeDir"),
          url: postgresUrl(),
          schema,
          serverUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          worker: `w${index}`,
          calls: CALLS,
          concurrency: CONCURRENCY,
          key: "fleet",
          maxCalls: BUDGET,
        }),
      ),
    );
    const fleetMs = Math.round(performance.now() - started);
    server.closeAllConnections();
    const total = (code: string) =>
      summaries.reduce((sum, summary) => sum + (summary.outcomes[code] ?? 0), 0);
    console.info(
      `[fleet] ${WORKERS}×${CALLS} calls in ${fleetMs} ms; per worker ${summaries.map((s) => `${s.worker} ${JSON.stringify(s.outcomes)} ${s.ms} ms (cpu ${s.cpuMs} ms)`).join("; ")}`,
    );

    expect(executed).toBe(BUDGET);
    expect(total("OK")).toBe(BUDGET);
    expect(total("BUDGET_EXCEEDED")).toBe(WORKERS * CALLS - BUDGET);
    const budget = new SharedBudget({ key: "fleet", store: state.budgets, maxCalls: BUDGET });
    expect(await budget.usage()).toMatchObject({ calls: BUDGET, attempts: BUDGET, inFlight: 0 });

    // Every run completed (succeeded or was refused) and every one of its events replays.
    const store = state.traceStore();
    const runs = await store.listRuns();
    expect(runs).toHaveLength(WORKERS * CALLS);
    const shapes = new Map<string, number>();
    await inBatches(runs, 16, async (runId) => {
      const replay = await replayRun(store, runId);
      expect(replay.complete).toBe(true);
      const shape = replay.events
        .map((event) => (event.type === "run.error" ? `run.error:${event.code}` : event.type))
        .join(",");
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    });
    expect(Object.fromEntries(shapes)).toEqual({
      "run.start,plan.end,tool.start,tool.end,run.end": BUDGET,
      "run.start,plan.end,tool.error,run.error:BUDGET_EXCEEDED": WORKERS * CALLS - BUDGET,
    });
  }, 120_000);
});
