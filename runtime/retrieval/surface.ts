/**
 * The scoring surface of a registry: every token (and exact or same-field pair key) of every endpoint
 * that the scorer can give a positive score for, tagged with the score components it belongs to, plus
 * the inverted index (key → endpoints, with the key's component mask on each) used to score only
 * endpoints that share something with a request. Both are compressed rows (one typed array plus
 * offsets), so 100k endpoints stay compact.
 */

import type { Registry, RegistryEntry } from "../load/registry.js";
import type { JsonSchema, SourceKind } from "../model/specs.js";
import { addEntry, BIT, LEXICAL_MASK, SurfaceBuilder } from "./surface-builder.js";

export {
  BIT,
  fieldKey,
  LEXICAL_MASK,
  semanticKey,
  semanticUnitKey,
  unitKey,
} from "./surface-builder.js";

/** The scoring surface and inverted index of a list of endpoints (what a stored index holds). */
export interface Surface {
  /** Tokens and exact keys → id. */
  readonly vocabulary: ReadonlyMap<string, number>;
  /** Concept token id → unit token id → id of their same-field pair key (absent: no field has both). */
  readonly pairs: ReadonlyMap<number, ReadonlyMap<number, number>>;
  /** Per id: number of endpoints with the token in a lexical component, or with the pair key. */
  readonly documentFrequency: Uint32Array;
  /** Per id: union of its component masks over all endpoints. */
  readonly keyMasks: Uint16Array;
  /** Endpoint i's ids (ascending) are `surfaceIds[surfaceStart[i] .. surfaceStart[i + 1])`. */
  readonly surfaceIds: Uint32Array;
  readonly surfaceMasks: Uint16Array;
  readonly surfaceStart: Uint32Array;
  /**
   * Id t's endpoints (ascending) are `postings[postingStart[t] .. postingStart[t + 1])`, with t's mask
   * on each endpoint at the same positions of `postingMasks`; all three absent in exhaustive mode.
   */
  readonly postings: Int32Array | undefined;
  readonly postingMasks: Uint16Array | undefined;
  readonly postingStart: Uint32Array | undefined;
  /**
   * Per endpoint, its distinct tokens in each component of `bits` (`counts[e · bits.length + c]`),
   * when a stored index carries them (length-norm.ts); absent, they are counted from the surface.
   */
  readonly componentLengths?: { readonly bits: readonly number[]; readonly counts: Uint32Array };
}

export interface Catalog extends Surface {
  readonly registry: Registry;
  readonly entries: readonly RegistryEntry[];
  readonly routes: readonly string[];
  readonly sourceKinds: readonly SourceKind[];
  /** Per endpoint, its tool's name (the readiness filter reads it without touching the tool). */
  readonly toolNames: readonly string[];
  /** Per endpoint, its locked effect when known without the endpoint (a stored index); see effectOf. */
  readonly effects: readonly string[] | undefined;
  /** `stored`: read from the lock-pinned compile-time index; `memory`: built from the endpoints. */
  readonly origin: "stored" | "memory";
  /**
   * The effective schema of endpoint `index`, when the catalog reads its candidates itself (a stored
   * index, docs/runtime/loading-and-verification.md "Candidates"); otherwise the registry's.
   */
  readonly effectiveSchema?: (index: number, which: "input" | "output") => JsonSchema;
}

export function routeOf(tool: string, endpoint: string): string {
  return `${tool}.${endpoint}`;
}

/** Bits that count towards a key's document frequency (exact keys need none). */
export const DF_MASK = LEXICAL_MASK | BIT.sameFieldUnit;

/**
 * Builds the surface of every endpoint of `entries` (each endpoint is read, hence verified); with
 * `indexed`, also the inverted index. The compiler builds the stored index with this same function.
 */
export function buildSurface(entries: readonly RegistryEntry[], indexed: boolean): Surface {
  const builder = new SurfaceBuilder();
  for (const entry of entries) {
    addEntry(builder, entry);
    builder.finish();
  }
  return surfaceOfRows(
    {
      vocabulary: builder.vocabulary,
      pairs: builder.pairs,
      size: builder.size,
      ids: builder.ids.data.slice(0, builder.ids.length),
      masks: Uint16Array.from(builder.masks.data.subarray(0, builder.masks.length)),
      starts: Uint32Array.from(builder.starts),
    },
    indexed,
  );
}

/**
 * What a `SurfaceBuilder` holds after every endpoint's row is finished: the compiler assembles the
 * same from per-source segments (compiler/emit/surface-segments.ts) so both give the same surface.
 */
export interface SurfaceRows {
  readonly vocabulary: Map<string, number>;
  readonly pairs: Map<number, Map<number, number>>;
  readonly size: number;
  /** Row of endpoint e: ids[starts[e]..starts[e + 1]) ascending, with their component masks. */
  readonly ids: Uint32Array;
  readonly masks: Uint16Array;
  readonly starts: Uint32Array;
}

/** The surface (frequencies, key masks and, when `indexed`, postings) of finished rows. */
export function surfaceOfRows(rows: SurfaceRows, indexed: boolean): Surface {
  const { size, ids: surfaceIds, masks: surfaceMasks, starts: surfaceStart } = rows;
  const endpoints = surfaceStart.length - 1;
  const documentFrequency = new Uint32Array(size);
  const keyMasks = new Uint16Array(size);
  const counts = new Uint32Array(size + 1);
  for (let i = 0; i < surfaceIds.length; i++) {
    const id = surfaceIds[i]!;
    const mask = surfaceMasks[i]!;
    counts[id + 1]!++;
    keyMasks[id]! |= mask;
    if ((mask & DF_MASK) !== 0) documentFrequency[id]!++;
  }
  let postings: Int32Array | undefined;
  let postingMasks: Uint16Array | undefined;
  let postingStart: Uint32Array | undefined;
  if (indexed) {
    for (let t = 0; t < size; t++) counts[t + 1]! += counts[t]!;
    postingStart = counts;
    postings = new Int32Array(surfaceIds.length);
    postingMasks = new Uint16Array(surfaceIds.length);
    const fill = postingStart.slice(0, size);
    for (let e = 0; e < endpoints; e++) {
      for (let i = surfaceStart[e]!; i < surfaceStart[e + 1]!; i++) {
        const at = fill[surfaceIds[i]!]!++;
        postings[at] = e;
        postingMasks[at] = surfaceMasks[i]!;
      }
    }
  }
  return {
    vocabulary: rows.vocabulary,
    pairs: rows.pairs,
    documentFrequency,
    keyMasks,
    surfaceIds,
    surfaceMasks,
    surfaceStart,
    postings,
    postingMasks,
    postingStart,
  };
}

/** Builds the catalog of `registry` in memory (every endpoint is read, hence verified). */
export function buildCatalog(registry: Registry, indexed: boolean): Catalog {
  const entries = registry.entries();
  return {
    ...buildSurface(entries, indexed),
    registry,
    entries,
    routes: entries.map((entry) => routeOf(entry.tool.name, entry.endpoint.name)),
    sourceKinds: entries.map((entry) => registry.get(entry.tool.name)!.sourceKind),
    toolNames: entries.map((entry) => entry.tool.name),
    effects: undefined,
    origin: "memory",
  };
}

/**
 * The locked side-effect class of endpoint `index` (the one place ranking reads an endpoint's effect,
 * so a catalog built from a stored index can answer it without materialising the endpoint).
 */
export function effectOf(catalog: Catalog, index: number): string {
  return catalog.effects !== undefined ? catalog.effects[index]! : catalog.entries[index]!.endpoint.effect;
}

/** The component mask of id `id` on endpoint `index` (0 when absent). */
export function maskOf(catalog: Catalog, index: number, id: number): number {
  const ids = catalog.surfaceIds;
  let lo = catalog.surfaceStart[index]!;
  let hi = catalog.surfaceStart[index + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = ids[mid]!;
    if (value === id) return catalog.surfaceMasks[mid]!;
    if (value < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
