/**
 * The scoring surface of a registry: every token (and exact key) of every endpoint that the scorer can
 * give a positive score for, tagged with the score components it belongs to, plus the inverted index
 * (token → endpoints) used to score only endpoints that share something with a request. Both are
 * stored as compressed rows (one typed array plus offsets), so 100k endpoints stay compact.
 */
import type { SourceKind } from "../model.js";
import type { Registry, RegistryEntry } from "../registry.js";
import { normalizeKey, tokenize } from "./tokenize.js";

/** Component bits. Lexical bits (the low byte) are weighted by IDF; exact bits are fixed bonuses. */
export const BIT = {
  name: 1,
  tool: 2,
  description: 4,
  parameter: 8,
  field: 16,
  semanticId: 32,
  unit: 64,
  qualifier: 128,
  exactField: 256,
  exactSemanticId: 512,
  exactUnit: 1024,
  exactFieldUnit: 2048,
} as const;
export const LEXICAL_MASK = 0xff;

export interface Catalog {
  readonly registry: Registry;
  readonly entries: readonly RegistryEntry[];
  readonly routes: readonly string[];
  readonly sourceKinds: readonly SourceKind[];
  readonly vocabulary: ReadonlyMap<string, number>;
  /** Per token id: number of endpoints with the token in a lexical component. */
  readonly documentFrequency: Uint32Array;
  /** Endpoint i's token ids (ascending) are `surfaceIds[surfaceStart[i] .. surfaceStart[i + 1])`. */
  readonly surfaceIds: Uint32Array;
  readonly surfaceMasks: Uint16Array;
  readonly surfaceStart: Uint32Array;
  /** Token t's endpoints (ascending) are `postings[postingStart[t] .. postingStart[t + 1])`; absent in exhaustive mode. */
  readonly postings: Int32Array | undefined;
  readonly postingStart: Uint32Array | undefined;
}

/** Exact-match keys live in the same vocabulary under prefixes no token can have (tokens are alphanumeric). */
export const fieldKey = (name: string): string => `f:${normalizeKey(name)}`;
export const semanticKey = (id: string): string => `s:${id}`;
export const unitKey = (unit: string): string => `u:${unit}`;
/** One field carrying both a requested semantic ID and a requested unit. */
export const semanticUnitKey = (id: string, unit: string): string => `su:${id}\u0000${unit}`;

export function routeOf(tool: string, endpoint: string): string {
  return `${tool}.${endpoint}`;
}

/** A growable Uint32Array (amortized doubling). */
class Column {
  data = new Uint32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

/** Pending (token, component) pairs are packed as `id * PACK + bit` and merged per endpoint. */
const PACK = 4096;

class SurfaceBuilder {
  readonly vocabulary = new Map<string, number>();
  readonly ids = new Column();
  readonly masks = new Column();
  readonly starts: number[] = [0];
  private pending: number[] = [];
  /** Token ids of the current tool's own texts (shared by all its endpoints). */
  private toolSpec: RegistryEntry["tool"] | undefined;
  private toolIds: { readonly tool: readonly number[]; readonly description: readonly number[] } | undefined;

  private idOf(key: string): number {
    let id = this.vocabulary.get(key);
    if (id === undefined) {
      id = this.vocabulary.size;
      this.vocabulary.set(key, id);
    }
    return id;
  }

  private tokenIds(text: string | undefined): number[] {
    if (text === undefined || text.length === 0) return [];
    return tokenize(text).map((token) => this.idOf(token));
  }

  key(key: string, bit: number): void {
    this.pending.push(this.idOf(key) * PACK + bit);
  }

  addIds(ids: readonly number[], bit: number): void {
    for (const id of ids) this.pending.push(id * PACK + bit);
  }

  text(text: string | undefined, bit: number): void {
    this.addIds(this.tokenIds(text), bit);
  }

  tool(tool: RegistryEntry["tool"]): void {
    if (this.toolSpec !== tool || this.toolIds === undefined) {
      this.toolSpec = tool;
      this.toolIds = {
        tool: [tool.name, tool.namespace, tool.provider, tool.accessMode].flatMap((text) =>
          this.tokenIds(text),
        ),
        description: this.tokenIds(tool.description),
      };
    }
    this.addIds(this.toolIds.tool, BIT.tool);
    this.addIds(this.toolIds.description, BIT.description);
  }

  finish(): void {
    const pending = this.pending.sort((a, b) => a - b);
    let i = 0;
    while (i < pending.length) {
      const id = Math.floor(pending[i]! / PACK);
      let mask = 0;
      while (i < pending.length && Math.floor(pending[i]! / PACK) === id) mask |= pending[i++]! % PACK;
      this.ids.push(id);
      this.masks.push(mask);
    }
    this.starts.push(this.ids.length);
    this.pending = [];
  }
}

function addEntry(builder: SurfaceBuilder, entry: RegistryEntry): void {
  const { tool, endpoint } = entry;
  builder.text(endpoint.name, BIT.name);
  builder.tool(tool);
  builder.text(endpoint.description, BIT.description);
  for (const parameter of endpoint.parameters) {
    builder.text(parameter.name, BIT.parameter);
    builder.text(parameter.description, BIT.description);
  }
  for (const field of endpoint.fields) {
    builder.text(field.id, BIT.field);
    builder.key(fieldKey(field.id), BIT.exactField);
    for (const alias of field.aliases ?? []) {
      builder.text(alias, BIT.field);
      builder.key(fieldKey(alias), BIT.exactField);
    }
    for (const segment of field.path) if (segment !== "*") builder.text(segment, BIT.field);
    builder.text(field.description, BIT.description);
    if (field.semanticId !== undefined) {
      builder.text(field.semanticId, BIT.semanticId);
      builder.key(semanticKey(field.semanticId), BIT.exactSemanticId);
    }
    if (field.unit !== undefined) {
      builder.text(field.unit, BIT.unit);
      builder.key(unitKey(field.unit), BIT.exactUnit);
      if (field.semanticId !== undefined)
        builder.key(semanticUnitKey(field.semanticId, field.unit), BIT.exactFieldUnit);
    }
    builder.text(field.dimensions, BIT.unit);
    for (const [key, value] of Object.entries(field.qualifiers ?? {})) {
      builder.text(key, BIT.qualifier);
      builder.text(value, BIT.qualifier);
    }
  }
}

/** Builds the surface of every endpoint of `registry`; with `indexed`, also the inverted index. */
export function buildCatalog(registry: Registry, indexed: boolean): Catalog {
  const entries = registry.entries();
  const builder = new SurfaceBuilder();
  for (const entry of entries) {
    addEntry(builder, entry);
    builder.finish();
  }
  const size = builder.vocabulary.size;
  const surfaceIds = builder.ids.data.slice(0, builder.ids.length);
  const surfaceMasks = Uint16Array.from(builder.masks.data.subarray(0, builder.masks.length));
  const surfaceStart = Uint32Array.from(builder.starts);
  const documentFrequency = new Uint32Array(size);
  const counts = new Uint32Array(size + 1);
  for (let i = 0; i < surfaceIds.length; i++) {
    const id = surfaceIds[i]!;
    counts[id + 1]!++;
    if ((surfaceMasks[i]! & LEXICAL_MASK) !== 0) documentFrequency[id]!++;
  }
  let postings: Int32Array | undefined;
  let postingStart: Uint32Array | undefined;
  if (indexed) {
    for (let t = 0; t < size; t++) counts[t + 1]! += counts[t]!;
    postingStart = counts;
    postings = new Int32Array(surfaceIds.length);
    const fill = postingStart.slice(0, size);
    for (let e = 0; e < entries.length; e++) {
      for (let i = surfaceStart[e]!; i < surfaceStart[e + 1]!; i++) postings[fill[surfaceIds[i]!]!++] = e;
    }
  }
  return {
    registry,
    entries,
    routes: entries.map((entry) => routeOf(entry.tool.name, entry.endpoint.name)),
    sourceKinds: entries.map((entry) => registry.get(entry.tool.name)!.sourceKind),
    vocabulary: builder.vocabulary,
    documentFrequency,
    surfaceIds,
    surfaceMasks,
    surfaceStart,
    postings,
    postingStart,
  };
}

/** The component mask of token `id` on endpoint `index` (0 when absent). */
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
