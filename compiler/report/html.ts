/**
 * The HTML rendering of a decision-trace report (docs/runtime/trace-reports.md): one self-contained
 * page with inline SVG bar charts — no script, no external resource (a Content-Security-Policy of
 * `default-src 'none'` says so to the browser), every name escaped.
 */
import type { CodeCount, DecisionReport } from "schemarouter/traces";
import { milliseconds } from "./text.js";

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

interface Bar {
  readonly label: string;
  readonly value: number;
  readonly note?: string;
}

/** A horizontal bar chart as inline SVG; bars scale to the largest value. */
export function barChart(title: string, bars: readonly Bar[]): string {
  if (bars.length === 0) return `<section><h2>${escapeHtml(title)}</h2><p class="empty">none</p></section>`;
  const rowHeight = 22;
  const labelWidth = 320;
  const barWidth = 360;
  const max = Math.max(...bars.map((bar) => bar.value), 1);
  const height = bars.length * rowHeight + 8;
  const rows = bars.map((bar, index) => {
    const y = index * rowHeight + 4;
    const width = Math.max(1, Math.round((bar.value / max) * barWidth));
    const label = escapeHtml(bar.label);
    const value = escapeHtml(`${bar.value}${bar.note !== undefined ? ` ${bar.note}` : ""}`);
    return (
      `<g><title>${label}: ${value}</title>` +
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${label}</text>` +
      `<rect x="${labelWidth}" y="${y}" width="${width}" height="${rowHeight - 6}" rx="2"></rect>` +
      `<text x="${labelWidth + width + 6}" y="${y + 15}">${value}</text></g>`
    );
  });
  return (
    `<section><h2>${escapeHtml(title)}</h2>` +
    `<svg role="img" aria-label="${escapeHtml(title)}" width="${labelWidth + barWidth + 120}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 120} ${height}">${rows.join("")}</svg></section>`
  );
}

const codes = (rows: readonly CodeCount[]): Bar[] =>
  rows.map((row) => ({ label: row.code, value: row.count }));

export function reportHtml(report: DecisionReport): string {
  const { runs } = report;
  const summary =
    `<p id="summary">${runs.total} run(s): ${runs.completed} completed, ${runs.failed} failed` +
    `${runs.open > 0 ? `, ${runs.open} not ended` : ""}` +
    `${report.period !== undefined ? ` — ${escapeHtml(report.period.first)} to ${escapeHtml(report.period.last)}` : ""}</p>`;
  const latencyRows = report.routes
    .map((route) =>
      route.latency === undefined
        ? ""
        : `<tr><td>${escapeHtml(route.route)}</td><td>${route.latency.count}</td>${[route.latency.p50, route.latency.p90, route.latency.p99, route.latency.max].map((ms) => `<td>${milliseconds(ms)}</td>`).join("")}</tr>`,
    )
    .join("");
  const sections = [
    barChart(
      "Routes chosen (logical calls)",
      report.routes.map((route) => ({ label: route.route, value: route.calls })),
    ),
    barChart(
      "Latency p90 per route (ms)",
      report.routes.flatMap((route) =>
        route.latency === undefined
          ? []
          : [{ label: route.route, value: Number(milliseconds(route.latency.p90)), note: "ms" }],
      ),
    ),
    `<section><h2>Latency percentiles (ms)</h2><table><thead><tr><th>route</th><th>calls</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>${latencyRows}</tbody></table></section>`,
    barChart("Call refusals and failures by code", codes(report.callErrors)),
    barChart("Run failures by code", codes(report.runErrors)),
    barChart("Budgets hit", codes(report.budgets)),
    barChart(
      "Fallbacks taken",
      report.fallbacks.map((f) => ({ label: `${f.from} → ${f.to} (${f.reason})`, value: f.count })),
    ),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>SchemaRouter decision report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1b1f24; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; }
svg text { font: 12px system-ui, sans-serif; fill: #1b1f24; } svg rect { fill: #3b6fd8; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccd; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; } .empty { color: #667; }
</style>
</head>
<body>
<h1>SchemaRouter decision report</h1>
${summary}
${sections.join("\n")}
</body>
</html>
`;
}
