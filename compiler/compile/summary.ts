/**
 * The per-source summary `compile` prints: endpoint counts by effect, and what changed against the
 * previous lockfile (added, removed, changed endpoints).
 */

import type { Effect, LockedSource, Lockfile } from "schemarouter/internal";

export interface SourceSummary {
  readonly source: string;
  readonly status: "new" | "changed" | "unchanged" | "removed";
  readonly endpoints: number;
  readonly effects: Readonly<Record<Effect, number>>;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export function summarizeLockChanges(previous: Lockfile | undefined, next: Lockfile): SourceSummary[] {
  const names = new Set([...Object.keys(previous?.sources ?? {}), ...Object.keys(next.sources)]);
  return [...names]
    .sort()
    .map((source) => summarize(source, previous?.sources[source], next.sources[source]));
}

function routes(source: LockedSource | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [tool, locked] of Object.entries(source?.tools ?? {})) {
    for (const [endpoint, entry] of Object.entries(locked.endpoints))
      out.set(`${tool}.${endpoint}`, `${entry.fingerprint} ${entry.effect}`);
  }
  return out;
}

function summarize(
  source: string,
  before: LockedSource | undefined,
  after: LockedSource | undefined,
): SourceSummary {
  // The same entry (a reused source): nothing can differ, only the counts are needed. (Routes are
  // distinct when no tool name has a dot; otherwise they are counted as routes below.)
  if (before !== undefined && before === after && !Object.keys(after.tools).some((t) => t.includes(".")))
    return unchanged(source, after);
  const old = routes(before);
  const now = routes(after);
  const effects: Record<Effect, number> = { read: 0, write: 0, destructive: 0, unclassified: 0 };
  for (const locked of Object.values(after?.tools ?? {}))
    for (const entry of Object.values(locked.endpoints)) effects[entry.effect]++;
  const added = [...now.keys()].filter((route) => !old.has(route)).sort();
  const removed = [...old.keys()].filter((route) => !now.has(route)).sort();
  const changed = [...now.keys()]
    .filter((route) => old.has(route) && old.get(route) !== now.get(route))
    .sort();
  const toolsChanged = Object.entries(after?.tools ?? {}).some(
    ([tool, locked]) => before?.tools[tool]?.fingerprint !== locked.fingerprint,
  );
  const status =
    after === undefined
      ? "removed"
      : before === undefined
        ? "new"
        : added.length + removed.length + changed.length > 0 || toolsChanged
          ? "changed"
          : "unchanged";
  return { source, status, endpoints: now.size, effects, added, removed, changed };
}

function unchanged(source: string, entry: LockedSource): SourceSummary {
  const effects: Record<Effect, number> = { read: 0, write: 0, destructive: 0, unclassified: 0 };
  let endpoints = 0;
  for (const locked of Object.values(entry.tools)) {
    for (const endpoint of Object.values(locked.endpoints)) {
      effects[endpoint.effect]++;
      endpoints++;
    }
  }
  return { source, status: "unchanged", endpoints, effects, added: [], removed: [], changed: [] };
}

export function formatSummary(summary: SourceSummary): string {
  const effects = Object.entries(summary.effects)
    .filter(([, count]) => count > 0)
    .map(([effect, count]) => `${count} ${effect}`)
    .join(", ");
  const head = `${summary.source}: ${summary.endpoints} endpoints${effects ? ` (${effects})` : ""} — ${summary.status}`;
  const lines = [head];
  const list = (label: string, items: readonly string[]) => {
    if (items.length === 0) return;
    const shown = items.slice(0, 10).join(", ");
    lines.push(
      `  ${label} ${items.length}: ${shown}${items.length > 10 ? `, … (+${items.length - 10})` : ""}`,
    );
  };
  list("+ added", summary.added);
  list("- removed", summary.removed);
  list("~ changed", summary.changed);
  return lines.join("\n");
}
