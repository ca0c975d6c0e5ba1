/**
 * Compatibility reports are data in artifacts: one entry per (pointer, construct, left-out operation), in a fixed order,
 * so identical inputs give byte-identical reports whatever order adapters found them in.
 */
import type { CompatibilityIssue } from "schemarouter/internal";

export function sortIssues(issues: readonly CompatibilityIssue[]): CompatibilityIssue[] {
  const unique = new Map<string, CompatibilityIssue>();
  for (const issue of issues)
    unique.set(`${issue.pointer}\u0000${issue.construct}\u0000${issue.leftOut ?? ""}`, issue);
  const key = (issue: CompatibilityIssue) => [issue.pointer, issue.construct, issue.leftOut ?? ""] as const;
  return [...unique.values()].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}
