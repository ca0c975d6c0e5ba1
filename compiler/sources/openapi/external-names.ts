/**
 * Stable `$defs` names for the targets of external `$ref`s (docs/sources/openapi-external-refs.md).
 * A name is the shortest tail of "directories, file stem, pointer" that no other target shares and
 * that no component schema of the root document already uses: `schemas/Pet.yaml` → `Pet`,
 * `common.yaml#/components/schemas/Error` → `Error`, and `v1/Pet.yaml` beside `v2/Pet.yaml` →
 * `v1_Pet` / `v2_Pet`. Names depend on the set of targets only, never on the order they were found.
 */

export interface ExternalTarget {
  /** Unique identity: document key, "#", JSON pointer. */
  readonly fullKey: string;
  /** The document's path relative to the root document's directory. */
  readonly key: string;
  /** The decoded JSON pointer tokens inside that document. */
  readonly tokens: readonly string[];
}

/** fullKey → name, for every target; names are distinct and not in `reserved`. */
export function externalDefNames(
  targets: readonly ExternalTarget[],
  reserved: ReadonlySet<string>,
): Map<string, string> {
  const labels = new Map(targets.map((target) => [target.fullKey, labelsOf(target)] as const));
  const lengths = new Map(targets.map((target) => [target.fullKey, shortestTail(target)] as const));
  const nameOf = (target: ExternalTarget): string => {
    const all = labels.get(target.fullKey)!;
    return sanitize(all.slice(all.length - lengths.get(target.fullKey)!).join("_"));
  };
  // Every target of a clash takes one more label, until no clash can be resolved that way.
  for (let grew = true; grew; ) {
    grew = false;
    for (const members of clashes(targets, nameOf, reserved)) {
      for (const member of members) {
        const length = lengths.get(member.fullKey)!;
        if (length < labels.get(member.fullKey)!.length) {
          lengths.set(member.fullKey, length + 1);
          grew = true;
        }
      }
    }
  }
  const names = new Map<string, string>();
  const taken = new Set(reserved);
  const sorted = [...targets].sort((a, b) => (a.fullKey < b.fullKey ? -1 : a.fullKey > b.fullKey ? 1 : 0));
  const clashing = new Set(clashes(targets, nameOf, reserved).flat());
  for (const target of sorted) {
    if (clashing.has(target)) continue;
    names.set(target.fullKey, nameOf(target));
    taken.add(nameOf(target));
  }
  // What still clashes (same labels after sanitizing) gets a numeric suffix, in fullKey order.
  for (const target of sorted) {
    if (!clashing.has(target)) continue;
    const base = nameOf(target);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    taken.add(name);
    names.set(target.fullKey, name);
  }
  return names;
}

function clashes(
  targets: readonly ExternalTarget[],
  nameOf: (target: ExternalTarget) => string,
  reserved: ReadonlySet<string>,
): ExternalTarget[][] {
  const groups = new Map<string, ExternalTarget[]>();
  for (const target of targets) {
    const name = nameOf(target);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [target]);
    else group.push(target);
  }
  return [...groups].filter(([name, group]) => group.length > 1 || reserved.has(name)).map(([, g]) => g);
}

/** Directories, file stem and the meaningful pointer tokens, outermost first. */
function labelsOf(target: ExternalTarget): string[] {
  const segments = target.key
    .split("/")
    .map(safeDecode)
    .filter((segment) => segment !== "" && segment !== ".")
    .map((segment) => (segment === ".." ? "parent" : segment));
  const last = segments.length - 1;
  if (last >= 0) segments[last] = segments[last]!.replace(/\.(ya?ml|json)$/i, "") || segments[last]!;
  const labels = [...segments, ...pointerLabels(target.tokens)];
  return labels.length > 0 ? labels : ["external"];
}

/** How many trailing labels the name starts with: the pointer's, or the file stem. */
function shortestTail(target: ExternalTarget): number {
  return Math.max(1, pointerLabels(target.tokens).length);
}

/** `/components/<kind>/<name>` and `/$defs|definitions/<name>` are named by `<name>` alone. */
function pointerLabels(tokens: readonly string[]): readonly string[] {
  if (tokens.length === 3 && tokens[0] === "components") return [tokens[2]!];
  if (tokens.length === 2 && (tokens[0] === "$defs" || tokens[0] === "definitions")) return [tokens[1]!];
  return tokens;
}

function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "_");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
