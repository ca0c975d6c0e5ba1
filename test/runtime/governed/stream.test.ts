/**
 * Streaming typed RunEvents (docs/trust-model.md §20 and §23): router.stream yields run.start, plan.end,
 * tool.start (per attempt), tool.fallback, tool.end / tool.error and run.end / run.error, each one
 * a valid RunEvent; payloads appear only with includePayloads; a trace store receives every event
 * and replays the run without executing anything.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import { type RunEvent, validateRunEvent } from "../../../runtime/traces/events.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { faultRouter, OK_READING as OK, pin, startFaultServer } from "../../fixtures/fault-server.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const server = await startFaultServer();
  cleanups.push(() => server.close());
  server.program("/weather/seoul", [], OK);
  const router = faultRouter(server, { availability: { cooldownMs: 0 }, ...options });
  cleanups.push(() => router.close());
  return { server, router, seoul: pin(router, "weather", "current", { city: "seoul" }, ["tempC"]) };
}

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function tempStore(includePayloads = false): Promise<SqliteTraceStore> {
  const dir = mkdtempSync(join(tmpdir(), "schemarouter-governed-"));
  const store = await SqliteTraceStore.open(join(dir, "traces.db"), { includePayloads });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

function assertWellFormed(events: readonly RunEvent[], runId: string): void {
  events.forEach((event, index) => {
    expect(validateRunEvent(event)).toEqual(event);
    expect(event).toMatchObject({ runId, sequence: index });
    expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
    if (index > 0)
      expect(Date.parse(event.timestamp)).toBeGreaterThanOrEqual(Date.parse(events[index - 1]!.timestamp));
  });
  expect(events[0]?.type).toBe("run.start");
  expect(["run.end", "run.error"]).toContain(events.at(-1)?.type);
}

describe("router.stream", () => {
  it("yields the typed lifecycle of a run, one tool.start per attempt", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    const events = await collect(
      router.stream(
        { calls: [seoul] },
        {
          runId: "run-1",
          tags: ["nightly"],
          metadata: { team: "data" },
          retry: new RetryPolicy({ initialDelayMs: 1 }),
        },
      ),
    );
    assertWellFormed(events, "run-1");
    expect(events.map((event) => event.type)).toEqual([
      "run.start",
      "plan.end",
      "tool.start",
      "tool.start",
      "tool.end",
      "run.end",
    ]);
    expect(events[0]).toMatchObject({ tags: ["nightly"], metadata: { team: "data" } });
    expect(events[1]).toMatchObject({ calls: 1 });
    expect(events.slice(2, 4)).toMatchObject([
      { attempt: 1, endpointFingerprint: seoul.endpointFingerprint, toolFingerprint: seoul.toolFingerprint },
      { attempt: 2 },
    ]);
    expect(events[4]).toMatchObject({ callIndex: 0, attempts: 2, fields: ["tempC"] });
    expect(events[5]).toMatchObject({ calls: 1 });
  });

  it("omits arguments and results unless the run includes payloads", async () => {
    const { router, seoul } = await setup();
    const quiet = await collect(router.stream([seoul]));
    for (const event of quiet) {
      expect(event).not.toHaveProperty("arguments");
      expect(event).not.toHaveProperty("result");
    }
    const loud = await collect(router.stream([seoul], { includePayloads: true }));
    expect(loud.find((event) => event.type === "tool.start")).toMatchObject({ arguments: { city: "seoul" } });
    expect(loud.find((event) => event.type === "tool.end")).toMatchObject({ result: { tempC: 21 } });
  });

  it("ends with tool.error and run.error carrying the refusal code", async () => {
    const { router, seoul } = await setup();
    const events = await collect(
      router.stream([seoul, { ...seoul, arguments: { city: "X" } }], { runId: "bad" }),
    );
    assertWellFormed(events, "bad");
    expect(events.map((event) => event.type)).toEqual(["run.start", "tool.error", "run.error"]);
    expect(events[1]).toMatchObject({ callIndex: 1, code: "INPUT_SCHEMA_VIOLATION", attempts: 0 });
    expect(events[2]).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
  });

  it("reports a malformed plan as run.error (PLAN_INVALID)", async () => {
    const { router } = await setup();
    const events = await collect(router.stream({ calls: 5 } as never));
    expect(events.map((event) => event.type)).toEqual(["run.start", "run.error"]);
    expect(events[1]).toMatchObject({ code: "PLAN_INVALID" });
  });

  it("throws an invalid RunConfig from the first next() (RUN_CONFIG_INVALID)", async () => {
    const { router, seoul } = await setup();
    await expect(collect(router.stream([seoul], { concurrency: -1 }))).rejects.toMatchObject({
      code: "RUN_CONFIG_INVALID",
    });
  });

  it("aborts the run when the consumer stops reading (RUN_ABORTED in the trace)", async () => {
    const store = await tempStore();
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], { reply: "hang" });
    for await (const event of router.stream([seoul], { runId: "left", traceStore: store })) {
      if (event.type === "tool.start") break;
    }
    const replay = await replayRun(store, "left");
    expect(replay.complete).toBe(true);
    expect(replay.events.at(-2)).toMatchObject({ type: "tool.error", code: "RUN_ABORTED" });
    expect(replay.events.at(-1)).toMatchObject({ type: "run.error", code: "RUN_ABORTED" });
    await expect.poll(() => server.inFlight.current, { timeout: 5_000 }).toBe(0);
  }, 20_000);
});

describe("trace store", () => {
  it("appends every event of invoke and replays them, redacted by default", async () => {
    const store = await tempStore();
    const { router, seoul } = await setup();
    await router.invoke([seoul, seoul], { runId: "stored", traceStore: store, includePayloads: true });
    const replay = await replayRun(store, "stored");
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
    expect(replay.events[2]).toMatchObject({ arguments: { redacted: true } });
    expect(replay.events[3]).toMatchObject({ result: { redacted: true } });
  });

  it("keeps payloads when both the run and the store include them", async () => {
    const store = await tempStore(true);
    const { router, seoul } = await setup();
    await router.call(seoul, { runId: "loud", traceStore: store, includePayloads: true });
    const replay = await replayRun(store, "loud");
    expect(replay.events[2]).toMatchObject({ arguments: { city: "seoul" } });
    expect(replay.events[3]).toMatchObject({ result: { tempC: 21 } });
  });

  it("records a failed run with its code, and refuses reusing a finished run id", async () => {
    const store = await tempStore();
    const { router, seoul } = await setup();
    await expect(
      router.call(
        { ...seoul, toolFingerprint: `sha256:${"9".repeat(64)}` },
        { runId: "failed", traceStore: store },
      ),
    ).rejects.toMatchObject({ code: "STALE_TOOL_FINGERPRINT" });
    const replay = await replayRun(store, "failed");
    expect(replay.events.at(-1)).toMatchObject({ type: "run.error", code: "STALE_TOOL_FINGERPRINT" });
    await expect(router.call(seoul, { runId: "failed", traceStore: store })).rejects.toMatchObject({
      code: "TRACE_AFTER_TERMINAL",
    });
  });

  it("fails the run closed when the store cannot append", async () => {
    const store = await tempStore();
    const { server, router, seoul } = await setup();
    await store.close();
    await expect(router.call(seoul, { traceStore: store })).rejects.toMatchObject({
      code: "TRACE_STORE_CLOSED",
    });
    expect(server.requests).toEqual([]);
  });
});
