/**
 * The version ranges plugin allowlists take (docs/plugins.md, "The allowlist"): an exact `x.y.z`,
 * `^x.y.z` (same left-most non-zero part) or `~x.y.z` (same major and minor). Pre-release and build
 * versions never satisfy a range. Used by the compiler's source plugins and the runtime's decision
 * plugins alike.
 */
type Version = readonly [number, number, number];

function parseVersion(text: string): Version | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

export function satisfiesRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  const operator = range.startsWith("^") ? "^" : range.startsWith("~") ? "~" : "";
  const base = parseVersion(range.slice(operator.length));
  if (v === undefined || base === undefined) return false;
  if (operator === "") return compare(v, base) === 0;
  if (compare(v, base) < 0) return false;
  if (operator === "~") return v[0] === base[0] && v[1] === base[1];
  if (base[0] > 0) return v[0] === base[0];
  if (base[1] > 0) return v[0] === 0 && v[1] === base[1];
  return v[0] === 0 && v[1] === 0 && v[2] === base[2];
}
