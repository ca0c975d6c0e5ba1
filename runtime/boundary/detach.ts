/**
 * Detached call arguments: one deep, frozen copy of what the caller passed, made once per call and
 * shared by every later step (checks, re-checks, retries, invokers), so nothing the caller or an
 * invoker does afterwards can change what was checked.
 */
import { deepFreeze } from "../model/freeze.js";

/**
 * A deep, frozen copy of call arguments (structured clone: plain JSON data, no functions or
 * prototypes). Frozen, one copy serves every later step of the call (checks, retries, invokers)
 * without being copied again (the governed runner hands it to preflight as detached, see
 * Executor.prepareDetached); a caller mutating its own object afterwards changes nothing.
 * Throws what structuredClone throws for data that cannot be copied.
 */
export function detachArguments(args: unknown): Readonly<Record<string, unknown>> {
  try {
    return plainCopy(args ?? {}, 0) as Readonly<Record<string, unknown>>;
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    return deepFreeze(structuredClone(args ?? {})) as Readonly<Record<string, unknown>>;
  }
}

const NOT_PLAIN = Symbol("not plain JSON data");
const MAX_PLAIN_DEPTH = 32;

/**
 * The structured clone of plain JSON data (objects with Object or null prototypes, arrays, strings,
 * numbers, booleans, null, undefined), made in JS and frozen as it is made, which for the small
 * argument objects of tool calls is several times cheaper than structuredClone and a deepFreeze. Anything else (Dates, Maps, class instances,
 * functions, very deep or cyclic data) throws NOT_PLAIN, and the caller uses structuredClone itself.
 */
function plainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    const type = typeof value;
    if (type === "string" || type === "number" || type === "boolean" || value == null) return value;
    throw NOT_PLAIN;
  }
  if (depth >= MAX_PLAIN_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw NOT_PLAIN;
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) throw NOT_PLAIN;
      out.push(plainCopy(value[index], depth + 1));
    }
    return Object.freeze(out);
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainCopy((value as Record<string, unknown>)[key], depth + 1);
    // `__proto__` stays an own data property, as structuredClone keeps it.
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    } else out[key] = item;
  }
  return Object.freeze(out);
}
