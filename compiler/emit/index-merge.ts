/**
 * The retrieval index's vocabulary and postings merged from runs of endpoints (docs/runtime/
 * retrieval-and-planning.md, "Stored index"; docs/sources/openapi.md, "Incremental compile"). A run
 * is a stretch of the project's endpoints whose postings come from one place: a source's surface
 * segment (surface-segments.ts), or a range of endpoints of the previous index when its sources did
 * not change. The merged index is canonical, a function of what the postings say and nothing else:
 *
 * - the vocabulary is every key that some endpoint has (plus the concept and unit keys of the
 *   same-field pairs kept), sorted in code-unit order, and a key's id is its position there;
 * - same-field pair keys follow, sorted by (concept id, unit id);
 * - a key's postings are its endpoints in ascending order, with its component mask on each, and its
 *   document frequency and key mask are counted from them (as `surfaceOfRows` counts them).
 *
 * So the index assembled from every source's segment, the index patched from the previous one with
 * the changed sources' segments, and `indexDataOf` over every endpoint at once canonicalised
 * (`runOfIndex` over all of it) are the same bytes. A key no endpoint has is left out: it has no
 * posting, no frequency and no mask, so no ranking reads it (runtime/retrieval/score.ts).
 */
import { DF_MASK, type RetrievalIndexData } from "schemarouter/internal";
import type { SurfaceSegment } from "./surface-segments.js";

/** One same-field pair key of a run, with its postings `[from, to)` in the run's arrays. */
interface RunPair {
  readonly concept: string;
  readonly unit: string;
  readonly from: number;
  readonly to: number;
}

/** A stretch of endpoints and the postings of its keys. */
export interface PostingRun {
  /** Number of endpoints in the run. */
  readonly endpoints: number;
  /** Distinct string keys with at least one posting in the run, sorted in code-unit order. */
  readonly keys: readonly string[];
  /** Postings of `keys[i]` are `postings[from[i] .. to[i])` minus `shift` (run-local, ascending). */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  readonly postings: Int32Array;
  readonly masks: Uint16Array;
  readonly shift: number;
  readonly pairs: readonly RunPair[];
}

/** The vocabulary and postings of an index (the rest of RetrievalIndexData is per source). */
export type MergedPostings = Pick<
  RetrievalIndexData,
  | "size"
  | "vocabulary"
  | "vocabularyIds"
  | "pairs"
  | "documentFrequency"
  | "keyMasks"
  | "postingStart"
  | "postings"
  | "postingMasks"
>;

const pairKey = (pair: { concept: string; unit: string }): string =>
  JSON.stringify([pair.concept, pair.unit]);

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The run of one source's segment: its rows turned into postings per key. */
export function runOfSegment(segment: SurfaceSegment): PostingRun {
  const { keys, ids, masks, starts } = segment;
  const endpoints = starts.length - 1;
  const start = new Uint32Array(keys.length + 1);
  for (let i = 0; i < ids.length; i++) start[ids[i]! + 1]!++;
  for (let k = 0; k < keys.length; k++) start[k + 1]! += start[k]!;
  const postings = new Int32Array(ids.length);
  const postingMasks = new Uint16Array(ids.length);
  const fill = start.slice(0, keys.length);
  for (let e = 0; e < endpoints; e++) {
    for (let i = starts[e]!; i < starts[e + 1]!; i++) {
      const at = fill[ids[i]!]!++;
      postings[at] = e;
      postingMasks[at] = masks[i]!;
    }
  }
  const strings: number[] = [];
  const pairs: RunPair[] = [];
  for (let local = 0; local < keys.length; local++) {
    if (start[local] === start[local + 1]) continue;
    const key = keys[local]!;
    if (typeof key === "string") strings.push(local);
    else
      pairs.push({
        concept: keys[key[0]] as string,
        unit: keys[key[1]] as string,
        from: start[local]!,
        to: start[local + 1]!,
      });
  }
  strings.sort((a, b) => byCodeUnit(keys[a] as string, keys[b] as string));
  return {
    endpoints,
    keys: strings.map((local) => keys[local] as string),
    from: Uint32Array.from(strings, (local) => start[local]!),
    to: Uint32Array.from(strings, (local) => start[local + 1]!),
    postings,
    masks: postingMasks,
    shift: 0,
    pairs,
  };
}

/** First position in `postings[from .. to)` (ascending) whose value is at least `value`. */
function lowerBound(postings: Int32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The run of endpoints `[first, end)` of a decoded index (any valid index: its ids may be in any order). */
export function runOfIndex(data: RetrievalIndexData, first: number, end: number): PostingRun {
  const { vocabulary, vocabularyIds, postingStart, postings } = data;
  const keys: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const range = (id: number): [number, number] => [
    lowerBound(postings, postingStart[id]!, postingStart[id + 1]!, first),
    lowerBound(postings, postingStart[id]!, postingStart[id + 1]!, end),
  ];
  const order = sortedPositions(vocabulary);
  for (const at of order) {
    const [lo, hi] = range(vocabularyIds[at]!);
    if (lo === hi) continue;
    keys.push(vocabulary[at]!);
    from.push(lo);
    to.push(hi);
  }
  const keyOf: string[] = new Array(data.size);
  for (let at = 0; at < vocabulary.length; at++) keyOf[vocabularyIds[at]!] = vocabulary[at]!;
  const pairs: RunPair[] = [];
  for (let at = 0; at < data.pairs.length; at += 3) {
    const [lo, hi] = range(data.pairs[at + 2]!);
    if (lo < hi)
      pairs.push({ concept: keyOf[data.pairs[at]!]!, unit: keyOf[data.pairs[at + 1]!]!, from: lo, to: hi });
  }
  return {
    endpoints: end - first,
    keys,
    from: Uint32Array.from(from),
    to: Uint32Array.from(to),
    postings,
    masks: data.postingMasks,
    shift: first,
    pairs,
  };
}

/** Positions of `keys` in code-unit order (the identity when they are sorted already, as written). */
function sortedPositions(keys: readonly string[]): number[] {
  const order = Array.from(keys, (_, at) => at);
  for (let at = 1; at < keys.length; at++) {
    if (!(keys[at - 1]! < keys[at]!)) return order.sort((a, b) => byCodeUnit(keys[a]!, keys[b]!));
  }
  return order;
}

/**
 * The distinct keys of sorted lists, sorted, and each list's keys' positions in it: a k-way merge
 * (a binary heap of list heads), so a few long lists cost one pass.
 */
function mergeSorted(lists: readonly (readonly string[])[]): { keys: string[]; ids: Uint32Array[] } {
  if (lists.length > HEAP_LISTS) return unionSorted(lists);
  const ids = lists.map((list) => new Uint32Array(list.length));
  const cursor = new Uint32Array(lists.length);
  const heap: number[] = [];
  const less = (a: number, b: number): boolean => {
    const x = lists[a]![cursor[a]!]!;
    const y = lists[b]![cursor[b]!]!;
    return x < y || (x === y && a < b);
  };
  const down = (from: number): void => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const child = right < heap.length && less(heap[right]!, heap[left]!) ? right : left;
      if (!less(heap[child]!, heap[at]!)) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  lists.forEach((list, l) => {
    if (list.length > 0) heap.push(l);
  });
  for (let at = (heap.length >> 1) - 1; at >= 0; at--) down(at);
  const keys: string[] = [];
  while (heap.length > 0) {
    const l = heap[0]!;
    const key = lists[l]![cursor[l]!]!;
    if (keys.length === 0 || keys[keys.length - 1] !== key) keys.push(key);
    ids[l]![cursor[l]!] = keys.length - 1;
    if (++cursor[l]! < lists[l]!.length) down(0);
    else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
      down(0);
    }
  }
  return { keys, ids };
}

/** Beyond this many lists, a set of every key sorted once is faster than a heap of list heads. */
const HEAP_LISTS = 16;

/** `mergeSorted` for many lists: every key into one set, sorted once, positions from a map. */
function unionSorted(lists: readonly (readonly string[])[]): { keys: string[]; ids: Uint32Array[] } {
  const all = new Set<string>();
  for (const list of lists) for (const key of list) all.add(key);
  // The default sort compares strings by UTF-16 code units, the order the vocabulary is kept in.
  const keys = [...all].sort();
  const at = new Map<string, number>();
  keys.forEach((key, i) => {
    at.set(key, i);
  });
  return { keys, ids: lists.map((list) => Uint32Array.from(list, (key) => at.get(key)!)) };
}

/** Postings of one key up to this many are copied element by element (views cost more below it). */
const SHORT_COPY = 32;

/** Merges runs (in endpoint order) into the canonical vocabulary and postings. */
export function mergeRuns(runs: readonly PostingRun[]): MergedPostings {
  // Same-field pairs first: their concept and unit keys stay in the vocabulary even without postings.
  const pairKeys = new Map<string, { concept: string; unit: string }>();
  for (const run of runs) {
    for (const pair of run.pairs) pairKeys.set(pairKey(pair), pair);
  }
  const referenced = [...new Set([...pairKeys.values()].flatMap((p) => [p.concept, p.unit]))].sort(
    byCodeUnit,
  );
  const merged = mergeSorted([...runs.map((run) => run.keys), referenced]);
  const vocabulary = merged.keys;
  const idOf = (key: string): number => {
    let lo = 0;
    let hi = vocabulary.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (vocabulary[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const pairList = [...pairKeys].map(([composite, pair]) => ({
    composite,
    concept: idOf(pair.concept),
    unit: idOf(pair.unit),
  }));
  pairList.sort((a, b) => a.concept - b.concept || a.unit - b.unit);
  const pairId = new Map(pairList.map((pair, at) => [pair.composite, vocabulary.length + at]));
  const size = vocabulary.length + pairList.length;
  const pairs = new Uint32Array(3 * pairList.length);
  pairList.forEach((pair, at) => {
    pairs.set([pair.concept, pair.unit, vocabulary.length + at], 3 * at);
  });
  const postingStart = new Uint32Array(size + 1);
  const pairIds = runs.map((run) => Uint32Array.from(run.pairs, (pair) => pairId.get(pairKey(pair))!));
  runs.forEach((run, r) => {
    const ids = merged.ids[r]!;
    for (let i = 0; i < run.keys.length; i++) postingStart[ids[i]! + 1]! += run.to[i]! - run.from[i]!;
    run.pairs.forEach((pair, i) => {
      postingStart[pairIds[r]![i]! + 1]! += pair.to - pair.from;
    });
  });
  for (let t = 0; t < size; t++) postingStart[t + 1]! += postingStart[t]!;
  const total = postingStart[size]!;
  const postings = new Int32Array(total);
  const postingMasks = new Uint16Array(total);
  const fill = postingStart.slice(0, size);
  let base = 0;
  runs.forEach((run, r) => {
    const offset = base - run.shift;
    const source = run.postings;
    const masks = run.masks;
    const copy = (id: number, from: number, to: number): void => {
      const at = fill[id]!;
      const count = to - from;
      if (count > SHORT_COPY) {
        postings.set(source.subarray(from, to), at);
        postingMasks.set(masks.subarray(from, to), at);
        if (offset !== 0) for (let p = at; p < at + count; p++) postings[p]! += offset;
      } else {
        // Most keys have a few postings: copied in place, without two views per key.
        for (let k = 0; k < count; k++) {
          postings[at + k] = source[from + k]! + offset;
          postingMasks[at + k] = masks[from + k]!;
        }
      }
      fill[id] = at + count;
    };
    const ids = merged.ids[r]!;
    for (let i = 0; i < run.keys.length; i++) copy(ids[i]!, run.from[i]!, run.to[i]!);
    run.pairs.forEach((pair, i) => {
      copy(pairIds[r]![i]!, pair.from, pair.to);
    });
    base += run.endpoints;
  });
  const documentFrequency = new Uint32Array(size);
  const keyMasks = new Uint16Array(size);
  for (let t = 0; t < size; t++) {
    let df = 0;
    let union = 0;
    for (let p = postingStart[t]!; p < postingStart[t + 1]!; p++) {
      const mask = postingMasks[p]!;
      union |= mask;
      if ((mask & DF_MASK) !== 0) df++;
    }
    documentFrequency[t] = df;
    keyMasks[t] = union;
  }
  return {
    size,
    vocabulary,
    vocabularyIds: Uint32Array.from(vocabulary, (_, at) => at),
    pairs,
    documentFrequency,
    keyMasks,
    postingStart,
    postings,
    postingMasks,
  };
}
