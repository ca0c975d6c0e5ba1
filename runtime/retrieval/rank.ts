/**
 * Ranking: hands endpoints to the one scorer and keeps the best under a total order. In index mode
 * only endpoints on the posting lists of the request's keys are scored; in exhaustive mode all are.
 * Every filter (effects, minimum score and coverage, readiness) applies identically in both modes.
 */
import {
  type CompiledQuery,
  compareScored,
  componentsOf,
  presentOf,
  type Scored,
  scoreEntry,
  scratch,
} from "./score.js";
import type { Catalog } from "./surface.js";

export interface RankFilter {
  readonly effects: ReadonlySet<string> | undefined;
  readonly isReady: ((tool: string) => boolean) | undefined;
  readonly minScore: number;
  readonly minCoverage: number;
}

/** Inserts into a list kept sorted by `compare`, bounded to `limit` items. */
function insertBounded(
  list: Scored[],
  item: Scored,
  limit: number,
  compare: (a: Scored, b: Scored) => number,
): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
  if (list.length > limit) list.pop();
}

const NO_COMPONENTS = Object.freeze({});

/** The best `limit` endpoints (all of them for an infinite limit), best first. */
export function rank(catalog: Catalog, query: CompiledQuery, filter: RankFilter, limit: number): Scored[] {
  const compare = (a: Scored, b: Scored): number => compareScored(catalog, a, b);
  const bounded = Number.isFinite(limit);
  const sums = scratch();
  const out: Scored[] = [];
  const consider = (index: number): void => {
    const entry = catalog.entries[index]!;
    if (filter.effects !== undefined && !filter.effects.has(entry.endpoint.effect)) return;
    const score = scoreEntry(catalog, index, query, sums);
    if (!(score > filter.minScore)) return;
    if (filter.minCoverage > 0 && presentOf(sums) < filter.minCoverage * query.tokens.length) return;
    if (filter.isReady !== undefined && !filter.isReady(entry.tool.name)) return;
    if (
      bounded &&
      out.length >= limit &&
      compare({ index, score, components: NO_COMPONENTS }, out[out.length - 1]!) >= 0
    ) {
      return;
    }
    const scored: Scored = { index, score, components: componentsOf(sums) };
    if (bounded) insertBounded(out, scored, limit, compare);
    else out.push(scored);
  };
  const { postings, postingStart } = catalog;
  if (postings === undefined || postingStart === undefined) {
    for (let index = 0; index < catalog.entries.length; index++) consider(index);
  } else {
    const seen = new Uint8Array(catalog.entries.length);
    for (const key of query.keys) {
      for (let p = postingStart[key]!; p < postingStart[key + 1]!; p++) {
        const index = postings[p]!;
        if (seen[index] === 1) continue;
        seen[index] = 1;
        consider(index);
      }
    }
  }
  if (!bounded) out.sort(compare);
  return out;
}
