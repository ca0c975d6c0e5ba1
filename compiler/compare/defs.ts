/**
 * Shared definitions (`#/$defs/<name>`) of the two sides of a comparison: `$ref` resolution, and which
 * definitions are unchanged together with everything they reference (so equal subtrees are skipped).
 */

import type { JsonSchema } from "schemarouter/internal";
import { canonicalJson, decodePointerToken, directDefRefs } from "schemarouter/internal";

export type Defs = Readonly<Record<string, JsonSchema>>;

const DEF_PREFIX = "#/$defs/";

/** The definition name a `$ref` string names, or undefined for any other reference. */
export function defName(ref: string): string | undefined {
  return ref.startsWith(DEF_PREFIX) ? decodePointerToken(ref.slice(DEF_PREFIX.length)) : undefined;
}

export function lookupDef(defs: Defs, name: string): JsonSchema | undefined {
  return Object.hasOwn(defs, name) ? defs[name] : undefined;
}

/** Transitive closure of the definitions `roots` reference; unknown names are kept but not followed. */
export function defClosure(defs: Defs, roots: readonly unknown[]): Set<string> {
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const root of roots) for (const name of directDefRefs(root)) stack.push(name);
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = lookupDef(defs, name);
    if (def !== undefined) for (const next of directDefRefs(def)) if (!seen.has(next)) stack.push(next);
  }
  return seen;
}

/** The definitions of both sides, with the set of definitions that differ (directly or transitively). */
export class DefsPair {
  readonly before: Defs;
  readonly after: Defs;
  private readonly unstable: ReadonlySet<string>;

  constructor(before: Defs, after: Defs) {
    this.before = before;
    this.after = after;
    this.unstable = computeUnstable(before, after);
  }

  /** True when the definition is present and equal on both sides, and so is everything it references. */
  isStable(name: string): boolean {
    return !this.unstable.has(name);
  }

  /** True when `before` and `after` are the same JSON and every definition they reference is stable. */
  same(before: unknown, after: unknown): boolean {
    if (before === undefined || after === undefined) return before === after;
    if (before === after && (typeof before !== "object" || before === null)) return true;
    if (canonicalJson(before) !== canonicalJson(after)) return false;
    for (const name of directDefRefs(before)) if (!this.isStable(name)) return false;
    return true;
  }
}

function computeUnstable(before: Defs, after: Defs): Set<string> {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const unstable = new Set<string>();
  const referrers = new Map<string, string[]>();
  const queue: string[] = [];
  const mark = (name: string): void => {
    if (unstable.has(name)) return;
    unstable.add(name);
    queue.push(name);
  };
  for (const name of names) {
    const a = lookupDef(before, name);
    const b = lookupDef(after, name);
    for (const side of [a, b]) {
      if (side === undefined) continue;
      for (const target of directDefRefs(side)) {
        const list = referrers.get(target) ?? [];
        list.push(name);
        referrers.set(target, list);
      }
    }
    if (a === undefined || b === undefined || canonicalJson(a) !== canonicalJson(b)) mark(name);
  }
  // A name defined on neither side resolves identically (not at all) on both: it stays stable.
  while (queue.length > 0) {
    const name = queue.pop()!;
    for (const referrer of referrers.get(name) ?? []) mark(referrer);
  }
  return unstable;
}
