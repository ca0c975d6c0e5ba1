/** The SQLite trace store: round trips, redaction by default, ordering refusals, append-only, foreign files. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { redactEvent } from "../../../runtime/traces/redact.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { appendAll, at, codeOf, fullRun, rawExec, traceFiles } from "./helpers.js";

const files = traceFiles();
const { openStore } = files;

describe("SqliteTraceStore", () => {
  it("round-trips a run and lists runs in first-append order", async () => {
    const store = await openStore("t.db", true);
    await appendAll(store, fullRun("b"));
    await appendAll(store, fullRun("a"));
    expect(await store.listRuns()).toEqual(["b", "a"]);
    const rows = await store.readRun("a");
    expect(rows.map((row) => [row.runId, row.sequence])).toEqual(fullRun("a").map((e) => ["a", e.sequence]));
    expect(rows.map((row) => JSON.parse(row.data))).toEqual(fullRun("a"));
    expect(await store.readRun("missing")).toEqual([]);
  });

  it("stores redacted events by default: no payload reaches the file", async () => {
    const store = await openStore();
    await appendAll(store, fullRun("r1"));
    const replay = await replayRun(store, "r1");
    expect(replay.events).toEqual(
      fullRun("r1").map((event) => redactEvent(event, { includePayloads: false })),
    );
    expect(replay.events[0]).toMatchObject({ tags: ["SECRET-TAG"], metadata: { owner: "SECRET-META" } });
    await store.close();
    const bytes = ["trace.db", "trace.db-wal"]
      .map((name) => files.path(name))
      .filter(existsSync)
      .map((path) => readFileSync(path).toString("latin1"))
      .join("");
    expect(bytes).toContain("SECRET-TAG");
    expect(bytes).not.toContain("SECRET-ARG");
    expect(bytes).not.toContain("SECRET-RESULT");
  });

  it("keeps payloads only when includePayloads is set", async () => {
    const store = await openStore("payloads.db", true);
    expect(store.includePayloads).toBe(true);
    await appendAll(store, fullRun("r1"));
    expect((await replayRun(store, "r1")).events).toEqual(fullRun("r1"));
  });

  const [s0, s1, s2] = fullRun("r") as [RunEvent, RunEvent, RunEvent];
  const end = { ...(fullRun("r")[8] as RunEvent), sequence: 2 } as RunEvent;
  const failed = {
    runId: "r",
    sequence: 2,
    timestamp: at(2),
    type: "run.error",
    code: "X",
    message: "m",
  } as RunEvent;
  const refusals: [string, RunEvent[], RunEvent, string][] = [
    ["a first event after sequence 0", [], { ...s0, sequence: 1 } as RunEvent, "TRACE_SEQUENCE_GAP"],
    ["a first event that is not run.start", [], { ...s1, sequence: 0 } as RunEvent, "TRACE_ORDER_INVALID"],
    ["a skipped sequence", [s0], s2, "TRACE_SEQUENCE_GAP"],
    ["a repeated sequence", [s0, s1], { ...s2, sequence: 1 } as RunEvent, "TRACE_SEQUENCE_GAP"],
    ["a second run.start", [s0], { ...s0, sequence: 1, timestamp: at(1) } as RunEvent, "TRACE_ORDER_INVALID"],
    [
      "a timestamp regression",
      [s0, s1],
      { ...s2, timestamp: at(0) } as RunEvent,
      "TRACE_TIMESTAMP_REGRESSION",
    ],
    ["an event after run.end", [s0, s1, end], { ...s2, sequence: 3 } as RunEvent, "TRACE_AFTER_TERMINAL"],
    [
      "an event after run.error",
      [s0, s1, failed],
      { ...s2, sequence: 3 } as RunEvent,
      "TRACE_AFTER_TERMINAL",
    ],
    ["an invalid event", [s0], { ...s1, calls: -1 } as RunEvent, "INVALID_RUN_EVENT"],
  ];
  it.each(refusals)("refuses %s and stores nothing", async (_name, prefix, next, code) => {
    const store = await openStore();
    await appendAll(store, prefix);
    expect(await codeOf(store.append(next))).toBe(code);
    expect((await store.readRun("r")).length).toBe(prefix.length);
  });

  it("allows equal timestamps and keeps runs independent", async () => {
    const store = await openStore();
    await store.append(s0);
    await store.append({ ...s1, timestamp: s0.timestamp } as RunEvent);
    await store.append({ ...s0, runId: "other" } as RunEvent);
    expect(await store.listRuns()).toEqual(["r", "other"]);
  });

  it("enforces ordering across connections to the same file", async () => {
    const first = await openStore("shared.db");
    const second = await openStore("shared.db");
    await first.append(s0);
    expect(await codeOf(second.append(s0))).toBe("TRACE_SEQUENCE_GAP");
    await second.append(s1);
    expect(await codeOf(first.append(s1))).toBe("TRACE_SEQUENCE_GAP");
    expect((await first.readRun("r")).map((row) => row.sequence)).toEqual([0, 1]);
  });

  it("refuses every call after close with TRACE_STORE_CLOSED", async () => {
    const store = await openStore();
    await store.close();
    await store.close();
    expect(await codeOf(store.append(s0))).toBe("TRACE_STORE_CLOSED");
    expect(await codeOf(store.readRun("r"))).toBe("TRACE_STORE_CLOSED");
    expect(await codeOf(store.listRuns())).toBe("TRACE_STORE_CLOSED");
  });

  it("is append-only: the database itself aborts UPDATE and DELETE", async () => {
    const store = await openStore();
    await appendAll(store, [s0, s1]);
    const db = new Database(store.path);
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("user_version", { simple: true })).toBe(1);
      for (const sql of ["UPDATE events SET event = '{}'", "DELETE FROM events"]) {
        expect(() => db.exec(sql)).toThrow(
          expect.objectContaining({
            code: "SQLITE_CONSTRAINT_TRIGGER",
            message: expect.stringMatching(/append-only/),
          }),
        );
      }
      expect(() =>
        db
          .prepare(
            "INSERT INTO events (run_id, sequence, type, timestamp, event) VALUES ('r', 1, 'x', 'x', '{}')",
          )
          .run(),
      ).toThrow(expect.objectContaining({ code: "SQLITE_CONSTRAINT_UNIQUE" }));
    } finally {
      db.close();
    }
    expect((await store.readRun("r")).length).toBe(2);
  });

  it("reopens an existing store and continues its runs", async () => {
    const first = await openStore();
    await appendAll(first, [s0, s1]);
    await first.close();
    const second = await openStore();
    await second.append(s2);
    expect((await second.readRun("r")).length).toBe(3);
  });

  const foreign: [string, (path: string) => void, string][] = [
    [
      "a newer schema version",
      (path) => rawExec(path, "PRAGMA user_version = 2"),
      "TRACE_SCHEMA_UNSUPPORTED",
    ],
    [
      "an older, unknown schema version",
      (path) => rawExec(path, "PRAGMA user_version = -1"),
      "TRACE_SCHEMA_UNSUPPORTED",
    ],
    [
      "another application's database",
      (path) => rawExec(path, "PRAGMA application_id = 7"),
      "TRACE_SCHEMA_UNSUPPORTED",
    ],
    [
      "a missing append-only trigger",
      (path) => rawExec(path, "DROP TRIGGER events_no_delete"),
      "TRACE_CORRUPT",
    ],
  ];
  it.each(foreign)("refuses to open %s", async (_name, damage, code) => {
    const store = await openStore("damaged.db");
    await store.close();
    damage(files.path("damaged.db"));
    expect(await codeOf(SqliteTraceStore.open(files.path("damaged.db")))).toBe(code);
  });

  it("refuses a plain SQLite database without converting it", async () => {
    const path = files.path("plain.db");
    const db = new Database(path);
    db.exec("CREATE TABLE notes (text TEXT)");
    db.close();
    expect(await codeOf(SqliteTraceStore.open(path))).toBe("TRACE_SCHEMA_UNSUPPORTED");
    const again = new Database(path);
    expect(again.pragma("journal_mode", { simple: true })).toBe("delete");
    again.close();
  });

  it("refuses a file that is not a database with TRACE_CORRUPT", async () => {
    const path = files.path("garbage.db");
    writeFileSync(path, "this is not a sqlite database, it is just some text padding ".repeat(100));
    expect(await codeOf(SqliteTraceStore.open(path))).toBe("TRACE_CORRUPT");
  });
});
