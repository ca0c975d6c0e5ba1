/** Deep freezing of contracts, calls and events, so what the runtime hands out cannot be changed. */

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Indexed and keyed loops instead of Object.values: no array per object (cold-start cost).
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) deepFreeze(value[index] as unknown);
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) deepFreeze(record[key]);
    }
  }
  return value;
}
