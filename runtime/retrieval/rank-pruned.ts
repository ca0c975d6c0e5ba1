/**
 * Top-k ranking over the inverted index that scores exactly only the endpoints that could enter the
 * top k (docs/runtime/retrieval-and-planning.md, "Stored index"). First every posting of the request's
 * keys adds to its endpoint a bound: what the one scorer gives that key alone with that component mask,
 * under the most favourable effect. An endpoint's summed bound is at least its real score, because the
 * scorer's total grows with the sum of what each key adds (score.ts: a sum of components, coverage a
 * share per present token, the intent bonus a share of the sum). Then endpoints are scored exactly,
 * highest bound first, until the next bound is below the k-th exact score (with slack for rounding):
 * no endpoint left can enter the top k. Every endpoint that is scored gets exactly the row exhaustive
 * scoring gives it (its masks read from the posting lists, the terms applied in query order), so the
 * top k, their scores and order are bit-identical; the bounds only decide what is not scored. A query
 * with a negative weight (a term that could lower a score) is ranked without skipping. The parity
 * property test and the scale benchmark compare this ranking with exhaustive scoring.
 */
import { EFFECTS } from "../model/specs.js";
import { applyTerm, type CompiledQuery, finishRow, normsOf, STRIDE } from "./score.js";
import type { Catalog } from "./surface.js";

/** Bounds are compared with this relative slack (summation order differs from a real row's). */
const SLACK = 1e-9;
/** Endpoints scored exactly per round, as a multiple of k. */
const ROUND = 4;

export type Visit = (index: number, score: number, sums: Float64Array, offset: number) => void;

/** Distinct component masks on each key's posting list, per catalog (computed on first need). */
const distinctMasks = new WeakMap<Catalog, Map<number, Uint16Array>>();

function masksOf(catalog: Catalog, id: number): Uint16Array {
  let byId = distinctMasks.get(catalog);
  if (byId === undefined) {
    byId = new Map();
    distinctMasks.set(catalog, byId);
  }
  let masks = byId.get(id);
  if (masks === undefined) {
    const seen = new Uint8Array(1 << 16);
    const found: number[] = [];
    const all = catalog.postingMasks!;
    for (let p = catalog.postingStart![id]!; p < catalog.postingStart![id + 1]!; p++) {
      const mask = all[p]!;
      if (seen[mask] === 0) {
        seen[mask] = 1;
        found.push(mask);
      }
    }
    masks = Uint16Array.from(found.sort((a, b) => a - b));
    byId.set(id, masks);
  }
  return masks;
}

/** True when no term can lower a score (every weight is non-negative). */
function monotone(query: CompiledQuery): boolean {
  for (const term of query.terms) {
    if (!(term.weight >= 0)) return false;
    if (term.weights !== undefined) for (const w of term.weights) if (!(w >= 0)) return false;
  }
  return true;
}

/** Per-catalog scratch: one bound per endpoint and the list of endpoints with a bound. */
interface Scratch {
  /** Set while a ranking uses it (a readiness callback that retrieves again gets its own). */
  busy: boolean;
  readonly bound: Float64Array;
  readonly touched: Int32Array;
  /** The endpoints the rounds still consider (compacted each round). */
  readonly live: Int32Array;
  readonly scored: Uint8Array;
  readonly table: Float64Array;
}

const scratches = new WeakMap<Catalog, Scratch>();

function scratchOf(catalog: Catalog): Scratch {
  let scratch = scratches.get(catalog);
  if (scratch === undefined || scratch.busy) {
    const n = catalog.entries.length;
    const fresh = scratch !== undefined;
    scratch = {
      busy: false,
      bound: new Float64Array(n),
      touched: new Int32Array(n),
      live: new Int32Array(n),
      scored: new Uint8Array(n),
      table: new Float64Array(1 << 16),
    };
    if (!fresh) scratches.set(catalog, scratch);
  }
  return scratch;
}

/** The position of `doc` on [from, to) of the ascending `postings`, or -1. */
function find(postings: Int32Array, from: number, to: number, doc: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < to && postings[lo] === doc ? lo : -1;
}

/**
 * Scores (through `visit`) every endpoint that could reach `threshold()` — the k-th score so far, or
 * the minimum score — and no endpoint that scores zero. `threshold` may rise between visits. Returns
 * false (visiting nothing) when the query is not monotone; the caller then ranks without skipping.
 */
export function visitPruned(
  catalog: Catalog,
  query: CompiledQuery,
  limit: number,
  threshold: () => number,
  admit: (index: number) => boolean,
  visit: Visit,
  effectOf: (index: number) => string,
): boolean {
  if (!monotone(query)) return false;
  const terms = query.terms;
  const postings = catalog.postings!;
  const postingMasks = catalog.postingMasks!;
  const starts = catalog.postingStart!;
  const scratch = scratchOf(catalog);
  const { bound, touched, live, scored, table } = scratch;
  scratch.busy = true;
  const row = new Float64Array(STRIDE);
  const copy = new Float64Array(STRIDE);
  // Bounds use each component's largest length factor, which no endpoint's factor exceeds.
  const norms = normsOf(catalog);
  let count = 0;
  try {
    for (const term of terms) {
      const masks = masksOf(catalog, term.id);
      for (const mask of masks) {
        row.fill(0);
        applyTerm(term, mask, row, 0);
        let best = 0;
        for (const effect of EFFECTS) {
          copy.set(row);
          const total = finishRow(copy, 0, query, effect, norms.favourable, 0);
          if (total > best) best = total;
        }
        table[mask] = best;
      }
      for (let p = starts[term.id]!; p < starts[term.id + 1]!; p++) {
        const doc = postings[p]!;
        if (bound[doc] === 0) touched[count++] = doc;
        // A posting whose mask adds nothing keeps its endpoint untouched only if it had no bound.
        bound[doc]! += table[postingMasks[p]!]! + Number.MIN_VALUE;
      }
      for (const mask of masks) table[mask] = 0;
    }
    const score = (doc: number): void => {
      scored[doc] = 1;
      if (!admit(doc)) return;
      row.fill(0);
      for (const term of terms) {
        const at = find(postings, starts[term.id]!, starts[term.id + 1]!, doc);
        if (at >= 0) applyTerm(term, postingMasks[at]!, row, 0);
      }
      visit(doc, finishRow(row, 0, query, effectOf(doc), norms.factorsOf(doc), 0), row, 0);
    };
    const within = (doc: number): boolean => bound[doc]! * (1 + SLACK) >= threshold();
    // Rounds: the best-bounded unscored endpoints first, until none left can reach the threshold.
    // Each round keeps only the endpoints still within reach (a bound is fixed and the threshold
    // only rises, so an endpoint out of reach once stays out), so later rounds scan fewer.
    const round = Math.max(1, limit * ROUND);
    const heap: number[] = [];
    let n = count;
    live.set(touched.subarray(0, count));
    for (;;) {
      heap.length = 0;
      let kept = 0;
      // The threshold of this scan (it only rises while the heap is scored, never during a scan).
      const reach = threshold();
      for (let j = 0; j < n; j++) {
        const doc = live[j]!;
        if (scored[doc] === 1 || bound[doc]! * (1 + SLACK) < reach) continue;
        live[kept++] = doc;
        if (heap.length < round) pushHeap(heap, bound, doc);
        else if (bound[doc]! > bound[heap[0]!]!) replaceTop(heap, bound, doc);
      }
      if (heap.length === 0) return true;
      n = kept;
      heap.sort((a, b) => bound[b]! - bound[a]! || a - b);
      for (const doc of heap) if (within(doc)) score(doc);
    }
  } finally {
    scratch.busy = false;
    for (let j = 0; j < count; j++) {
      bound[touched[j]!] = 0;
      scored[touched[j]!] = 0;
    }
  }
}

/** A min-heap of endpoints by bound (the weakest of the best at the top). */
function pushHeap(heap: number[], bound: Float64Array, doc: number): void {
  let at = heap.push(doc) - 1;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (bound[heap[parent]!]! <= bound[doc]!) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = doc;
}

function replaceTop(heap: number[], bound: Float64Array, doc: number): void {
  let at = 0;
  const n = heap.length;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && bound[heap[right]!]! < bound[heap[left]!]! ? right : left;
    if (bound[heap[child]!]! >= bound[doc]!) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = doc;
}
