/**
 * What `schemarouter compile` shows on a terminal while it runs (docs/reference/cli.md, "Output"): a
 * `✓ <source> (<ms> ms)` line per compiled source (`✗ <source> [CODE]` per refused one; reused
 * sources print none), and, once the run has lasted a second, one status line redrawn in place —
 * sources done / total, the source being compiled, elapsed time and an ETA from the pace so far. Not
 * used when stderr is not a terminal or with `--json`.
 */
import type { ProgressEvent } from "../compile/compile.js";

const CLEAR = "\r\x1b[K";
/** The status line appears after this long, and is redrawn at most this often. */
const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 100;

export function compileProgress(
  write: (text: string) => void,
  now: () => number = () => performance.now(),
): (event: ProgressEvent) => void {
  const started = now();
  const running = new Set<string>();
  let shown = false;
  let drawn = 0;
  return (event) => {
    if (event.phase === "start") running.add(event.source);
    else running.delete(event.source);
    const clear = shown ? CLEAR : "";
    if (event.phase === "end" && event.refused === true) {
      write(`${clear}✗ ${event.source} (refused)\n`);
      shown = false;
    } else if (event.phase === "end" && event.reused !== true) {
      write(`${clear}✓ ${event.source} (${Math.round(event.ms ?? 0)} ms)\n`);
      shown = false;
    }
    const at = now();
    if (event.done >= event.total) {
      if (shown) write(CLEAR);
      shown = false;
      return;
    }
    if (at - started < SHOW_AFTER_MS || (shown && at - drawn < REDRAW_MS)) return;
    write(`${shown ? CLEAR : ""}${statusLine(event, [...running].pop(), at - started)}`);
    shown = true;
    drawn = at;
  };
}

/** `[done/total] pct% · <current> · <elapsed> elapsed · ETA <eta>` */
export function statusLine(
  event: Pick<ProgressEvent, "done" | "total">,
  current: string | undefined,
  elapsedMs: number,
): string {
  const pct = event.total === 0 ? 100 : Math.floor((event.done / event.total) * 100);
  const eta = event.done === 0 ? "…" : duration((elapsedMs / event.done) * (event.total - event.done));
  const width = String(event.total).length;
  return `[${String(event.done).padStart(width)}/${event.total}] ${pct}% · ${current ?? "…"} · ${duration(elapsedMs)} elapsed · ETA ${eta}`;
}

/** `42 s`, `3 m 05 s`. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, "0")} s`;
}
