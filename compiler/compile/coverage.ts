/**
 * What a compiled source left out or supports only partly, from its artifact's compatibility report
 * (docs/reference/cli.md, "What was left out"): operations left out grouped by reason (the issue's
 * `construct`), every other finding grouped the same way, each with its pointers in report order.
 */
import type { Artifact, CompatibilityIssue } from "schemarouter/internal";

export interface ReasonGroup {
  readonly construct: string;
  readonly count: number;
  /** Pointers in report order: left-out operations for `leftOut`, issue pointers for `partial`. */
  readonly pointers: readonly string[];
}

export interface SourceCoverage {
  readonly source: string;
  readonly endpoints: number;
  /** Distinct operations (tools, entry types) not compiled. */
  readonly leftOut: number;
  readonly leftOutReasons: readonly ReasonGroup[];
  /** Every other finding: partly supported constructs, and unsupported ones the operation survives. */
  readonly partial: number;
  readonly partialReasons: readonly ReasonGroup[];
}

export function coverageOf(artifact: Artifact): SourceCoverage {
  const issues = artifact.compatibility;
  const leftOut = group(
    issues.filter((issue) => issue.leftOut !== undefined),
    (issue) => issue.leftOut!,
  );
  const partial = group(
    issues.filter((issue) => issue.leftOut === undefined),
    (issue) => issue.pointer,
  );
  const operations = new Set(issues.flatMap((issue) => (issue.leftOut === undefined ? [] : [issue.leftOut])));
  return {
    source: artifact.source.name,
    endpoints: Object.values(artifact.endpointIndex).reduce((sum, list) => sum + list.length, 0),
    leftOut: operations.size,
    leftOutReasons: leftOut,
    partial: partial.reduce((sum, reason) => sum + reason.count, 0),
    partialReasons: partial,
  };
}

function group(
  issues: readonly CompatibilityIssue[],
  pointerOf: (issue: CompatibilityIssue) => string,
): ReasonGroup[] {
  const byConstruct = new Map<string, string[]>();
  for (const issue of issues) {
    const pointers = byConstruct.get(issue.construct) ?? [];
    const pointer = pointerOf(issue);
    if (!pointers.includes(pointer)) pointers.push(pointer);
    byConstruct.set(issue.construct, pointers);
  }
  return [...byConstruct.entries()]
    .map(([construct, pointers]) => ({ construct, count: pointers.length, pointers }))
    .sort((a, b) => b.count - a.count || (a.construct < b.construct ? -1 : 1));
}

/** Lines `compile` prints under a source's summary: counts per reason and the first few pointers. */
export function formatCoverage(coverage: SourceCoverage, shown = 3): string[] {
  const lines: string[] = [];
  const reasons = (groups: readonly ReasonGroup[]) => {
    for (const reason of groups) {
      const first = reason.pointers.slice(0, shown).join(", ");
      const more = reason.count > shown ? `, … (+${reason.count - shown})` : "";
      lines.push(`    ${reason.construct} ${reason.count}: ${first}${more}`);
    }
  };
  if (coverage.leftOut > 0) {
    lines.push(`  ! left out ${coverage.leftOut} operation(s):`);
    reasons(coverage.leftOutReasons);
  }
  if (coverage.partial > 0) {
    lines.push(`  ~ partly supported ${coverage.partial} construct(s):`);
    reasons(coverage.partialReasons);
  }
  if (coverage.leftOut + coverage.partial > 0)
    lines.push(`  (all of them: \`schemarouter inspect --report ${coverage.source}\`)`);
  return lines;
}

/** Every finding of one source, one per line, for `inspect --report`. */
export function formatReport(artifact: Artifact): string {
  const coverage = coverageOf(artifact);
  const head = `${coverage.source}: ${coverage.endpoints} endpoints, ${coverage.leftOut} operation(s) left out, ${coverage.partial} partly supported construct(s)`;
  const lines = [head];
  const sorted = [...artifact.compatibility].sort(
    (a, b) =>
      Number(a.leftOut === undefined) - Number(b.leftOut === undefined) ||
      (a.construct < b.construct ? -1 : a.construct > b.construct ? 1 : 0),
  );
  for (const issue of sorted) {
    const mark = issue.leftOut !== undefined ? "left out" : issue.level;
    const where =
      issue.leftOut !== undefined && issue.leftOut !== issue.pointer ? ` (at ${issue.pointer})` : "";
    lines.push(`${mark.padEnd(11)} ${issue.construct.padEnd(28)} ${issue.leftOut ?? issue.pointer}${where}`);
    lines.push(`            ${issue.message}`);
  }
  return `${lines.join("\n")}\n`;
}
