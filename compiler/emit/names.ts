/**
 * Deterministic, collision-free TypeScript identifiers for generated bindings.
 */
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(
    " ",
  ),
);

function words(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "");
}

export function camelCase(value: string): string {
  const parts = words(value);
  const joined = parts
    .map((word, index) =>
      index === 0
        ? word.charAt(0).toLowerCase() + word.slice(1)
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join("");
  const safe = joined === "" ? "call" : /^[0-9]/.test(joined) ? `_${joined}` : joined;
  return RESERVED.has(safe) ? `${safe}_` : safe;
}

export function pascalCase(value: string): string {
  const camel = camelCase(value).replace(/_$/, "");
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** Hands out unique names: the first request for a base gets it, later ones get a numeric suffix. */
export class NameAllocator {
  private readonly used = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.used.add(name);
  }

  take(base: string): string {
    let name = base;
    for (let i = 2; this.used.has(name); i++) name = `${base}${i}`;
    this.used.add(name);
    return name;
  }
}
