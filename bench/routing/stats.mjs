/**
 * Statistics and printing for the routing benchmarks: min/median/max summaries, nearest-rank
 * percentiles, the environment line and Markdown tables.
 */
import { cpus, loadavg, totalmem } from "node:os";

/** min / median / max of samples (median of an even count: mean of the middle two). */
export function summarize(samples) {
  const sorted = samples.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return { min: Number.NaN, median: Number.NaN, max: Number.NaN, n: 0 };
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1], n: sorted.length };
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function environment() {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: list[0]?.model.trim() ?? "unknown",
    cpus: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg()
      .map((v) => v.toFixed(2))
      .join(" "),
  };
}

/** A number with sensible precision. */
export function num(value, digits) {
  if (!Number.isFinite(value)) return "n/a";
  if (digits !== undefined) return value.toFixed(digits);
  const abs = Math.abs(value);
  return abs >= 100
    ? value.toFixed(0)
    : abs >= 10
      ? value.toFixed(1)
      : abs >= 1
        ? value.toFixed(2)
        : value.toFixed(3);
}

/** A fraction as a percentage. */
export function pct(value) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "n/a";
}

/** "median (min–max)", or just the value when all runs agree. */
export function spread(summary, format = num) {
  if (summary.n === 0) return "n/a";
  if (summary.min === summary.max) return format(summary.median);
  return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}

/** A Markdown table: the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((row) => String(row[c]).length)));
  const line = (row) => `| ${row.map((cell, c) => String(cell).padEnd(widths[c])).join(" | ")} |`;
  return [
    line(rows[0]),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.slice(1).map(line),
  ].join("\n");
}
