/**
 * Length normalisation of the lexical components (docs/runtime/retrieval-and-planning.md, "Scoring"):
 * BM25's, for a token present once. An endpoint whose component holds `len` distinct tokens, against
 * an average of `avg` over the endpoints that have that component, gets the factor
 *   (k1 + 1) / (1 + k1 · (1 − b + b · len / avg))
 * on that component's sum: 1 at the average, above 1 for a short name or summary that a request
 * explains well, below 1 for one that matches because it says everything. The factors are derived
 * from the surface itself (each endpoint's row, or the posting lists of a stored index), so they need
 * no stored data and are the same in every mode. `favourable` is each component's largest factor in
 * the catalog: a bound that no endpoint's factor exceeds (rank-pruned.ts).
 */
import type { Surface } from "./surface.js";

/** BM25's term-frequency saturation constant. */
export const LENGTH_K1 = 1.2;

export interface LengthNorms {
  /** Components per endpoint. */
  readonly width: number;
  /** Endpoint e's factors are `factors[e * width .. (e + 1) * width)`, in the order of `bits`. */
  readonly factors: Float64Array;
  /** Per component, the largest factor of any endpoint. */
  readonly favourable: Float64Array;
}

const cache = new WeakMap<Surface, LengthNorms>();

/** Distinct tokens per (endpoint, component): from the rows, or from the posting lists. */
function lengths(surface: Surface, endpoints: number, bits: readonly number[]): Uint32Array {
  const width = bits.length;
  const out = new Uint32Array(endpoints * width);
  let any = 0;
  for (const bit of bits) any |= bit;
  const rows = surface.surfaceStart.length === endpoints + 1;
  const docs = rows ? undefined : surface.postings;
  const masks = rows ? surface.surfaceMasks : surface.postingMasks;
  if (masks === undefined || (!rows && docs === undefined)) return out;
  let e = 0;
  for (let i = 0; i < masks.length; i++) {
    const mask = masks[i]!;
    if ((mask & any) === 0) continue;
    let doc: number;
    if (docs !== undefined) doc = docs[i]!;
    else {
      while (surface.surfaceStart[e + 1]! <= i) e++;
      doc = e;
    }
    const at = doc * width;
    for (let c = 0; c < width; c++) if ((mask & bits[c]!) !== 0) out[at + c]!++;
  }
  return out;
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
  const len = lengths(surface, endpoints, bits);
  const factors = new Float64Array(endpoints * width).fill(1);
  const favourable = new Float64Array(width).fill(1);
  for (let c = 0; c < width; c++) {
    if (!(b[c]! > 0)) continue;
    let total = 0;
    let having = 0;
    for (let e = 0; e < endpoints; e++) {
      const l = len[e * width + c]!;
      if (l > 0) {
        total += l;
        having++;
      }
    }
    if (having === 0) continue;
    const avg = total / having;
    for (let e = 0; e < endpoints; e++) {
      const l = len[e * width + c]!;
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
