/** RunEvent validation, the SQLite trace store, non-executing replay, OTel privacy and crash safety. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  Link,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
} from "@opentelemetry/api";
import { trace } from "@opentelemetry/api";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type RunEvent,
  type RunEventOf,
  type RunEventType,
  validateRunEvent,
} from "../../../runtime/traces/events.js";
import { createOtelExporter } from "../../../runtime/traces/otel.js";
import { isRedactedMarker, redactEvent } from "../../../runtime/traces/redact.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import type { StoredEvent, TraceStore } from "../../../runtime/traces/store.js";

type Payload = { [T in RunEventType]: Omit<RunEventOf<T>, "runId" | "sequence" | "timestamp"> }[RunEventType];

const TEST_DIR = fileURLToPath(new URL("../../", import.meta.url));
const BASE = Date.UTC(2025, 0, 1);
const FP_ENDPOINT = `sha256:${"1".repeat(64)}`;
const FP_TOOL = `sha256:${"2".repeat(64)}`;
const SECRETS = [
  "SECRET-ARG",
  "SECRET-RESULT",
  "SECRET-TAG",
  "SECRET-META",
  "SECRET-MESSAGE",
  "SECRET-REASON",
  "SECRET-RUN-MESSAGE",
];

const at = (sequence: number): string => new Date(BASE + sequence * 1000).toISOString();
const build = (runId: string, payloads: readonly Payload[]): RunEvent[] =>
  payloads.map((payload, sequence) => ({ ...payload, runId, sequence, timestamp: at(sequence) }) as RunEvent);
const call = (callIndex: number) => ({ callIndex, tool: "github", endpoint: "repos/get" });
const started = (callIndex: number, attempt = 1): Payload => ({
  type: "tool.start",
  ...call(callIndex),
  endpointFingerprint: FP_ENDPOINT,
  toolFingerprint: FP_TOOL,
  arguments: { owner: "SECRET-ARG", nested: [1, { deep: true }] },
  attempt,
});

/** A complete run touching every event type, with a secret in every sensitive place. */
function fullRun(runId: string): RunEvent[] {
  return build(runId, [
    { type: "run.start", tags: ["SECRET-TAG"], metadata: { owner: "SECRET-META" } },
    { type: "plan.end", calls: 2 },
    started(0),
    started(0, 2),
    {
      type: "tool.fallback",
      callIndex: 0,
      fromTool: "github",
      fromEndpoint: "repos/get",
      toTool: "github-mcp",
      toEndpoint: "get_repo",
      reason: "SECRET-REASON",
    },
    {
      type: "tool.end",
      ...call(0),
      attempts: 2,
      durationMs: 12.5,
      fields: ["full_name"],
      result: { full_name: "SECRET-RESULT" },
    },
    started(1),
    { type: "tool.error", ...call(1), code: "HTTP_STATUS", message: "SECRET-MESSAGE", attempts: 1 },
    { type: "run.end", calls: 2, durationMs: 40 },
  ]);
}

/** A run that fails, with secrets in its tags, metadata and message. */
function failedRun(runId: string): RunEvent[] {
  return build(runId, [
    { type: "run.start", tags: ["SECRET-TAG"], metadata: { k: "SECRET-META" } },
    { type: "run.error", code: "BUDGET_EXCEEDED", message: "SECRET-RUN-MESSAGE" },
  ]);
}

let dir = "";
const stores: TraceStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "schemarouter-traces-"));
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openStore(name = "trace.db", includePayloads?: boolean): Promise<SqliteTraceStore> {
  const store = await SqliteTraceStore.open(
    join(dir, name),
    includePayloads === undefined ? {} : { includePayloads },
  );
  stores.push(store);
  return store;
}

async function appendAll(store: TraceStore, events: readonly RunEvent[]): Promise<void> {
  for (const event of events) await store.append(event);
}

function rawExec(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** Changes the database behind the store's back, with the append-only triggers lifted meanwhile. */
function tamper(path: string, sql: string): void {
  const db = new Database(path);
  try {
    const triggers = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'").all() as {
      name: string;
      sql: string;
    }[];
    for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`);
    db.exec(sql);
    for (const trigger of triggers) db.exec(trigger.sql);
  } finally {
    db.close();
  }
}

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return "resolved";
}

function syncCodeOf(action: () => unknown): unknown {
  return codeOf(Promise.resolve().then(action));
}

describe("validateRunEvent", () => {
  it("accepts every event type and returns a detached copy", () => {
    const events = [...fullRun("r1"), ...failedRun("r2")];
    expect(new Set(events.map((event) => event.type)).size).toBe(8);
    for (const event of events) {
      const valid = validateRunEvent(event);
      expect(valid).toEqual(event);
      expect(valid).not.toBe(event);
    }
    const start = events[2] as RunEventOf<"tool.start">;
    const copy = validateRunEvent(start) as RunEventOf<"tool.start">;
    (copy.arguments as { owner: string }).owner = "changed";
    expect((start.arguments as { owner: string }).owner).toBe("SECRET-ARG");
  });

  const [runStart, , toolStart, , , toolEnd] = fullRun("r1") as [
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
    RunEvent,
  ];
  const cases: [string, unknown, string][] = [
    ["not an object", null, "$"],
    ["an array", [runStart], "$"],
    ["a class instance", new (class Event {})(), "$"],
    ["an unknown type", { ...runStart, type: "run.paused" }, "$.type"],
    ["an extra envelope key", { ...runStart, extra: 1 }, "$.extra"],
    ["a key of another event type", { ...runStart, calls: 1 }, "$.calls"],
    ["an undefined required key", { ...toolEnd, fields: undefined }, "$.fields"],
    [
      "a deleted required key",
      (({ tool: _tool, ...rest }) => rest)(toolEnd as RunEventOf<"tool.end">),
      "$.tool",
    ],
    ["a string sequence", { ...runStart, sequence: "0" }, "$.sequence"],
    ["a negative sequence", { ...runStart, sequence: -1 }, "$.sequence"],
    ["a fractional sequence", { ...runStart, sequence: 0.5 }, "$.sequence"],
    ["an empty run id", { ...runStart, runId: "" }, "$.runId"],
    ["a date-only timestamp", { ...runStart, timestamp: "2025-01-01" }, "$.timestamp"],
    [
      "a timestamp with an offset",
      { ...runStart, timestamp: "2025-01-01T01:00:00.000+01:00" },
      "$.timestamp",
    ],
    ["an impossible date", { ...runStart, timestamp: "2025-02-30T00:00:00.000Z" }, "$.timestamp"],
    ["tags that are not strings", { ...runStart, tags: [1] }, "$.tags"],
    ["metadata that is not strings", { ...runStart, metadata: { a: 1 } }, "$.metadata"],
    ["a malformed fingerprint", { ...toolStart, toolFingerprint: "md5:00" }, "$.toolFingerprint"],
    ["attempt 0", { ...toolStart, attempt: 0 }, "$.attempt"],
    ["explicitly undefined arguments", { ...toolStart, arguments: undefined }, "$.arguments"],
    ["non-JSON arguments (undefined inside)", { ...toolStart, arguments: { a: undefined } }, "$.arguments"],
    ["non-JSON arguments (a Date)", { ...toolStart, arguments: { at: new Date(BASE) } }, "$.arguments"],
    ["non-JSON arguments (a function)", { ...toolStart, arguments: [() => 1] }, "$.arguments"],
    ["a NaN result", { ...toolEnd, result: Number.NaN }, "$.result"],
    ["a negative duration", { ...toolEnd, durationMs: -1 }, "$.durationMs"],
    ["an error code that is prose", { ...fullRun("r1")[7], code: "it broke" }, "$.code"],
  ];
  it.each(cases)("refuses %s with INVALID_RUN_EVENT", (_name, value, path) => {
    let caught: unknown;
    try {
      validateRunEvent(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_RUN_EVENT", details: { path } });
  });

  it("refuses cyclic arguments", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => validateRunEvent({ ...toolStart, arguments: cyclic })).toThrow(
      expect.objectContaining({ code: "INVALID_RUN_EVENT" }),
    );
  });
});

describe("redactEvent", () => {
  it("replaces arguments and results with a marker and keeps everything else", () => {
    const events = fullRun("r1");
    const redacted = events.map((event) => redactEvent(event, { includePayloads: false }));
    const start = redacted[2] as RunEventOf<"tool.start">;
    const end = redacted[5] as RunEventOf<"tool.end">;
    expect(start.arguments).toEqual({ redacted: true });
    expect(end.result).toEqual({ redacted: true });
    expect(isRedactedMarker(start.arguments)).toBe(true);
    expect(redacted[0]).toEqual(events[0]);
    expect((events[2] as RunEventOf<"tool.start">).arguments).toMatchObject({ owner: "SECRET-ARG" });
    expect(events.map((event) => redactEvent(event, { includePayloads: true }))).toEqual(events);
  });
});

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
      .map((name) => join(dir, name))
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
    damage(join(dir, "damaged.db"));
    expect(await codeOf(SqliteTraceStore.open(join(dir, "damaged.db")))).toBe(code);
  });

  it("refuses a plain SQLite database without converting it", async () => {
    const path = join(dir, "plain.db");
    const db = new Database(path);
    db.exec("CREATE TABLE notes (text TEXT)");
    db.close();
    expect(await codeOf(SqliteTraceStore.open(path))).toBe("TRACE_SCHEMA_UNSUPPORTED");
    const again = new Database(path);
    expect(again.pragma("journal_mode", { simple: true })).toBe("delete");
    again.close();
  });

  it("refuses a file that is not a database with TRACE_CORRUPT", async () => {
    const path = join(dir, "garbage.db");
    writeFileSync(path, "this is not a sqlite database, it is just some text padding ".repeat(100));
    expect(await codeOf(SqliteTraceStore.open(path))).toBe("TRACE_CORRUPT");
  });
});

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

/** A Tracer (the OpenTelemetry API's own interface) that records what it is given. */
class RecordingTracer implements Tracer {
  readonly spans: RecordedSpan[] = [];
  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const parent = context === undefined ? undefined : trace.getSpan(context);
    const span = new RecordedSpan(name, this.spans.length, options, parent);
    this.spans.push(span);
    return span;
  }
  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === "function" ? b : a)) as F;
    const options = typeof a === "function" ? {} : a;
    const context = typeof b === "function" ? undefined : b;
    return fn(this.startSpan(name, options, context)) as ReturnType<F>;
  }
}

class RecordedSpan implements Span {
  readonly attributes: Record<string, AttributeValue | undefined>;
  readonly events: { name: string; attributes: Attributes }[] = [];
  readonly exceptions: Exception[] = [];
  readonly links: Link[] = [];
  status: SpanStatus | undefined;
  ended = false;
  constructor(
    public name: string,
    readonly id: number,
    options: SpanOptions,
    readonly parent: Span | undefined,
  ) {
    this.attributes = { ...options.attributes };
  }
  spanContext(): SpanContext {
    return { traceId: "a".repeat(32), spanId: this.id.toString(16).padStart(16, "0"), traceFlags: 1 };
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(name: string, attributesOrStartTime?: Attributes | TimeInput): this {
    const isAttributes =
      typeof attributesOrStartTime === "object" && !(attributesOrStartTime instanceof Date);
    this.events.push({
      name,
      attributes: isAttributes && !Array.isArray(attributesOrStartTime) ? attributesOrStartTime : {},
    });
    return this;
  }
  addLink(link: Link): this {
    this.links.push(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.links.push(...links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(exception: Exception): void {
    this.exceptions.push(exception);
  }
  /** Every string this span would export. */
  exported(): string[] {
    const values = [this.attributes, ...this.events.map((event) => event.attributes)].flatMap((attributes) =>
      Object.entries(attributes).flatMap(([key, value]) => [key, ...[value].flat().map(String)]),
    );
    return [this.name, ...this.events.map((event) => event.name), this.status?.message ?? "", ...values];
  }
}

describe("OpenTelemetry export", () => {
  it("exports structure only: no payload, message, reason, tag or metadata value", async () => {
    const tracer = new RecordingTracer();
    const exporter = await createOtelExporter({ tracer });
    for (const event of [...fullRun("r1"), ...failedRun("r2")]) exporter.export(event);
    const exported = tracer.spans.flatMap((span) => span.exported());
    for (const secret of SECRETS) expect(exported.filter((value) => value.includes(secret))).toEqual([]);
    expect(tracer.spans.every((span) => span.ended && span.exceptions.length === 0)).toBe(true);

    const [run1, call0, call1, run2] = tracer.spans as [
      RecordedSpan,
      RecordedSpan,
      RecordedSpan,
      RecordedSpan,
    ];
    expect(tracer.spans.map((span) => span.name)).toEqual([
      "schemarouter.run",
      "schemarouter.call",
      "schemarouter.call",
      "schemarouter.run",
    ]);
    expect(call0.parent).toBe(run1);
    expect(call1.parent).toBe(run1);
    expect(run1.attributes).toEqual({
      "schemarouter.run_id": "r1",
      "schemarouter.planned_calls": 2,
      "schemarouter.calls": 2,
      "schemarouter.duration_ms": 40,
    });
    expect(call0.attributes).toMatchObject({
      "schemarouter.call_index": 0,
      "schemarouter.endpoint_fingerprint": FP_ENDPOINT,
      "schemarouter.tool_fingerprint": FP_TOOL,
      "schemarouter.attempts": 2,
      "schemarouter.duration_ms": 12.5,
      "schemarouter.fields": ["full_name"],
    });
    expect(call0.events.map((event) => event.name)).toEqual([
      "schemarouter.attempt",
      "schemarouter.attempt",
      "schemarouter.fallback",
    ]);
    expect(call0.events[2]?.attributes).toEqual({
      "schemarouter.from_tool": "github",
      "schemarouter.from_endpoint": "repos/get",
      "schemarouter.to_tool": "github-mcp",
      "schemarouter.to_endpoint": "get_repo",
    });
    expect(call1.attributes).toMatchObject({
      "schemarouter.error_code": "HTTP_STATUS",
      "schemarouter.attempts": 1,
    });
    expect(call1.status).toEqual({ code: 2 });
    expect(run2.attributes).toEqual({
      "schemarouter.run_id": "r2",
      "schemarouter.error_code": "BUDGET_EXCEEDED",
    });
  });

  it("ends the spans of an interrupted (replayed) run as incomplete on close", async () => {
    const tracer = new RecordingTracer();
    const exporter = await createOtelExporter({ tracer });
    for (const event of fullRun("cut").slice(0, 3)) exporter.export(event);
    expect(tracer.spans.map((span) => span.ended)).toEqual([false, false]);
    exporter.close();
    expect(tracer.spans.map((span) => [span.ended, span.attributes["schemarouter.incomplete"]])).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it("refuses an invalid event with INVALID_RUN_EVENT", async () => {
    const exporter = await createOtelExporter({ tracer: new RecordingTracer() });
    expect(
      await syncCodeOf(() => exporter.export({ ...fullRun("r")[0], tags: "x" } as unknown as RunEvent)),
    ).toBe("INVALID_RUN_EVENT");
  });

  it("uses the global tracer provider when no tracer is given", async () => {
    const tracer = new RecordingTracer();
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    try {
      const exporter = await createOtelExporter();
      for (const event of fullRun("g")) exporter.export(event);
      expect(tracer.spans.map((span) => span.name)).toEqual([
        "schemarouter.run",
        "schemarouter.call",
        "schemarouter.call",
      ]);
    } finally {
      trace.disable();
    }
  });
});

describe("crash safety", () => {
  it("a writer killed mid-append leaves no partial event and an incomplete run", async () => {
    const outDir = join(TEST_DIR, "tmp", `trace-writer-${process.pid}-${Date.now()}`);
    const path = join(dir, "crash.db");
    const fixture = join(TEST_DIR, "fixtures/trace-writer.mjs");
    const child = spawn(process.execPath, [fixture, outDir, path, "crash"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = once(child, "close");
    let acknowledged = 0;
    let stderr = "";
    try {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        let pending = "";
        child.stdout.on("data", (chunk: Buffer) => {
          const lines = (pending + chunk.toString()).split("\n");
          pending = lines.pop() ?? "";
          for (const line of lines) acknowledged = Number(line);
          if (acknowledged >= 200) resolve();
        });
        child.on("exit", (code) => reject(new Error(`the writer exited on its own (${code}): ${stderr}`)));
      });
      child.kill("SIGKILL");
      const [, signal] = await closed;
      expect(signal).toBe("SIGKILL");
    } finally {
      child.kill("SIGKILL");
      rmSync(outDir, { recursive: true, force: true });
    }

    const db = new Database(path);
    const integrity = db.pragma("integrity_check", { simple: true });
    const rows = Number((db.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n);
    db.close();
    expect(integrity).toBe("ok");

    const store = await openStore("crash.db");
    const replay = await replayRun(store, "crash");
    expect(replay.complete).toBe(false);
    expect(replay.events.length).toBe(rows);
    expect(rows).toBeGreaterThanOrEqual(acknowledged);
    expect(rows).toBeLessThanOrEqual(acknowledged + 1);
    for (const event of replay.events) {
      if (event.type === "tool.end") expect((event.result as { blob: string }).blob.length).toBe(64 * 1024);
    }
    await store.append(build("after", [{ type: "run.start", tags: [], metadata: {} }])[0] as RunEvent);
    expect(await store.listRuns()).toEqual(["crash", "after"]);
  });
});
