/**
 * A bound on how deeply a remote document may nest the values the compiler keeps (schemas, property
 * definitions): deeper values cannot be fingerprinted or emitted without overflowing the call stack,
 * so they are refused with the limit and the pointer named (docs/sources/openapi.md, "Left out").
 */

/** Deepest nesting of a kept value (a schema 256 objects deep is far past any real document). */
export const MAX_DOCUMENT_DEPTH = 256;

/** The JSON Pointer of the first value nested deeper than `max` below `value`, or undefined. Iterative. */
export function tooDeepAt(value: unknown, max = MAX_DOCUMENT_DEPTH): string | undefined {
  const pending: [unknown, string, number][] = [[value, "", 0]];
  while (pending.length > 0) {
    const [current, at, depth] = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= max) return at;
    const entries = Array.isArray(current)
      ? current.map((item, index) => [String(index), item] as const)
      : Object.entries(current);
    for (const [key, child] of entries)
      if (child !== null && typeof child === "object")
        pending.push([child, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1]);
  }
  return undefined;
}
