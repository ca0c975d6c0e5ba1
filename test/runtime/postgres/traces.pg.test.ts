/**
 * The PostgreSQL trace store (docs/state/postgres.md, "Traces") against the SQLite one: the same
 * events give byte-identical stored text and identical replays; every ordering refusal has the same
 * code and message; payloads are redacted by default; the table is append-only in the database
 * itself; retention deletes whole runs only; a router run traced to PostgreSQL replays complete.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import type { PostgresTraceStore } from "../../../runtime/postgres/index.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import type { TraceStore } from "../../../runtime/traces/store.js";
import { OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres, freshState, postgresUrl } from "../../helpers/postgres.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();
const BASE = Date.UTC(2025, 0, 1);
const FP = `sha256:${"a".repeat(64)}`;
const at = (sequence: number) => new Date(BASE + sequence * 1000).toISOString();

type Body = Record<string, unknown> & { readonly type: RunEvent["type"] };
const events = (runId: string, bodies: readonly Body[], from = 0): RunEvent[] =>
  bodies.map((body, i) => ({ runId, sequence: from + i, timestamp: at(from + i), ...body }) as RunEvent);

const START: Body = { type: "run.start", tags: ["nightly"], metadata: { team: "data" } };
const PLAN: Body = { type: "plan.end", calls: 1 };
const CALL = { callIndex: 0, tool: "github", endpoint: "repos/get" };
const TOOL_START: Body = {
  type: "tool.start",
  ...CALL,
  endpointFingerprint: FP,
  toolFingerprint: FP,
  arguments: { owner: "SECRET-ARG" },
  attempt: 1,
};
const TOOL_END: Body = {
  type: "tool.end",
  ...CALL,
  attempts: 1,
  durationMs: 3.5,
  fields: ["x"],
  result: { x: "SECRET" },
};
const TOOL_ERROR: Body = {
  type: "tool.error",
  ...CALL,
  code: "HTTP_STATUS",
  message: "SECRET-MSG",
  attempts: 1,
};
const END: Body = { type: "run.end", calls: 1, durationMs: 9 };
const FAILED: Body = { type: "run.error", code: "BUDGET_EXCEEDED", message: "SECRET-RUN" };
const FULL = [START, PLAN, TOOL_START, TOOL_END, TOOL_START, TOOL_ERROR, END];

let dir = "";
afterEach(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
  dir = "";
});

/** A SQLite store and a PostgreSQL store (fresh schema) with the same options. */
async function stores(
  includePayloads = false,
): Promise<{ sqlite: SqliteTraceStore; postgres: PostgresTraceStore }> {
  dir = mkdtempSync(join(tmpdir(), "schemarouter-pg-traces-"));
  const sqlite = await SqliteTraceStore.open(join(dir, "t.db"), { includePayloads });
  cleanups.push(() => sqlite.close());
  const state = await freshState(cleanups);
  return { sqlite, postgres: state.traceStore({ includePayloads }) };
}

async function appendAll(store: TraceStore, list: readonly RunEvent[]): Promise<void> {
  for (const event of list) await store.append(event);
}

async function outcome(promise: Promise<unknown>): Promise<{ code?: unknown; message?: unknown }> {
  try {
    await promise;
    return {};
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
}

describePostgres("PostgresTraceStore", () => {
  it("stores the same text as SQLite and replays identically", async () => {
    for (const includePayloads of [false, true]) {
      const { sqlite, postgres } = await stores(includePayloads);
      const runs = [events("a", FULL), events("b", [START, FAILED]), events("c", [START, PLAN, TOOL_START])];
      for (const run of runs) {
        await appendAll(sqlite, run);
        await appendAll(postgres, run);
      }
      expect(await postgres.listRuns()).toEqual(["a", "b", "c"]);
      expect(await postgres.listRuns()).toEqual(await sqlite.listRuns());
      for (const runId of ["a", "b", "c"]) {
        expect(await postgres.readRun(runId)).toEqual(await sqlite.readRun(runId));
        expect(await replayRun(postgres, runId)).toEqual(await replayRun(sqlite, runId));
      }
      expect((await replayRun(postgres, "a")).complete).toBe(true);
      expect((await replayRun(postgres, "c")).complete).toBe(false);
      const text = (await postgres.readRun("a")).map((row) => row.data).join("\n");
      expect(text.includes("SECRET")).toBe(includePayloads);
    }
  });

  const s = events("r", [START, PLAN, TOOL_START, END]);
  const refusals: [string, RunEvent[], RunEvent][] = [
    ["a first event after sequence 0", [], { ...s[0]!, sequence: 1 } as RunEvent],
    ["a first event that is not run.start", [], { ...s[1]!, sequence: 0 } as RunEvent],
    ["a skipped sequence", [s[0]!], s[2]!],
    ["a repeated sequence", [s[0]!, s[1]!], { ...s[2]!, sequence: 1 } as RunEvent],
    ["a repeated run.start", [s[0]!], s[0]!],
    ["a second run.start", [s[0]!], { ...s[0]!, sequence: 1, timestamp: at(1) } as RunEvent],
    ["a timestamp regression", [s[0]!, s[1]!], { ...s[2]!, timestamp: at(0) } as RunEvent],
    [
      "an event after run.end",
      [s[0]!, s[1]!, { ...s[3]!, sequence: 2 } as RunEvent],
      { ...s[2]!, sequence: 3 } as RunEvent,
    ],
    ["an invalid event", [s[0]!], { ...s[1]!, calls: -1 } as RunEvent],
  ];
  it.each(refusals)("refuses %s exactly as SQLite does, storing nothing", async (_name, prefix, next) => {
    const { sqlite, postgres } = await stores();
    await appendAll(sqlite, prefix);
    await appendAll(postgres, prefix);
    const expected = await outcome(sqlite.append(next));
    expect(expected.code).toMatch(/^(TRACE_|INVALID_RUN_EVENT)/);
    expect(await outcome(postgres.append(next))).toEqual(expected);
    expect(await postgres.readRun("r")).toEqual(await sqlite.readRun("r"));
  });

  it("keeps equal timestamps and independent runs, and orders appends from two connections", async () => {
    const first = (await freshState(cleanups)).traceStore();
    await first.append(s[0]!);
    await first.append({ ...s[1]!, timestamp: s[0]!.timestamp } as RunEvent);
    await first.append({ ...s[0]!, runId: "other" } as RunEvent);
    expect(await first.listRuns()).toEqual(["r", "other"]);
    // Eight writers race for the same next sequence: exactly one wins, the rest see the gap.
    const results = await Promise.all(
      Array.from({ length: 8 }, () => outcome(first.append({ ...s[2]!, sequence: 2 } as RunEvent))),
    );
    expect(results.filter((result) => result.code === undefined)).toHaveLength(1);
    expect(new Set(results.map((result) => result.code))).toEqual(new Set([undefined, "TRACE_SEQUENCE_GAP"]));
  });

  it("is append-only in the database itself: UPDATE, DELETE and TRUNCATE are refused", async () => {
    const state = await freshState(cleanups);
    const store = state.traceStore();
    await appendAll(store, events("r", [START, PLAN]));
    const client = new pg.Client({ connectionString: postgresUrl() });
    await client.connect();
    cleanups.push(() => client.end());
    const table = `"${state.schema}".trace_events`;
    for (const sql of [`UPDATE ${table} SET event = '{}'`, `DELETE FROM ${table}`, `TRUNCATE ${table}`]) {
      await expect(client.query(sql)).rejects.toThrow(/append-only/);
    }
    expect(await store.readRun("r")).toHaveLength(2);
  });

  it("prunes whole runs by count (complete runs only) and by age", async () => {
    const store = (await freshState(cleanups)).traceStore();
    for (const runId of ["old", "mid", "new"]) await appendAll(store, events(runId, [START, END]));
    await appendAll(store, events("open", [START, PLAN]));
    expect(await store.prune({ keepCompleteRuns: 1 })).toEqual({ runs: 2, events: 4 });
    expect(await store.listRuns()).toEqual(["new", "open"]);
    expect(await store.prune({ olderThanMs: 60_000 })).toEqual({ runs: 0, events: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.prune({ olderThanMs: 10 })).toEqual({ runs: 2, events: 4 });
    expect(await store.listRuns()).toEqual([]);
    expect((await failure(store.prune({}))).code).toBe("STATE_CONFIG_INVALID");
  });

  it("refuses after close (TRACE_STORE_CLOSED), and after its state closed (STATE_UNAVAILABLE)", async () => {
    const state = await freshState(cleanups);
    const store = state.traceStore();
    await store.close();
    expect((await failure(store.append(s[0]!))).code).toBe("TRACE_STORE_CLOSED");
    const other = state.traceStore();
    await state.close();
    expect(await failure(other.listRuns())).toMatchObject({
      code: "STATE_UNAVAILABLE",
      details: { reason: "closed" },
    });
  });

  it("traces a governed run: every event of the completed run replays", async () => {
    const store = (await freshState(cleanups)).traceStore();
    const { server, router } = await startFaultRouter(cleanups);
    server.program("/weather/seoul", [], OK_READING);
    const call = pin(router, "weather", "current", { city: "seoul" }, ["tempC"]);
    await router.invoke([call, call], {
      runId: "governed",
      traceStore: store,
      budget: new ExecutionBudget({ maxCalls: 2 }),
    });
    const replay = await replayRun(store, "governed");
    expect(replay.complete).toBe(true);
    expect(replay.events.map((event) => event.type)).toEqual([
      "run.start",
      "plan.end",
      "tool.start",
      "tool.end",
      "tool.start",
      "tool.end",
      "run.end",
    ]);
  });
});
