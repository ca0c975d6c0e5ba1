/**
 * Ranking: scores endpoints with the one scorer and keeps the best under a total order. Exhaustive
 * mode scores every endpoint from its surface row. Index mode walks the posting lists of the request's
 * keys block by block (endpoints in ascending windows of BLOCK), applying each key's mask to a per-
 * endpoint row in the same key order, so each endpoint gets exactly the row, and the bit-identical
 * total, that exhaustive mode computes; endpoints on no posting list are never touched (they score
 * 0). A bounded ranking (top k) over the index also skips endpoints whose best possible score cannot
 * reach the k-th (rank-pruned.ts), with the same rows for those it scores. Every filter (effects,
 * minimum score and coverage, readiness) applies identically in both modes.
 */

import { visitPruned } from "./rank-pruned.js";
import {
  applyTerm,
  type CompiledQuery,
  compareScored,
  componentsOf,
  finishRow,
  normsOf,
  presentOf,
  type Scored,
  STRIDE,
  scoreEntry,
  scratch,
} from "./score.js";
import { type Catalog, effectOf } from "./surface.js";

export interface RankFilter {
  readonly effects: ReadonlySet<string> | undefined;
  readonly isReady: ((tool: string) => boolean) | undefined;
  readonly minScore: number;
  readonly minCoverage: number;
}

/** Endpoints per accumulation window in index mode (bounds the scratch rows to BLOCK × STRIDE). */
const BLOCK = 1024;

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

type Consider = (index: number, score: number, sums: Float64Array, offset: number) => void;

/** Index mode: accumulates rows from the posting lists, one window of endpoints at a time. */
function accumulate(
  catalog: Catalog,
  query: CompiledQuery,
  admit: (index: number) => boolean,
  consider: Consider,
): void {
  const postings = catalog.postings!;
  const masks = catalog.postingMasks!;
  const starts = catalog.postingStart!;
  const terms = query.terms;
  const cursor = new Uint32Array(terms.length);
  const end = new Uint32Array(terms.length);
  terms.forEach((term, i) => {
    cursor[i] = starts[term.id]!;
    end[i] = starts[term.id + 1]!;
  });
  const norms = normsOf(catalog);
  const width = Math.min(BLOCK, catalog.entries.length);
  const rows = new Float64Array(width * STRIDE);
  const touched = new Int32Array(width);
  const marked = new Uint8Array(width);
  for (;;) {
    let base = catalog.entries.length;
    for (let i = 0; i < terms.length; i++) {
      if (cursor[i]! < end[i]! && postings[cursor[i]!]! < base) base = postings[cursor[i]!]!;
    }
    if (base === catalog.entries.length) return;
    const stop = base + width;
    let count = 0;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let p = cursor[i]!;
      const last = end[i]!;
      for (; p < last; p++) {
        const local = postings[p]! - base;
        if (local >= width) break;
        if (marked[local] === 0) {
          marked[local] = 1;
          touched[count++] = local;
        }
        applyTerm(term, masks[p]!, rows, local * STRIDE);
      }
      cursor[i] = p;
    }
    for (let j = 0; j < count; j++) {
      const local = touched[j]!;
      const offset = local * STRIDE;
      const index = base + local;
      if (admit(index))
        consider(
          index,
          finishRow(rows, offset, query, effectOf(catalog, index), norms.factorsOf(index), 0),
          rows,
          offset,
        );
      for (let slot = offset; slot < offset + STRIDE; slot++) rows[slot] = 0;
      marked[local] = 0;
    }
    if (stop >= catalog.entries.length) return;
  }
}

/** The best `limit` endpoints (all of them for an infinite limit), best first. */
export function rank(catalog: Catalog, query: CompiledQuery, filter: RankFilter, limit: number): Scored[] {
  const compare = (a: Scored, b: Scored): number => compareScored(catalog, a, b);
  const bounded = Number.isFinite(limit);
  const out: Scored[] = [];
  const admit = (index: number): boolean =>
    filter.effects === undefined || filter.effects.has(effectOf(catalog, index));
  const consider: Consider = (index, score, sums, offset) => {
    if (!(score > filter.minScore)) return;
    if (filter.minCoverage > 0 && presentOf(sums, offset) < filter.minCoverage * query.tokens.length) return;
    if (filter.isReady !== undefined && !filter.isReady(catalog.toolNames[index]!)) return;
    if (
      bounded &&
      out.length >= limit &&
      compare({ index, score, components: NO_COMPONENTS }, out[out.length - 1]!) >= 0
    ) {
      return;
    }
    const scored: Scored = { index, score, components: componentsOf(sums, offset) };
    if (bounded) insertBounded(out, scored, limit, compare);
    else out.push(scored);
  };
  if (catalog.postings === undefined) {
    const sums = scratch();
    for (let index = 0; index < catalog.entries.length; index++) {
      if (admit(index)) consider(index, scoreEntry(catalog, index, query, sums), sums, 0);
    }
  } else {
    // A bounded ranking skips endpoints that cannot reach the k-th score (rank-pruned.ts).
    const threshold = (): number => (out.length >= limit ? out[out.length - 1]!.score : filter.minScore);
    const pruned =
      bounded && visitPruned(catalog, query, limit, threshold, admit, consider, (i) => effectOf(catalog, i));
    if (!pruned) accumulate(catalog, query, admit, consider);
  }
  if (!bounded) out.sort(compare);
  return out;
}
