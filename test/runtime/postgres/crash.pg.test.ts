/**
 * PostgreSQL killed mid-run (docs/state/postgres.md, "Failure semantics"): while it is down every
 * budgeted call is refused with STATE_UNAVAILABLE within the connect/query bounds and nothing is
 * executed; nothing is ever spent twice or over the budget; every run that completed before, during
 * or after the outage replays with all its events; after a restart work continues until the budget
 * is spent. This test kills its own server, not the shared one.
 */
import { expect, it } from "vitest";
import { SharedBudget } from "../../../runtime/governed/state/shared-budget.js";
import { connectPostgres, migratePostgres } from "../../../runtime/postgres/index.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres } from "../../helpers/postgres.js";
import { startPostgres } from "../../helpers/postgres-server.js";

const cleanups = cleanupAfterEach();
const BUDGET = 600;
const CONCURRENCY = 8;
const BOUND_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  readonly runId: string;
  readonly code: string;
  readonly ms: number;
  readonly phase: "before" | "down" | "after";
}

describePostgres("PostgreSQL killed mid-run", () => {
  it("refuses with STATE_UNAVAILABLE, never hangs or over-spends, loses no completed run, and resumes", async () => {
    const pg = await startPostgres();
    cleanups.push(() => pg.stop());
    await migratePostgres({ url: pg.url });
    const state = await connectPostgres({
      url: pg.url,
      connectTimeoutMs: BOUND_MS,
      queryTimeoutMs: BOUND_MS,
    });
    cleanups.push(() => state.close());
    const { server, router } = await startFaultRouter(cleanups);
    server.program("/weather/seoul", [], OK_READING);
    const call = pin(router, "weather", "current", { city: "seoul" });
    const traceStore = state.traceStore();
    const sharedBudget = new SharedBudget({ key: "crash", store: state.budgets, maxCalls: BUDGET });

    let phase: Outcome["phase"] = "before";
    let stop = false;
    let next = 0;
    const outcomes: Outcome[] = [];
    const loop = async () => {
      while (!stop) {
        const runId = `run-${next++}`;
        const started = performance.now();
        const at = phase;
        let code = "OK";
        try {
          await router.call(call, { runId, sharedBudget, traceStore });
        } catch (error) {
          code = (error as { code?: string }).code ?? String(error);
        }
        outcomes.push({ runId, code, ms: performance.now() - started, phase: at === phase ? at : "down" });
        if (code === "BUDGET_EXCEEDED") stop = true;
        else if (code !== "OK") await sleep(10);
      }
    };
    const loops = Promise.all(Array.from({ length: CONCURRENCY }, loop));
    const count = (code: string, where?: Outcome["phase"]) =>
      outcomes.filter((o) => o.code === code && (where === undefined || o.phase === where)).length;

    while (count("OK") < 100) await sleep(10);
    await pg.kill();
    phase = "down";
    // Calls in flight when it died finish or fail; from then on nothing may be executed.
    await sleep(300);
    const hitsWhileDown = server.hits("/weather/seoul");
    const refusedBefore = count("STATE_UNAVAILABLE");
    await sleep(1_500);
    expect(server.hits("/weather/seoul")).toBe(hitsWhileDown);
    expect(count("STATE_UNAVAILABLE")).toBeGreaterThan(refusedBefore);
    await pg.restart();
    phase = "after";
    await loops;

    const down = outcomes.filter((o) => o.phase === "down");
    expect(new Set(down.map((o) => o.code))).toEqual(
      new Set(["STATE_UNAVAILABLE", ...(down.some((o) => o.code === "OK") ? ["OK"] : [])]),
    );
    // No hang: every call settled within the bounds (connect + query, with slack for a loaded machine).
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(2 * BOUND_MS + 2_000);
    expect(count("OK", "after")).toBeGreaterThan(0);

    // Nothing over-spent, nothing spent twice: executed ≤ metered ≤ budget; the outage lost at most
    // the reservations in flight when the server died.
    const executed = server.hits("/weather/seoul");
    const usage = await sharedBudget.usage();
    // A call whose request went out just before the kill, but whose tool.end could not be stored,
    // executed and was reported STATE_UNAVAILABLE (its run is incomplete in the trace).
    expect(executed - count("OK")).toBeGreaterThanOrEqual(0);
    expect(executed - count("OK")).toBeLessThanOrEqual(CONCURRENCY);
    expect(usage.calls).toBe(BUDGET);
    expect(executed).toBeLessThanOrEqual(BUDGET);
    expect(executed).toBeGreaterThanOrEqual(BUDGET - 2 * CONCURRENCY);

    // Every run that completed (its promise resolved, or it was refused with the database up) replays.
    for (const outcome of outcomes.filter((o) => o.code === "OK" || o.code === "BUDGET_EXCEEDED")) {
      const replay = await replayRun(traceStore, outcome.runId);
      expect(replay.complete).toBe(true);
      expect(replay.events.at(-1)?.type).toBe(outcome.code === "OK" ? "run.end" : "run.error");
    }
    console.info(
      `[crash] executed ${executed} of ${BUDGET} (${count("OK")} reported OK); refused while down ${count("STATE_UNAVAILABLE")}; ` +
        `slowest call ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms`,
    );
  }, 90_000);
});
