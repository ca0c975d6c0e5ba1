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
  const vocabulary = new SortedVocabulary(data.vocabulary, data.vocabularyIds);
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
  // Per endpoint, its route, tool name and source kind, computed when first read (a ranking reads
  // them for its candidates only).
  const toolFirst = new Uint32Array(data.tools.length + 1);
  data.tools.forEach((tool, t) => {
    toolFirst[t + 1] = toolFirst[t]! + tool.endpoints.length;
  });
  const toolOf = (index: number): number => {
    let lo = 0;
    let hi = data.tools.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (toolFirst[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const endpoints = toolFirst[data.tools.length]!;
  const routes = lazyList(endpoints, (index) => {
    const t = toolOf(index);
    const tool = data.tools[t]!;
    return `${tool.name}.${tool.endpoints[index - toolFirst[t]!]!}`;
  });
  const toolNames = lazyList(endpoints, (index) => data.tools[toolOf(index)]!.name);
  const sourceKinds = lazyList(
    endpoints,
    (index) => data.sources[data.tools[toolOf(index)]!.source]!.kind as SourceKind,
  );
  const effects = Array.from(data.effects, (code) => data.effectNames[code]!);
  return {
    data,
    endpoints,
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

/**
 * The index's vocabulary as a read-only map: keys sorted in code-unit order (the loader checks it),
 * looked up by binary search, so a load builds no map of hundreds of thousands of keys.
 */
export class SortedVocabulary implements ReadonlyMap<string, number> {
  readonly #keys: readonly string[];
  readonly #ids: Uint32Array;

  constructor(keys: readonly string[], ids: Uint32Array) {
    this.#keys = keys;
    this.#ids = ids;
    Object.freeze(this);
  }

  get size(): number {
    return this.#keys.length;
  }

  #find(key: string): number {
    const keys = this.#keys;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = keys[mid]!;
      if (at === key) return mid;
      if (at < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  get(key: string): number | undefined {
    const at = typeof key === "string" ? this.#find(key) : -1;
    return at < 0 ? undefined : this.#ids[at];
  }

  has(key: string): boolean {
    return typeof key === "string" && this.#find(key) >= 0;
  }

  *entries(): MapIterator<[string, number]> {
    for (let at = 0; at < this.#keys.length; at++) yield [this.#keys[at]!, this.#ids[at]!];
  }

  *keys(): MapIterator<string> {
    yield* this.#keys;
  }

  *values(): MapIterator<number> {
    yield* this.#ids;
  }

  forEach(callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }
}

/** A read-only list whose items are computed on first access (and kept). */
export function lazyList<T>(length: number, at: (index: number) => T): readonly T[] {
  const items: (T | undefined)[] = new Array(length);
  return new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const index = Number(key);
        if (Number.isInteger(index) && index >= 0 && index < length && String(index) === key) {
          let item = target[index];
          if (item === undefined) {
            item = at(index);
            target[index] = item;
          }
          return item;
        }
      }
      return Reflect.get(target, key, receiver);
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }) as readonly T[];
}

const attached = new WeakMap<Registry, AttachedIndex>();

/** Records that `index` was verified against the lock for exactly this registry object. */
export function attachStoredIndex(registry: Registry, index: StoredIndex, candidates: CandidateViews): void {
  attached.set(registry, { index, candidates });
}

export function storedIndexOf(registry: Registry): AttachedIndex | undefined {
  return attached.get(registry);
}
