/**
 * The TTY progress of `schemarouter compile` (docs/reference/cli.md, "Output"): a line per compiled
 * or refused source, and after a second one status line redrawn in place with done/total, the
 * source being compiled, elapsed time and ETA; cleared when the last source is done.
 */
import { describe, expect, it } from "vitest";
import { compileProgress, duration, statusLine } from "../../../compiler/cli/compile-progress.js";

describe("compile progress", () => {
  it("prints a line per compiled source, none per reused one, and no status line in a short run", () => {
    const out: string[] = [];
    let now = 0;
    const progress = compileProgress(
      (text) => out.push(text),
      () => now,
    );
    progress({ source: "a", phase: "start", done: 0, total: 3 });
    now = 100;
    progress({ source: "a", phase: "end", ms: 100, done: 1, total: 3 });
    progress({ source: "b", phase: "start", done: 1, total: 3 });
    progress({ source: "b", phase: "end", ms: 5, reused: true, done: 2, total: 3 });
    progress({ source: "c", phase: "start", done: 2, total: 3 });
    progress({ source: "c", phase: "end", ms: 7, refused: true, done: 3, total: 3 });
    expect(out.join("")).toBe("✓ a (100 ms)\n✗ c (refused)\n");
  });

  it("draws the status line after a second, redraws it in place, and clears it at the end", () => {
    const out: string[] = [];
    let now = 0;
    const progress = compileProgress(
      (text) => out.push(text),
      () => now,
    );
    progress({ source: "a", phase: "start", done: 0, total: 4 });
    progress({ source: "b", phase: "start", done: 0, total: 4 });
    now = 2000;
    progress({ source: "a", phase: "end", ms: 2000, reused: true, done: 1, total: 4 });
    expect(out).toEqual(["[1/4] 25% · b · 2 s elapsed · ETA 6 s"]);
    now = 2050;
    progress({ source: "c", phase: "start", done: 1, total: 4 });
    expect(out).toHaveLength(1); // redrawn at most every 100 ms
    now = 4000;
    progress({ source: "b", phase: "end", ms: 4000, done: 2, total: 4 });
    expect(out.slice(1)).toEqual(["\r\x1b[K✓ b (4000 ms)\n", "[2/4] 50% · c · 4 s elapsed · ETA 4 s"]);
    progress({ source: "c", phase: "end", ms: 1, reused: true, done: 3, total: 4 });
    progress({ source: "d", phase: "start", done: 3, total: 4 });
    now = 5000;
    progress({ source: "d", phase: "end", ms: 1, reused: true, done: 4, total: 4 });
    expect(out.at(-1)).toBe("\r\x1b[K");
  });

  it("formats durations and the ETA from the pace so far", () => {
    expect(duration(42_400)).toBe("42 s");
    expect(duration(185_000)).toBe("3 m 05 s");
    expect(statusLine({ done: 0, total: 2639 }, undefined, 0)).toBe(
      "[   0/2639] 0% · … · 0 s elapsed · ETA …",
    );
    expect(statusLine({ done: 1000, total: 2639 }, "stripe_com", 60_000)).toBe(
      "[1000/2639] 37% · stripe_com · 1 m 00 s elapsed · ETA 1 m 38 s",
    );
  });
});
