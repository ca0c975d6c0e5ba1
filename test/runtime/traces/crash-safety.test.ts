/** Crash safety: a writer killed mid-append leaves no partial event and an incomplete run. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { replayRun } from "../../../runtime/traces/replay.js";
import { build, TEST_DIR, traceFiles } from "./helpers.js";

const files = traceFiles();
const { openStore } = files;

describe("crash safety", () => {
  it("a writer killed mid-append leaves no partial event and an incomplete run", async () => {
    const outDir = join(TEST_DIR, "tmp", `trace-writer-${process.pid}-${Date.now()}`);
    const path = files.path("crash.db");
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
