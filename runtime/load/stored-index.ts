/**
 * A verified retrieval index prepared for use (docs/runtime/retrieval-and-planning.md, "Stored index"):
 * the loader decodes and verifies the file (retrieval-index.ts), builds its lookup tables once
 * (`prepareStoredIndex`) and attaches it to exactly the registry object it verified it for; the
 * retriever (runtime/retrieval/stored-index.ts) builds its catalog from it. Here, not in retrieval/,
 * so the loader never imports the retrieval folder.
 */
import type { RetrievalIndexData } from "../format/retrieval-index.js";
import type { SourceKind } from "../model/specs.js";
import type { CandidateViews } from "./candidate-views.js";
import type { Registry } from "./registry.js";

/** Verified index data with its lookup tables built (once per load). */
export interface StoredIndex {
  readonly data: RetrievalIndexData;
  readonly endpoints: number;
  readonly vocabulary: ReadonlyMap<string, number>;
  readonly pairs: ReadonlyMap<number, ReadonlyMap<number, number>>;
  readonly routes: readonly string[];
  readonly toolNames: readonly string[];
  readonly effects: readonly string[];
  readonly sourceKinds: readonly SourceKind[];
}

export function prepareStoredIndex(data: RetrievalIndexData): StoredIndex {
  const vocabulary = new Map<string, number>();
  for (let at = 0; at < data.vocabulary.length; at++)
    vocabulary.set(data.vocabulary[at]!, data.vocabularyIds[at]!);
  const pairs = new Map<number, Map<number, number>>();
  for (let at = 0; at < data.pairs.length; at += 3) {
    const concept = data.pairs[at]!;
    let byUnit = pairs.get(concept);
    if (byUnit === undefined) {
      byUnit = new Map();
      pairs.set(concept, byUnit);
    }
    byUnit.set(data.pairs[at + 1]!, data.pairs[at + 2]!);
  }
  const routes: string[] = [];
  const toolNames: string[] = [];
  const sourceKinds: SourceKind[] = [];
  for (const tool of data.tools) {
    const kind = data.sources[tool.source]!.kind as SourceKind;
    for (const endpoint of tool.endpoints) {
      routes.push(`${tool.name}.${endpoint}`);
      toolNames.push(tool.name);
      sourceKinds.push(kind);
    }
  }
  const effects = Array.from(data.effects, (code) => data.effectNames[code]!);
  return {
    data,
    endpoints: routes.length,
    vocabulary,
    pairs,
    routes,
    toolNames,
    effects,
    sourceKinds,
  };
}

/** A verified index attached to the registry it was verified for, with how candidates are read. */
export interface AttachedIndex {
  readonly index: StoredIndex;
  readonly candidates: CandidateViews;
}

const attached = new WeakMap<Registry, AttachedIndex>();

/** Records that `index` was verified against the lock for exactly this registry object. */
export function attachStoredIndex(registry: Registry, index: StoredIndex, candidates: CandidateViews): void {
  attached.set(registry, { index, candidates });
}

export function storedIndexOf(registry: Registry): AttachedIndex | undefined {
  return attached.get(registry);
}
