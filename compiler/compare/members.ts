/**
 * Helpers over contract members: union of keys, name maps, and the catch-all for members this rule
 * version does not know (any change to them is breaking).
 */
import { canonical } from "./context.js";
import { draft, type Emit, pointerOf } from "./report.js";

export function byName<T extends { readonly name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.name, item]));
}

export function unionKeys(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** Members this rule version does not know: any change is breaking. */
export function diffUnknownKeys(
  a: object,
  b: object,
  known: ReadonlySet<string>,
  emit: Emit,
  prefix = "",
): void {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of unionKeys(a, b)) {
    if (known.has(key) || canonical(ra[key]) === canonical(rb[key])) continue;
    emit(
      draft(
        `${prefix}${pointerOf(key)}`,
        "contract.unknown-change",
        `member "${key}" changed; this rule version does not know it`,
        ra[key],
        rb[key],
      ),
    );
  }
}
