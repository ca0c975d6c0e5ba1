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
  /** Endpoint e's factors are `factors[e * width .. (e + 1) * width)`, in the order of `bits`. */
  readonly factors: Float64Array;
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

/**
 * The factors of `surface` (`endpoints` endpoints) for the components `bits`, each with its `b`
 * (0: not normalised). Computed once per surface.
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
  const factors = new Float64Array(endpoints * width).fill(1);
  const favourable = new Float64Array(width).fill(1);
  for (let c = 0; c < width; c++) {
    if (!(b[c]! > 0)) continue;
    const column = columns[c]!;
    let total = 0;
    let having = 0;
    for (let e = 0; e < endpoints; e++) {
      const l = lengths[e * stride + column]!;
      if (l > 0) {
        total += l;
        having++;
      }
    }
    if (having === 0) continue;
    const avg = total / having;
    for (let e = 0; e < endpoints; e++) {
      const l = lengths[e * stride + column]!;
      if (l === 0) continue;
      const factor = (LENGTH_K1 + 1) / (1 + LENGTH_K1 * (1 - b[c]! + (b[c]! * l) / avg));
      factors[e * width + c] = factor;
      if (factor > favourable[c]!) favourable[c] = factor;
    }
  }
  const norms = { width, factors, favourable };
  cache.set(surface, norms);
  return norms;
}
