/**
 * The compile-time retrieval index (docs/runtime/retrieval-and-planning.md, "Stored index"): the
 * compiler turns registry entries into index data with `indexDataOf` (the same `buildSurface` the
 * runtime uses in memory, so both give the same ids, frequencies and postings); the loader prepares the
 * verified data once (`prepareStoredIndex`) and attaches it to the registry it loaded; the retriever
 * builds its catalog from it (`catalogFromStoredIndex`) without reading any endpoint. Only the registry
 * object the index was verified for ever uses it: a replaced registry (a new version) builds in memory.
 */

import type {
  RetrievalIndexData,
  RetrievalIndexLocations,
  RetrievalIndexSource,
  RetrievalIndexTool,
} from "../format/retrieval-index.js";
import { SURFACE_VERSION } from "../format/surface-version.js";
import type { Registry, RegistryEntry } from "../load/registry.js";
import { type AttachedIndex, type StoredIndex, storedIndexOf } from "../load/stored-index.js";
import { componentLengthsOfRows, LENGTH_BITS } from "./length-norm.js";
import { buildSurface, type Catalog, type Surface } from "./surface.js";

export { type AttachedIndex, type StoredIndex, storedIndexOf };

/** A tool of the index, with its registry entries (registry order). */
export interface IndexedTool {
  readonly name: string;
  readonly source: string;
  readonly entries: readonly RegistryEntry[];
}

/**
 * Index data for `tools` (registry order, tools without endpoints included) of `sources` (by name),
 * with `locations` of their bytes in the artifacts (format/candidate-locations.ts, same order).
 */
export function indexDataOf(
  sources: readonly RetrievalIndexSource[],
  indexed: readonly IndexedTool[],
  locations: RetrievalIndexLocations,
): RetrievalIndexData {
  const entries = indexed.flatMap((tool) => tool.entries);
  return indexDataOfSurface(
    sources,
    indexed.map((tool) => ({
      name: tool.name,
      source: tool.source,
      endpoints: tool.entries.map((entry) => entry.endpoint.name),
    })),
    buildSurface(entries, true),
    entries.map((entry) => entry.endpoint.effect),
    locations,
  );
}

/** A tool of the index by name: its source's name and its endpoint names (registry order). */
export interface IndexedToolNames {
  readonly name: string;
  readonly source: string;
  readonly endpoints: readonly string[];
}

/**
 * Index data from an indexed surface already built over the tools' endpoints in order, with its rows
 * (`effects`: each endpoint's side-effect class, same order); `indexDataOf` is this over `buildSurface`.
 */
export function indexDataOfSurface(
  sources: readonly RetrievalIndexSource[],
  indexed: readonly IndexedToolNames[],
  surface: Surface,
  endpointEffects: readonly string[],
  locations: RetrievalIndexLocations,
): RetrievalIndexData {
  const sourceAt = new Map(sources.map((source, at) => [source.name, at]));
  const tools: RetrievalIndexTool[] = indexed.map((tool) => {
    const source = sourceAt.get(tool.source);
    if (source === undefined) throw new TypeError(`tool "${tool.name}" of unknown source "${tool.source}"`);
    return { name: tool.name, source, endpoints: tool.endpoints };
  });
  const effectNames: string[] = [];
  const effects = new Uint8Array(endpointEffects.length);
  endpointEffects.forEach((name, i) => {
    let effect = effectNames.indexOf(name);
    if (effect < 0) effect = effectNames.push(name) - 1;
    effects[i] = effect;
  });
  if (surface.surfaceStart.length !== endpointEffects.length + 1) {
    throw new TypeError("index data needs the surface's rows (one per endpoint)");
  }
  const sortedKeys = [...surface.vocabulary].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const pairs: number[] = [];
  for (const [concept, byUnit] of surface.pairs) {
    for (const [unit, id] of byUnit) pairs.push(concept, unit, id);
  }
  return {
    surfaceVersion: SURFACE_VERSION,
    sources,
    tools,
    size: surface.keyMasks.length,
    // Sorted by key (code units), so a loader looks keys up by binary search without a map.
    vocabulary: sortedKeys.map(([key]) => key),
    vocabularyIds: Uint32Array.from(sortedKeys, ([, id]) => id),
    pairs: Uint32Array.from(pairs),
    documentFrequency: surface.documentFrequency,
    keyMasks: surface.keyMasks,
    postingStart: surface.postingStart!,
    postings: surface.postings!,
    postingMasks: surface.postingMasks!,
    effectNames,
    effects,
    lengthBits: LENGTH_BITS,
    componentLengths: componentLengthsOfRows(surface.surfaceMasks, surface.surfaceStart, LENGTH_BITS),
    locations,
  };
}

/**
 * The catalog of `registry` from its stored index: no endpoint is read until a candidate is built, and
 * then only that candidate's bytes (the attached candidate views, load/candidate-views.ts).
 */
export function catalogFromStoredIndex(registry: Registry, attached: AttachedIndex): Catalog {
  const { index, candidates } = attached;
  const entries = candidates.entries;
  if (entries.length !== index.endpoints) {
    throw new TypeError(`stored index has ${index.endpoints} endpoints, the registry ${entries.length}`);
  }
  const { data } = index;
  return {
    registry,
    entries,
    routes: index.routes,
    sourceKinds: index.sourceKinds,
    toolNames: index.toolNames,
    effects: index.effects,
    origin: "stored",
    vocabulary: index.vocabulary,
    pairs: index.pairs,
    documentFrequency: data.documentFrequency,
    keyMasks: data.keyMasks,
    surfaceIds: EMPTY_U32,
    surfaceMasks: EMPTY_U16,
    surfaceStart: EMPTY_U32,
    postings: data.postings,
    postingMasks: data.postingMasks,
    postingStart: data.postingStart,
    componentLengths: { bits: data.lengthBits, counts: data.componentLengths },
    effectiveSchema: (at, which) => candidates.effectiveSchema(at, which),
  };
}

const EMPTY_U32 = new Uint32Array(0);
const EMPTY_U16 = new Uint16Array(0);
