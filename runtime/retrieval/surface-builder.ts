/**
 * Builds the compressed per-endpoint scoring surface: tokenizes every text an endpoint exposes, tags
 * each token id with the score components it belongs to, adds the exact-match keys and the same-field
 * (concept token, unit token) pair keys, and merges them into one sorted row per endpoint.
 */

import type { RegistryEntry } from "../load/registry.js";
import { enumValues } from "./enum-values.js";
import { normalizeKey, tokenize, unitTokens } from "./tokenize.js";
import { canonicalUnit } from "./vocabulary/units.js";

/** Bump it with any change to what `addEntry` or `tokenize` produce (see format/surface-version.ts). */
export { SURFACE_VERSION } from "../format/surface-version.js";

/**
 * Component bits. Lexical bits (the low byte and `summary`) are weighted by IDF; the others are
 * separate keys.
 */
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
  sameFieldUnit: 4096,
  exactName: 8192,
  summary: 16384,
} as const;
export const LEXICAL_MASK = 0xff | BIT.summary;

/** Exact-match keys live in the vocabulary under prefixes no token can have (tokens are alphanumeric). */
export const fieldKey = (name: string): string => `f:${normalizeKey(name)}`;
export const semanticKey = (id: string): string => `s:${id}`;
/** Units are keyed by their canonical code when the unit vocabulary knows them (`degC` = `Cel`). */
const unitCode = (unit: string): string => canonicalUnit(unit) ?? unit;
export const unitKey = (unit: string): string => `u:${unitCode(unit)}`;
/** Endpoint names with more tokens than this get no whole-name key. */
export const MAX_NAME_TOKENS = 6;

/**
 * The whole-name key of a set of name tokens (sorted, so any order of the same words meets). An
 * endpoint's name is keyed by its distinct separator/camelCase parts, stemmed (`repos/get` →
 * get + repository), so a request that names every word of it matches the key.
 */
export const nameKey = (tokens: readonly string[]): string => `n:${[...tokens].sort().join("\u0000")}`;

/** The distinct name parts of an endpoint name (stemmed, canonical, stop words dropped). */
export function nameParts(name: string): string[] {
  return [
    ...new Set(
      normalizeKey(name)
        .split("_")
        .flatMap((part) => tokenize(part)),
    ),
  ];
}

/** One field carrying both a requested semantic ID and a requested unit. */
export const semanticUnitKey = (id: string, unit: string): string => `su:${id}\u0000${unitCode(unit)}`;

/** A growable Uint32Array (amortized doubling). */
export class Column {
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

/** Pending (key, component) pairs are packed as `id * PACK + bit` and merged per endpoint. */
const PACK = 32768;

function addDistinct(into: number[] | undefined, ids: readonly number[]): void {
  if (into === undefined) return;
  for (const id of ids) if (!into.includes(id)) into.push(id);
}

export class SurfaceBuilder {
  /** Tokens and exact keys → id. */
  readonly vocabulary = new Map<string, number>();
  /** Concept token id → unit token id → id of the same-field pair key. */
  readonly pairs = new Map<number, Map<number, number>>();
  readonly ids = new Column();
  readonly masks = new Column();
  readonly starts: number[] = [0];
  /** Ids handed out so far (tokens, exact keys and pair keys share one id space). */
  size = 0;
  private pending: number[] = [];
  /** Token ids of the current tool's own texts (shared by all its endpoints). */
  private toolSpec: RegistryEntry["tool"] | undefined;
  private toolIds: { readonly tool: readonly number[]; readonly description: readonly number[] } | undefined;

  private idOf(key: string): number {
    let id = this.vocabulary.get(key);
    if (id === undefined) {
      id = this.size++;
      this.vocabulary.set(key, id);
    }
    return id;
  }

  private pairOf(concept: number, unit: number): number {
    let byUnit = this.pairs.get(concept);
    if (byUnit === undefined) {
      byUnit = new Map();
      this.pairs.set(concept, byUnit);
    }
    let id = byUnit.get(unit);
    if (id === undefined) {
      id = this.size++;
      byUnit.set(unit, id);
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

  /** Adds the tokens of `text` under `bit`; also collects their ids into `into` (without duplicates). */
  text(text: string | undefined, bit: number, into?: number[]): void {
    const ids = this.tokenIds(text);
    this.addIds(ids, bit);
    addDistinct(into, ids);
  }

  /** Adds already-made tokens under `bit`; also collects their ids into `into`. */
  tokens(tokens: readonly string[], bit: number, into?: number[]): void {
    const ids = tokens.map((token) => this.idOf(token));
    this.addIds(ids, bit);
    addDistinct(into, ids);
  }

  /** Adds the pair key of every (concept token, unit token) that one field carries. */
  sameField(concept: readonly number[], units: readonly number[]): void {
    for (const c of concept) {
      for (const u of units) this.pending.push(this.pairOf(c, u) * PACK + BIT.sameFieldUnit);
    }
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

  /** Closes the current endpoint's row: ids ascending, one merged component mask per id. */
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

/**
 * The summary of an endpoint description: its first paragraph (an OpenAPI operation's `summary` is
 * compiled into it), or else that paragraph's first sentence, when it is a short statement of what
 * the endpoint does (at most MAX_SUMMARY_WORDS words); otherwise none, and the description counts as
 * description only.
 */
export function summaryOf(description: string | undefined): string | undefined {
  const first = (description ?? "").split(/\n\s*\n/)[0]!.trim();
  if (first.length === 0) return undefined;
  const short = (text: string): boolean => text.split(/\s+/).length <= MAX_SUMMARY_WORDS;
  if (short(first)) return first;
  const sentence = first.split(/(?<=[.!?])\s+/)[0]!;
  return short(sentence) ? sentence : undefined;
}
/** Longest first paragraph that counts as a summary. */
export const MAX_SUMMARY_WORDS = 16;

/** Adds one endpoint's texts and keys to the builder's current row. */
export function addEntry(builder: SurfaceBuilder, entry: RegistryEntry): void {
  const { tool, endpoint } = entry;
  builder.text(endpoint.name, BIT.name);
  const parts = nameParts(endpoint.name);
  if (parts.length > 0 && parts.length <= MAX_NAME_TOKENS) builder.key(nameKey(parts), BIT.exactName);
  builder.tool(tool);
  if (endpoint.execution?.kind === "http")
    for (const segment of endpoint.execution.path.split("/"))
      if (!segment.startsWith("{")) builder.text(segment, BIT.parameter);
  builder.text(endpoint.description, BIT.description);
  builder.text(summaryOf(endpoint.description), BIT.summary);
  for (const parameter of endpoint.parameters) {
    builder.text(parameter.name, BIT.parameter);
    builder.text(parameter.description, BIT.description);
    for (const value of enumValues(parameter.schema, 0)) builder.text(value, BIT.parameter);
  }
  for (const field of endpoint.fields) {
    // Concept tokens (names, path segments, semantic ID) and unit tokens (unit, dimensions) of this
    // one field, for the same-field pair keys.
    const concept: number[] = [];
    const units: number[] = [];
    builder.text(field.id, BIT.field, concept);
    builder.key(fieldKey(field.id), BIT.exactField);
    for (const alias of field.aliases ?? []) {
      builder.text(alias, BIT.field, concept);
      builder.key(fieldKey(alias), BIT.exactField);
    }
    for (const segment of field.path) if (segment !== "*") builder.text(segment, BIT.field, concept);
    builder.text(field.description, BIT.description);
    if (field.semanticId !== undefined) {
      builder.text(field.semanticId, BIT.semanticId, concept);
      builder.key(semanticKey(field.semanticId), BIT.exactSemanticId);
    }
    if (field.unit !== undefined) {
      builder.tokens(unitTokens(field.unit), BIT.unit, units);
      builder.key(unitKey(field.unit), BIT.exactUnit);
      if (field.semanticId !== undefined)
        builder.key(semanticUnitKey(field.semanticId, field.unit), BIT.exactFieldUnit);
    }
    builder.text(field.dimensions, BIT.unit, units);
    for (const [key, value] of Object.entries(field.qualifiers ?? {})) {
      builder.text(key, BIT.qualifier);
      builder.text(value, BIT.qualifier);
    }
    builder.sameField(concept, units);
  }
}
