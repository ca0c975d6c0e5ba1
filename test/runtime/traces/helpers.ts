/** Run events with a secret in every sensitive place, per-test trace files, and SQLite tampering for the trace tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach } from "vitest";
import type { RunEvent, RunEventOf, RunEventType } from "../../../runtime/traces/events.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import type { TraceStore } from "../../../runtime/traces/store.js";

export type Payload = {
  [T in RunEventType]: Omit<RunEventOf<T>, "runId" | "sequence" | "timestamp">;
}[RunEventType];

export const TEST_DIR = fileURLToPath(new URL("../../", import.meta.url));
export const BASE = Date.UTC(2025, 0, 1);
export const FP_ENDPOINT = `sha256:${"1".repeat(64)}`;
export const FP_TOOL = `sha256:${"2".repeat(64)}`;
export const SECRETS = [
  "SECRET-ARG",
  "SECRET-RESULT",
  "SECRET-TAG",
  "SECRET-META",
  "SECRET-MESSAGE",
  "SECRET-REASON",
  "SECRET-RUN-MESSAGE",
];

export const at = (sequence: number): string => new Date(BASE + sequence * 1000).toISOString();
export const build = (runId: string, payloads: readonly Payload[]): RunEvent[] =>
  payloads.map((payload, sequence) => ({ ...payload, runId, sequence, timestamp: at(sequence) }) as RunEvent);
export const call = (callIndex: number) => ({ callIndex, tool: "github", endpoint: "repos/get" });
export const started = (callIndex: number, attempt = 1): Payload => ({
  type: "tool.start",
  ...call(callIndex),
  endpointFingerprint: FP_ENDPOINT,
  toolFingerprint: FP_TOOL,
  arguments: { owner: "SECRET-ARG", nested: [1, { deep: true }] },
  attempt,
});

/** A complete run touching every event type, with a secret in every sensitive place. */
export function fullRun(runId: string): RunEvent[] {
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
export function failedRun(runId: string): RunEvent[] {
  return build(runId, [
    { type: "run.start", tags: ["SECRET-TAG"], metadata: { k: "SECRET-META" } },
    { type: "run.error", code: "BUDGET_EXCEEDED", message: "SECRET-RUN-MESSAGE" },
  ]);
}

export async function appendAll(store: TraceStore, events: readonly RunEvent[]): Promise<void> {
  for (const event of events) await store.append(event);
}

export function rawExec(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** Changes the database behind the store's back, with the append-only triggers lifted meanwhile. */
export function tamper(path: string, sql: string): void {
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

export async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return "resolved";
}

export function syncCodeOf(action: () => unknown): unknown {
  return codeOf(Promise.resolve().then(action));
}

export interface TraceFiles {
  /** A path inside the current test's own temporary directory. */
  path(name: string): string;
  /** Opens a store on a file in the current test's directory; it is closed after the test. */
  openStore(name?: string, includePayloads?: boolean): Promise<SqliteTraceStore>;
}

/** Call at module level: each test gets its own temporary directory, removed (with its stores) after it. */
export function traceFiles(): TraceFiles {
  let dir = "";
  const stores: TraceStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "schemarouter-traces-"));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    path: (name) => join(dir, name),
    async openStore(name = "trace.db", includePayloads?: boolean) {
      const store = await SqliteTraceStore.open(
        join(dir, name),
        includePayloads === undefined ? {} : { includePayloads },
      );
      stores.push(store);
      return store;
    },
  };
}
