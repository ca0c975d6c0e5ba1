/**
 * The deterministic scorer. One function scores one endpoint surface against one compiled request;
 * index mode and exhaustive mode call exactly this function, they differ only in which endpoints they
 * hand to it. Every positive contribution needs a request token or exact key present on the surface,
 * so the inverted index over those keys loses no endpoint that could score above zero.
 *
 * score = Σ over distinct request tokens t present on the surface:
 *           idf(t) × Σ over lexical components c containing t: LEXICAL_WEIGHTS[c]
 *       + EXACT_WEIGHTS.exactField      × requested field names equal to a field ID or alias
 *       + EXACT_WEIGHTS.exactSemanticId × requested semantic IDs equal to a field's semantic ID
 *       + EXACT_WEIGHTS.exactUnit       × requested units equal to a field's unit
 *       + EXACT_WEIGHTS.exactFieldUnit  × (requested semantic ID, requested unit) pairs that one and
 *                                         the same field carries
 *       + COVERAGE_WEIGHT × (distinct request tokens present) / (distinct request tokens)
 * with idf(t) = 1 + ln(N / df(t)), N = endpoints in the registry, df(t) = endpoints containing t.
 */

import {
  BIT,
  type Catalog,
  fieldKey,
  LEXICAL_MASK,
  maskOf,
  semanticKey,
  semanticUnitKey,
  unitKey,
} from "./surface.js";
import { tokenize } from "./tokenize.js";
import type { RetrievalRequest, ScoreComponent } from "./types.js";

type LexicalComponent =
  | "name"
  | "tool"
  | "description"
  | "parameter"
  | "field"
  | "semanticId"
  | "unit"
  | "qualifier";

/** Per-component weight of a matched token (multiplied by its IDF). */
export const LEXICAL_WEIGHTS: Readonly<Record<LexicalComponent, number>> = {
  name: 3,
  tool: 1.5,
  description: 0.75,
  parameter: 1,
  field: 2,
  semanticId: 2,
  unit: 1.5,
  qualifier: 1.5,
};

/** Fixed bonus per exact match of a requested field, semantic ID or unit. */
export const EXACT_WEIGHTS = { exactField: 4, exactSemanticId: 5, exactUnit: 3, exactFieldUnit: 3 } as const;
export const COVERAGE_WEIGHT = 2;

const LEXICAL_ORDER: readonly LexicalComponent[] = [
  "name",
  "tool",
  "description",
  "parameter",
  "field",
  "semanticId",
  "unit",
  "qualifier",
];
/** Summation order of the final score (fixed, so both modes produce bit-identical floats). */
export const COMPONENT_ORDER: readonly ScoreComponent[] = [
  ...LEXICAL_ORDER,
  "exactField",
  "exactSemanticId",
  "exactUnit",
  "exactFieldUnit",
  "coverage",
];

export interface CompiledQuery {
  /** Distinct request tokens in first-occurrence order (query, then fields, semantic IDs, units). */
  readonly tokens: readonly string[];
  /** Vocabulary ids and IDFs of the tokens the catalog knows (unknown ones can never match). */
  readonly known: readonly { readonly id: number; readonly idf: number }[];
  readonly exactFields: readonly number[];
  readonly exactSemanticIds: readonly number[];
  readonly exactUnits: readonly number[];
  readonly exactFieldUnits: readonly number[];
  /** Every vocabulary id whose presence can make the score positive (the index lookup keys). */
  readonly keys: readonly number[];
}

export interface Scored {
  readonly index: number;
  readonly score: number;
  readonly components: Readonly<Partial<Record<ScoreComponent, number>>>;
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** Tokens of everything in the request that takes part in ranking (arguments never do). */
export function requestTokens(request: RetrievalRequest): string[] {
  const texts = [
    request.query,
    ...(request.fields ?? []),
    ...(request.semanticIds ?? []),
    ...(request.units ?? []),
  ];
  return distinct(texts.flatMap((text) => tokenize(text)));
}

/** Compiles a request against the catalog vocabulary; `exactOnly` keeps only the exact keys. */
export function compileQuery(catalog: Catalog, request: RetrievalRequest, exactOnly = false): CompiledQuery {
  const tokens = exactOnly ? [] : requestTokens(request);
  const n = catalog.entries.length;
  const known: { id: number; idf: number }[] = [];
  for (const token of tokens) {
    const id = catalog.vocabulary.get(token);
    const df = id === undefined ? 0 : catalog.documentFrequency[id]!;
    if (id !== undefined && df > 0) known.push({ id, idf: 1 + Math.log(n / df) });
  }
  const ids = (keys: readonly string[]): number[] =>
    distinct(keys)
      .map((key) => catalog.vocabulary.get(key))
      .filter((id): id is number => id !== undefined);
  const exactFields = ids((request.fields ?? []).map(fieldKey));
  const exactSemanticIds = ids((request.semanticIds ?? []).map(semanticKey));
  const exactUnits = ids((request.units ?? []).map(unitKey));
  const pairs: string[] = [];
  for (const unit of request.units ?? []) {
    for (const id of request.semanticIds ?? []) pairs.push(semanticUnitKey(id, unit));
  }
  const exactFieldUnits = ids(pairs);
  const keys = [
    ...known.map((k) => k.id),
    ...exactFields,
    ...exactSemanticIds,
    ...exactUnits,
    ...exactFieldUnits,
  ];
  return { tokens, known, exactFields, exactSemanticIds, exactUnits, exactFieldUnits, keys };
}

const LEXICAL_BITS: readonly number[] = LEXICAL_ORDER.map((c) => BIT[c]);
const SLOT = (name: ScoreComponent): number => COMPONENT_ORDER.indexOf(name);
const EXACT_FIELD_SLOT = SLOT("exactField");
const EXACT_SEMANTIC_SLOT = SLOT("exactSemanticId");
const EXACT_UNIT_SLOT = SLOT("exactUnit");
const EXACT_FIELD_UNIT_SLOT = SLOT("exactFieldUnit");
const COVERAGE_SLOT = SLOT("coverage");

/** Scratch space for one ranking run: one slot per component, plus the count of present tokens. */
export function scratch(): Float64Array {
  return new Float64Array(COMPONENT_ORDER.length + 1);
}
const PRESENT_SLOT = COMPONENT_ORDER.length;

function addExact(
  catalog: Catalog,
  index: number,
  list: readonly number[],
  bit: number,
  weight: number,
  slot: number,
  sums: Float64Array,
): void {
  for (let i = 0; i < list.length; i++)
    if ((maskOf(catalog, index, list[i]!) & bit) !== 0) sums[slot]! += weight;
}

/**
 * Scores endpoint `index`: fills `sums` (per component, then the number of request tokens present) and
 * returns the total, summed in COMPONENT_ORDER. 0 when nothing matches.
 */
export function scoreEntry(
  catalog: Catalog,
  index: number,
  query: CompiledQuery,
  sums: Float64Array,
): number {
  sums.fill(0);
  let present = 0;
  for (const { id, idf } of query.known) {
    const mask = maskOf(catalog, index, id);
    if ((mask & LEXICAL_MASK) === 0) continue;
    present++;
    for (let c = 0; c < LEXICAL_BITS.length; c++) {
      if ((mask & LEXICAL_BITS[c]!) !== 0) sums[c]! += LEXICAL_WEIGHTS[LEXICAL_ORDER[c]!] * idf;
    }
  }
  addExact(
    catalog,
    index,
    query.exactFields,
    BIT.exactField,
    EXACT_WEIGHTS.exactField,
    EXACT_FIELD_SLOT,
    sums,
  );
  addExact(
    catalog,
    index,
    query.exactSemanticIds,
    BIT.exactSemanticId,
    EXACT_WEIGHTS.exactSemanticId,
    EXACT_SEMANTIC_SLOT,
    sums,
  );
  addExact(catalog, index, query.exactUnits, BIT.exactUnit, EXACT_WEIGHTS.exactUnit, EXACT_UNIT_SLOT, sums);
  addExact(
    catalog,
    index,
    query.exactFieldUnits,
    BIT.exactFieldUnit,
    EXACT_WEIGHTS.exactFieldUnit,
    EXACT_FIELD_UNIT_SLOT,
    sums,
  );
  if (present > 0) sums[COVERAGE_SLOT] = (COVERAGE_WEIGHT * present) / query.tokens.length;
  sums[PRESENT_SLOT] = present;
  let score = 0;
  for (let slot = 0; slot < COMPONENT_ORDER.length; slot++) score += sums[slot]!;
  return score;
}

/** Number of request tokens present, from the sums `scoreEntry` filled. */
export function presentOf(sums: Float64Array): number {
  return sums[PRESENT_SLOT]!;
}

/** The non-zero components from the sums `scoreEntry` filled. */
export function componentsOf(sums: Float64Array): Partial<Record<ScoreComponent, number>> {
  const components: Partial<Record<ScoreComponent, number>> = {};
  COMPONENT_ORDER.forEach((name, slot) => {
    const value = sums[slot]!;
    if (value !== 0) components[name] = value;
  });
  return components;
}

/** Total order of the ranked surface: score descending, then route, tool and endpoint ascending. */
export function compareScored(catalog: Catalog, a: Scored, b: Scored): number {
  if (a.score !== b.score) return b.score - a.score;
  const ra = catalog.routes[a.index]!;
  const rb = catalog.routes[b.index]!;
  if (ra !== rb) return ra < rb ? -1 : 1;
  const ea = catalog.entries[a.index]!;
  const eb = catalog.entries[b.index]!;
  if (ea.tool.name !== eb.tool.name) return ea.tool.name < eb.tool.name ? -1 : 1;
  return ea.endpoint.name < eb.endpoint.name ? -1 : ea.endpoint.name > eb.endpoint.name ? 1 : 0;
}
