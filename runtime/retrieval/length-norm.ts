/**
 * Length normalisation of the lexical components (docs/runtime/retrieval-and-planning.md, "Scoring"):
 * BM25's, for a token present once. An endpoint whose component holds `len` distinct tokens, against
 * an average of `avg` over the endpoints that have that component, gets the factor
 *   (k1 + 1) / (1 + k1 · (1 − b + b · len / avg))
 * on that component's sum: 1 at the average, above 1 for a short name or summary that a request
 * explains well, below 1 for one that matches because it says everything. The lengths are the
 * surface's own: a stored index carries them (`componentLengths`, counted by the compiler with
 * `componentLengthsOfRows` from the same rows its postings come from, docs/reference/formats.md), an
 * in-memory surface counts them from its rows or posting lists; the averages are taken over the
 * catalog at its first ranking, so the factors are the same in every mode. `favourable` is each
 * component's largest factor in the catalog: a bound that no endpoint's factor exceeds (rank-pruned.ts).
 */
import type { Surface } from "./surface.js";
import { LEXICAL_MASK } from "./surface-builder.js";

/** BM25's term-frequency saturation constant. */
export const LENGTH_K1 = 1.2;

/** The components whose lengths a stored index holds, in column order: every lexical bit, ascending. */
export const LENGTH_BITS: readonly number[] = Array.from({ length: 16 }, (_, i) => 1 << i).filter(
  (bit) => (LEXICAL_MASK & bit) !== 0,
);

export interface LengthNorms {
  /** Components per endpoint. */
  readonly width: number;
  /**
   * Endpoint e's factors, in the order of `bits`, in an array this object reuses (read it before the
   * next call). Computed on demand from e's lengths and the catalog's averages, by the same
   * expression in every mode, so the same lengths give the same bits.
   */
  factorsOf(e: number): Float64Array;
  /** Per component, the largest factor of any endpoint. */
  readonly favourable: Float64Array;
}

const cache = new WeakMap<Surface, LengthNorms>();

/**
 * Distinct tokens per (endpoint, component) of surface rows: endpoint e's masks are
 * `masks[starts[e] .. starts[e + 1])`; endpoint e's count for `bits[c]` is at `e * bits.length + c`.
 */
export function componentLengthsOfRows(
  masks: Uint16Array,
  starts: ArrayLike<number>,
  bits: readonly number[],
): Uint32Array {
  const width = bits.length;
  const endpoints = starts.length - 1;
  const out = new Uint32Array(Math.max(endpoints, 0) * width);
  for (let e = 0; e < endpoints; e++) {
    const at = e * width;
    for (let i = starts[e]!; i < starts[e + 1]!; i++) {
      const mask = masks[i]!;
      for (let c = 0; c < width; c++) if ((mask & bits[c]!) !== 0) out[at + c]!++;
    }
  }
  return out;
}

/** The same counts from posting lists (`postings[i]` the endpoint whose mask is `postingMasks[i]`). */
function componentLengthsOfPostings(
  postings: Int32Array,
  postingMasks: Uint16Array,
  endpoints: number,
  bits: readonly number[],
): Uint32Array {
  const width = bits.length;
  const out = new Uint32Array(endpoints * width);
  let any = 0;
  for (const bit of bits) any |= bit;
  for (let i = 0; i < postingMasks.length; i++) {
    const mask = postingMasks[i]!;
    if ((mask & any) === 0) continue;
    const at = postings[i]! * width;
    for (let c = 0; c < width; c++) if ((mask & bits[c]!) !== 0) out[at + c]!++;
  }
  return out;
}

/** Where the lengths of `bits` are: an array, its row width, and each bit's column (-1: not needed). */
interface LengthTable {
  readonly lengths: Uint32Array;
  readonly stride: number;
  readonly columns: readonly number[];
}

function lengthTable(
  surface: Surface,
  endpoints: number,
  bits: readonly number[],
  b: readonly number[],
): LengthTable {
  const stored = surface.componentLengths;
  if (stored !== undefined && stored.counts.length === endpoints * stored.bits.length) {
    const columns = bits.map((bit, c) => (b[c]! > 0 ? stored.bits.indexOf(bit) : -1));
    if (columns.every((column, c) => column >= 0 || !(b[c]! > 0))) {
      return { lengths: stored.counts, stride: stored.bits.length, columns };
    }
  }
  const columns = bits.map((_, c) => c);
  if (surface.surfaceStart.length === endpoints + 1) {
    return {
      lengths: componentLengthsOfRows(surface.surfaceMasks, surface.surfaceStart, bits),
      stride: bits.length,
      columns,
    };
  }
  if (surface.postings === undefined || surface.postingMasks === undefined) {
    return { lengths: new Uint32Array(endpoints * bits.length), stride: bits.length, columns };
  }
  return {
    lengths: componentLengthsOfPostings(surface.postings, surface.postingMasks, endpoints, bits),
    stride: bits.length,
    columns,
  };
}

/** BM25's factor of a component of `length` distinct tokens against an average of `average`. */
function factorOf(length: number, average: number, b: number): number {
  return (LENGTH_K1 + 1) / (1 + LENGTH_K1 * (1 - b + (b * length) / average));
}

/**
 * The factors of `surface` (`endpoints` endpoints) for the components `bits`, each with its `b`
 * (0: not normalised). The averages are computed once per surface, in one pass over the lengths of
 * the normalised components; each endpoint's factors when a ranking scores it.
 */
export function lengthNorms(
  surface: Surface,
  endpoints: number,
  bits: readonly number[],
  b: readonly number[],
): LengthNorms {
  const known = cache.get(surface);
  if (known !== undefined) return known;
  const width = bits.length;
  const { lengths, stride, columns } = lengthTable(surface, endpoints, bits, b);
  const favourable = new Float64Array(width).fill(1);
  // The normalised components: their position in `bits`, column in `lengths`, b and average.
  const normalised: { c: number; column: number; b: number; average: number }[] = [];
  for (let c = 0; c < width; c++) {
    if (!(b[c]! > 0)) continue;
    const column = columns[c]!;
    let total = 0;
    let having = 0;
    let shortest = Number.POSITIVE_INFINITY;
    for (let e = 0; e < endpoints; e++) {
      const l = lengths[e * stride + column]!;
      if (l > 0) {
        total += l;
        having++;
        if (l < shortest) shortest = l;
      }
    }
    if (having === 0) continue;
    const average = total / having;
    normalised.push({ c, column, b: b[c]!, average });
    // The factor only falls as the length grows (every step of it is rounded monotonically), so the
    // shortest length has the largest.
    favourable[c] = Math.max(1, factorOf(shortest, average, b[c]!));
  }
  const out = new Float64Array(width).fill(1);
  const factorsOf = (e: number): Float64Array => {
    for (const { c, column, b, average } of normalised) {
      const l = lengths[e * stride + column]!;
      out[c] = l === 0 ? 1 : factorOf(l, average, b);
    }
    return out;
  };
  const norms = { width, factorsOf, favourable };
  cache.set(surface, norms);
  return norms;
}
