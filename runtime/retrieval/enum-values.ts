/**
 * The string values a parameter's schema enumerates, read by ranking (runtime/retrieval/surface-builder.ts:
 * they are parameter words) and by route()'s coverage terms (docs/runtime/retrieval-and-planning.md,
 * "Coverage terms").
 */

/** Deepest schema nesting read for enum values (a parameter's body object and its items). */
const ENUM_DEPTH = 4;

/**
 * The string values a parameter schema enumerates (`enum`, `const`), in its properties, items and
 * alternatives down to ENUM_DEPTH levels; values of 40 characters or more are data, not words. What a
 * parameter accepts says what the endpoint does: `state: closed` on `issues/update` ("close an issue").
 */
export function enumValues(schema: unknown, depth: number): string[] {
  if (typeof schema !== "object" || schema === null || depth > ENUM_DEPTH) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const word = (v: unknown): void => {
    if (typeof v === "string" && v.length < 40) out.push(v);
  };
  if (Array.isArray(s.enum)) for (const v of s.enum) word(v);
  word(s.const);
  const nested: unknown[] = [];
  if (typeof s.properties === "object" && s.properties !== null) nested.push(...Object.values(s.properties));
  if (s.items !== undefined) nested.push(s.items);
  for (const key of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(s[key])) nested.push(...(s[key] as unknown[]));
  for (const child of nested) out.push(...enumValues(child, depth + 1));
  return out;
}
