/**
 * Compatibility reports are data in artifacts: one entry per (pointer, construct), in a fixed order,
 * so identical inputs give byte-identical reports whatever order adapters found them in.
 */
import type { CompatibilityIssue } from "schemarouter/internal";

export function sortIssues(issues: readonly CompatibilityIssue[]): CompatibilityIssue[] {
  const unique = new Map<string, CompatibilityIssue>();
  for (const issue of issues) unique.set(`${issue.pointer}\u0000${issue.construct}`, issue);
  const key = (issue: CompatibilityIssue) => [issue.pointer, issue.construct] as const;
  return [...unique.values()].sort((a, b) => {
    const [pa, ca] = key(a);
    const [pb, cb] = key(b);
    if (pa !== pb) return pa < pb ? -1 : 1;
    return ca < cb ? -1 : ca > cb ? 1 : 0;
  });
}
