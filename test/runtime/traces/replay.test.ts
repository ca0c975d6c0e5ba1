/** Non-executing replay: complete only when the run ended, detached frozen events, corruption refused. */
import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventOf } from "../../../runtime/traces/events.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import type { StoredEvent, TraceStore } from "../../../runtime/traces/store.js";
import { appendAll, at, codeOf, fullRun, tamper, traceFiles } from "./helpers.js";

const { openStore } = traceFiles();

describe("replayRun", () => {
  it("returns the run complete only when it ended, never inventing an end", async () => {
    const store = await openStore();
    await appendAll(store, fullRun("done"));
    await appendAll(store, fullRun("cut").slice(0, 4));
    const done = await replayRun(store, "done");
    const cut = await replayRun(store, "cut");
    expect(done.complete).toBe(true);
    expect(cut.complete).toBe(false);
    expect(cut.events.map((event) => event.type)).toEqual([
      "run.start",
      "plan.end",
      "tool.start",
      "tool.start",
    ]);
    expect(await codeOf(replayRun(store, "never"))).toBe("TRACE_RUN_NOT_FOUND");
    expect(await codeOf(replayRun(store, ""))).toBe("TRACE_RUN_NOT_FOUND");
  });

  it("returns detached, frozen events: mutating one replay cannot change the next", async () => {
    const store = await openStore("payloads.db", true);
    await appendAll(store, fullRun("r1"));
    const first = await replayRun(store, "r1");
    const start = first.events[2] as RunEventOf<"tool.start">;
    expect(() => {
      (start as unknown as { tool: string }).tool = "other";
    }).toThrow(TypeError);
    expect(() => {
      (start.arguments as { owner: string }).owner = "other";
    }).toThrow(TypeError);
    expect(() => (first.events as RunEvent[]).push(start)).toThrow(TypeError);
    const second = await replayRun(store, "r1");
    expect(second.events).toEqual(fullRun("r1"));
    expect(second.events[2]).not.toBe(start);
  });

  const corruptions: [string, string, string, string][] = [
    ["a deleted event (gap)", "DELETE FROM events WHERE sequence = 2", "r", "TRACE_SEQUENCE_GAP"],
    [
      "an event naming another run",
      "UPDATE events SET event = json_set(event, '$.runId', 'x') WHERE sequence = 1",
      "r",
      "TRACE_RUN_MISMATCH",
    ],
    [
      "an event stored under another run",
      "UPDATE events SET run_id = 'x' WHERE sequence = 0",
      "x",
      "TRACE_RUN_MISMATCH",
    ],
    [
      "a timestamp regression",
      `UPDATE events SET event = json_set(event, '$.timestamp', '${at(0)}') WHERE sequence = 3`,
      "r",
      "TRACE_TIMESTAMP_REGRESSION",
    ],
    [
      "truncated JSON",
      "UPDATE events SET event = substr(event, 1, 20) WHERE sequence = 4",
      "r",
      "TRACE_CORRUPT",
    ],
    [
      "JSON that is not a RunEvent",
      "UPDATE events SET event = json_set(event, '$.extra', 1) WHERE sequence = 4",
      "r",
      "TRACE_CORRUPT",
    ],
    [
      "an event naming another sequence",
      "UPDATE events SET event = json_set(event, '$.sequence', 7) WHERE sequence = 1",
      "r",
      "TRACE_CORRUPT",
    ],
    [
      "an event after the terminal one",
      `INSERT INTO events (run_id, sequence, type, timestamp, event) SELECT run_id, 9, type, timestamp, json_set(event, '$.sequence', 9, '$.timestamp', '${at(9)}') FROM events WHERE sequence = 2`,
      "r",
      "TRACE_AFTER_TERMINAL",
    ],
  ];
  it.each(corruptions)("refuses %s", async (_name, sql, runId, code) => {
    const store = await openStore();
    await appendAll(store, fullRun("r"));
    expect((await replayRun(store, "r")).complete).toBe(true);
    tamper(store.path, sql);
    expect(await codeOf(replayRun(store, runId))).toBe(code);
  });

  it("needs nothing but a TraceStore, and re-validates what any store returns", async () => {
    const rows: StoredEvent[] = fullRun("r").map((event) => ({ ...event, data: JSON.stringify(event) }));
    const store: TraceStore = {
      append: async () => {},
      readRun: async (runId) => rows.filter((row) => row.runId === runId || runId === "any"),
      listRuns: async () => ["r"],
      close: async () => {},
    };
    expect((await replayRun(store, "r")).complete).toBe(true);
    expect(await codeOf(replayRun(store, "any"))).toBe("TRACE_RUN_MISMATCH");
    rows.reverse();
    expect(await codeOf(replayRun(store, "r"))).toBe("TRACE_SEQUENCE_GAP");
  });
});
