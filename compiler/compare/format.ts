/**
 * Human renderings of a ComparisonReport: plain text for terminals and CI logs, and Markdown for a
 * pull-request comment (a summary line, then one table of changes per source/tool). The same change
 * to a shared definition, reached in many places, is shown once with a count; the report itself
 * (e.g. as JSON) keeps every place.
 */
import { canonicalJson } from "schemarouter/internal";
import type { Change, ComparisonReport } from "./report.js";
import type { ChangeSeverity } from "./rules.js";

const SEVERITIES: readonly ChangeSeverity[] = ["security-review", "breaking", "compatible"];

/** Markdown table rows at most (GitHub comments are limited to 65,536 characters). */
const MARKDOWN_ROW_LIMIT = 150;

interface Row {
  readonly change: Change;
  /** Further places where the same change to the same shared definition shows up. */
  readonly more: Change[];
}

function counts(report: ComparisonReport): string {
  const n = report.changes.length;
  const parts = SEVERITIES.map((s) => [s, report.changes.filter((c) => c.category === s).length] as const)
    .filter(([, count]) => count > 0)
    .map(([s, count]) => `${count} ${s}`);
  return `${n} change${n === 1 ? "" : "s"}${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
}

function value(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function scopeKey(change: Change): string {
  return JSON.stringify([change.source ?? null, change.tool ?? null]);
}

const RANK: Readonly<Record<ChangeSeverity, number>> = { "security-review": 0, breaking: 1, compatible: 2 };

/**
 * Collapses identical changes to the same shared definition within one source/tool, then orders the
 * rows most severe first (stable: report order, i.e. by pointer, within a category).
 */
function rows(changes: readonly Change[]): Row[] {
  return bySeverity(collapse(changes));
}

function bySeverity(list: readonly Row[]): Row[] {
  return [...list].sort((a, b) => RANK[a.change.category] - RANK[b.change.category]);
}

function collapse(changes: readonly Change[]): Row[] {
  const out: Row[] = [];
  const byKey = new Map<string, Row>();
  for (const change of changes) {
    if (change.definition === undefined) {
      out.push({ change, more: [] });
      continue;
    }
    const key = canonicalJson([
      scopeKey(change),
      change.rule,
      change.definition,
      change.message,
      change.before ?? null,
      change.after ?? null,
    ]);
    const row = byKey.get(key);
    if (row !== undefined) {
      row.more.push(change);
      continue;
    }
    const fresh: Row = { change, more: [] };
    byKey.set(key, fresh);
    out.push(fresh);
  }
  return out;
}

function morePlaces(row: Row): string {
  if (row.more.length === 0) return "";
  const endpoints = [
    ...new Set([row.change, ...row.more].map((c) => c.endpoint).filter((e) => e !== undefined)),
  ];
  const shown = endpoints.slice(0, 3).join(", ");
  const rest = endpoints.length > 3 ? ` and ${endpoints.length - 3} more` : "";
  const where =
    endpoints.length > 0
      ? ` in ${endpoints.length} endpoint${endpoints.length === 1 ? "" : "s"} (${shown}${rest})`
      : "";
  return `; and ${row.more.length} more place${row.more.length === 1 ? "" : "s"}${where}`;
}

/** Plain text: a summary line, then one block per change, most severe first (category, rule, pointer, message, values). */
export function formatReportText(report: ComparisonReport): string {
  const lines = [`Capability changes: ${report.category} (rules v${report.rulesVersion})`];
  if (report.changes.length === 0) return `${lines[0]}\nNo changes.\n`;
  lines.push(counts(report));
  for (const row of rows(report.changes)) {
    const change = row.change;
    lines.push("", `${change.category}  ${change.rule}`, `  at ${change.pointer || "/"}`);
    const via = change.definition !== undefined ? ` (via $defs/${change.definition})` : "";
    lines.push(`  ${change.message}${via}${morePlaces(row)}`);
    if ("before" in change) lines.push(`  before: ${value(change.before)}`);
    if ("after" in change) lines.push(`  after:  ${value(change.after)}`);
  }
  return `${lines.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function code(text: string): string {
  if (text === "") return "";
  const fence = text.includes("`") ? "``" : "`";
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${cell(text)}${pad}${fence}`;
}

function titleOf(change: Change): string {
  const parts: string[] = [];
  if (change.source !== undefined) parts.push(`source ${code(change.source)}`);
  if (change.tool !== undefined) parts.push(`tool ${code(change.tool)}`);
  return parts.length === 0 ? "Contract" : parts.join(" · ");
}

/**
 * Markdown for a PR comment: summary line, then a table of changes per source and tool, most severe
 * first; at most MARKDOWN_ROW_LIMIT rows, dropping the least severe.
 */
export function formatReportMarkdown(report: ComparisonReport): string {
  const out = [
    `**Capability changes: \`${report.category}\`** · ${counts(report)} · rules v${report.rulesVersion}`,
  ];
  if (report.changes.length === 0) {
    out.push("", "The contracts are identical.");
    return `${out.join("\n")}\n`;
  }
  const collapsed = collapse(report.changes);
  const shown = new Set(bySeverity(collapsed).slice(0, MARKDOWN_ROW_LIMIT));
  const groups = new Map<string, Row[]>();
  for (const row of collapsed) {
    if (!shown.has(row)) continue;
    const title = titleOf(row.change);
    const list = groups.get(title) ?? [];
    list.push(row);
    groups.set(title, list);
  }
  for (const [title, list] of groups) {
    out.push(
      "",
      `#### ${title}`,
      "",
      "| Category | Where | Rule | Change | Before | After |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const row of bySeverity(list)) {
      const c = row.change;
      const via = c.definition !== undefined ? ` (via \`$defs/${cell(c.definition)}\`)` : "";
      const before = "before" in c ? code(value(c.before)) : "—";
      const after = "after" in c ? code(value(c.after)) : "—";
      out.push(
        `| **${c.category}** | ${code(c.pointer || "/")} | ${code(c.rule)} | ${cell(c.message)}${via}${cell(morePlaces(row))} | ${before} | ${after} |`,
      );
    }
  }
  const hidden = collapsed.length - shown.size;
  if (hidden > 0) {
    out.push(
      "",
      `_…and ${hidden} more rows (the least severe) not shown; the JSON report lists every change._`,
    );
  }
  out.push(
    "",
    "_Diagnostic only: calls and bindings pinned to the old fingerprints stay refused until re-planned and re-bound._",
  );
  return `${out.join("\n")}\n`;
}
