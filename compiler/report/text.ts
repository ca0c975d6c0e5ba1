/** The text rendering of a decision-trace report (docs/runtime/trace-reports.md). */
import type { DecisionReport } from "schemarouter/traces";

export function reportText(report: DecisionReport): string {
  const lines: string[] = [];
  const { runs } = report;
  lines.push(
    `${runs.total} run(s): ${runs.completed} completed, ${runs.failed} failed${runs.open > 0 ? `, ${runs.open} not ended` : ""}`,
  );
  if (report.period !== undefined) lines.push(`from ${report.period.first} to ${report.period.last}`);
  if (report.routes.length > 0) {
    lines.push("", "routes (calls, attempts, ok, failed, p50/p90/p99/max ms):");
    const width = Math.max(...report.routes.map((route) => route.route.length));
    for (const route of report.routes) {
      const latency = route.latency;
      const ms =
        latency === undefined
          ? "-"
          : [latency.p50, latency.p90, latency.p99, latency.max].map(milliseconds).join("/");
      lines.push(
        `  ${route.route.padEnd(width)}  ${String(route.calls).padStart(6)} ${String(route.attempts).padStart(6)} ${String(route.succeeded).padStart(6)} ${String(route.failed).padStart(6)}  ${ms}`,
      );
    }
  }
  const section = (title: string, rows: readonly { code: string; count: number }[]) => {
    if (rows.length === 0) return;
    lines.push("", `${title}:`);
    for (const row of rows) lines.push(`  ${row.code.padEnd(28)} ${row.count}`);
  };
  section("call refusals and failures by code", report.callErrors);
  section("run failures by code", report.runErrors);
  section("budgets hit", report.budgets);
  if (report.fallbacks.length > 0) {
    lines.push("", "fallbacks taken:");
    for (const f of report.fallbacks) lines.push(`  ${f.from} → ${f.to} (${f.reason}) ${f.count}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Milliseconds to one decimal (the JSON report keeps the measured values). */
export function milliseconds(value: number): string {
  return value.toFixed(1);
}
