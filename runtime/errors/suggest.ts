/**
 * "Did you mean …?": the known names nearest to a mistyped one, by edit distance (docs/common-mistakes.md): used by the runtime
 * (binding keys) and the compiler (config keys, CLI routes).
 */

/** Levenshtein distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * Up to `limit` names from `known` nearest to `name` (a substring counts as near): those within one
 * edit of the best match, nearest first, ties in `known` order. Names too far away to be a typo are
 * left out.
 */
export function nearestNames(name: string, known: readonly string[], limit = 3): string[] {
  const lower = name.toLowerCase();
  const scored = known.map((candidate, index) => {
    const other = candidate.toLowerCase();
    const contains = lower.length >= 3 && (other.includes(lower) || lower.includes(other));
    const distance = contains ? 0.5 : editDistance(name, candidate);
    return { candidate, index, distance };
  });
  const best = Math.min(...scored.map((entry) => entry.distance));
  const cutoff = Math.min(Math.max(2, Math.ceil(name.length / 3)), best + 1);
  return scored
    .filter((entry) => entry.distance <= cutoff)
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
