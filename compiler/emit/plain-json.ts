/**
 * Whether a value is already exactly what `JSON.parse(JSON.stringify(value))` gives back
 * (docs/reference/formats.md, "Artifact"): the artifact must hold what a reader of its file parses, and
 * a source's result almost always is plain JSON data already. Checking that reads the value once and
 * allocates nothing, where the round trip copied the whole result (for the largest documents, a
 * string of hundreds of megabytes and a second copy of every schema).
 *
 * Plain means: `null`, a boolean, a string, a finite number other than -0, an array whose every index
 * holds a plain value (no holes, no other own keys), or an object whose prototype is `Object.prototype`,
 * whose own keys are all enumerable strings (no symbols, no hidden members) other than `toJSON`, and
 * whose values are all plain (no `undefined`, no functions). A value nested deeper than MAX_DEPTH (or
 * a cycle) is not called plain: the caller's round trip then decides, and a cycle fails there as it
 * always did.
 */

/** Far deeper than the documents the adapters accept (docs/sources/openapi.md, "Left out"). */
const MAX_DEPTH = 2048;

export function isPlainJson(value: unknown): boolean {
  return plain(value, 0);
}

function plain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    const length = value.length;
    for (let index = 0; index < length; index++)
      if (!(index in value) || !plain(value[index], depth + 1)) return false;
    // An array's own enumerable keys are its indices and nothing else (the round trip drops any other).
    return Object.keys(value).length === length;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (Reflect.ownKeys(record).length !== keys.length) return false;
  for (const key of keys) if (key === "toJSON" || !plain(record[key], depth + 1)) return false;
  return true;
}
