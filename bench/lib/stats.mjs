/**
 * Shared statistics and reporting for the benchmarks: min/median/max of samples, ratios of medians,
 * the environment (Node version, CPU model and count) and a Markdown table printer.
 */
import { cpus, freemem, loadavg, totalmem } from "node:os";

/** @param {number[]} samples */
export function summarize(samples) {
  if (samples.length === 0) throw new Error("summarize: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1], runs: sorted.length };
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function ratio(ours, peer) {
  return peer === 0 ? Number.NaN : ours / peer;
}

export function environment() {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: list[0]?.model.trim() ?? "unknown",
    cpus: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    freeMemoryGb: Math.round(freemem() / 2 ** 30),
    loadAverage: loadavg()
      .map((value) => value.toFixed(2))
      .join(" "),
  };
}

/** Formats a number with a unit, choosing sensible precision. */
export function fmt(value, unit = "") {
  if (!Number.isFinite(value)) return "n/a";
  const abs = Math.abs(value);
  const text =
    abs >= 100
      ? value.toFixed(0)
      : abs >= 10
        ? value.toFixed(1)
        : abs >= 1
          ? value.toFixed(2)
          : value.toFixed(3);
  return unit ? `${text} ${unit}` : text;
}

/** "median (min–max)" of a summary. */
export function spread(summary, unit = "") {
  return `${fmt(summary.median, unit)} (${fmt(summary.min)}–${fmt(summary.max)})`;
}

/** A Markdown table: `rows` are arrays of cells, the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  const line = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(" | ")} |`;
  return [
    line(rows[0]),
    `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
    ...rows.slice(1).map(line),
  ].join("\n");
}

/** Runs `tasks` (name → async () => sample) round-robin `runs` times, so peers share the machine's state. */
export async function interleave(runs, tasks, { warmup = 0 } = {}) {
  const names = Object.keys(tasks);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    // Alternate the order each round so neither side always runs first.
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const sample = await tasks[name]();
      if (round >= warmup) samples[name].push(sample);
    }
  }
  return samples;
}
