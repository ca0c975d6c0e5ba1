/**
 * The deterministic scorer. A request compiles to an ordered list of terms (keys with weights); an
 * endpoint's score row is built by applying each term, in that order, to the term's component mask on
 * the endpoint (`applyTerm`), then finished (`finishRow`). Exhaustive mode reads the masks from each
 * endpoint's surface row, index mode from the posting lists; the arithmetic is the same, so scores are
 * bit-identical. Every positive contribution needs a request token or key present on the surface, so
 * the inverted index over those keys loses no endpoint that could score above zero.
 *
 * score = Σ over distinct request tokens t present on the surface:
 *           idf(t) × Σ over lexical components c containing t: LEXICAL_WEIGHTS[c]
 *       + EXACT_WEIGHTS.exactField      × requested field names equal to a field ID or alias
 *       + EXACT_WEIGHTS.exactSemanticId × requested semantic IDs equal to a field's semantic ID
 *       + EXACT_WEIGHTS.exactUnit       × requested units equal to a field's unit
 *       + EXACT_WEIGHTS.exactFieldUnit  × (requested semantic ID, requested unit) pairs that one and
 *                                         the same field carries
 *       + SAME_FIELD_UNIT_WEIGHT × Σ over (concept token c, unit token u) pairs of distinct request
 *           tokens that one and the same field carries: idf(c, u) / |U|
 *       + COVERAGE_WEIGHT × (distinct request tokens present) / (distinct request tokens)
 * with idf(t) = 1 + ln(N / df(t)), N = endpoints in the registry, df(t) = endpoints containing t.
 * A concept token is one some field carries in its ID, aliases, path or semantic ID; a unit token one
 * some field carries in its unit or dimensions; U = the request's unit tokens (dividing by |U| keeps a
 * unit spelled in three tokens, `degC` → degc/deg/c, from outweighing a one-token unit such as `K`);
 * idf(c, u) uses df = endpoints with a field carrying both. So "air temperature in degC" scores more
 * on an endpoint whose temperature field is in degC than on one whose temperature is in degF and whose
 * dew point is in degC. Every pair key is on the surface and in the index like any other key.
 */

import { type LengthNorms, lengthNorms } from "./length-norm.js";
import {
  BIT,
  type Catalog,
  effectOf,
  fieldKey,
  LEXICAL_MASK,
  maskOf,
  semanticKey,
  semanticUnitKey,
  unitKey,
} from "./surface.js";
import { MAX_NAME_TOKENS, nameKey } from "./surface-builder.js";
import { tokenize, tokenizeQuery, unitTokens } from "./tokenize.js";
import type { RetrievalRequest, ScoreComponent } from "./types.js";
import { actionWordOf, type Intent, intentFit, intentOf } from "./vocabulary/intent.js";
import { isFirstPerson, SELF_WORDS } from "./vocabulary/person.js";
import { synonymsOf } from "./vocabulary/synonyms.js";

type LexicalComponent =
  | "name"
  | "tool"
  | "description"
  | "parameter"
  | "field"
  | "semanticId"
  | "unit"
  | "qualifier"
  | "summary";

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
  summary: 2.5,
};

/**
 * BM25's length normalisation `b` per lexical component (length-norm.ts): 0 leaves a component as it
 * is (the tool's texts are the same on all its endpoints; semantic IDs, units and qualifiers are
 * typed keys, not prose).
 */
export const LENGTH_B: Readonly<Record<LexicalComponent, number>> = {
  name: 0.75,
  tool: 0,
  description: 0,
  parameter: 0.3,
  field: 0,
  semanticId: 0,
  unit: 0,
  qualifier: 0,
  summary: 0.5,
};

/** Fixed bonus per exact match of a requested field, semantic ID or unit. */
export const EXACT_WEIGHTS = {
  exactName: 8,
  exactField: 4,
  exactSemanticId: 5,
  exactUnit: 3,
  exactFieldUnit: 3,
} as const;
/** Request tokens (those some endpoint name has) whose subsets are tried as whole-name keys. */
const MAX_NAME_CANDIDATES = 12;
export const COVERAGE_WEIGHT = 2;
/** Share of a token's lexical weights that a synonym added for it gets (vocabulary/synonyms.ts). */
export const SYNONYM_WEIGHT = 0.5;
/**
 * Intent bonus: an endpoint whose locked effect fits the request's intent (vocabulary/intent.ts)
 * gains this share of its other components' sum, times the fit (1 or ½). Relative, so it decides
 * between endpoints that score comparably and never lifts a weak match over a strong one; zero on an
 * endpoint that matched nothing, so it never adds a candidate.
 */
export const INTENT_WEIGHT = 0.25;
/** Share of a token's lexical weights that the caller's words get in a first-person request (person.ts). */
export const FIRST_PERSON_WEIGHT = 0.5;
/** Share of a token's lexical weights that the action word of the request's verb gets (intent.ts). */
export const ACTION_WEIGHT = 0.5;
const SELF_TOKENS: readonly string[] = [...new Set(SELF_WORDS.flatMap((word) => tokenize(word)))];
/** Weight of a same-field (concept token, unit token) pair (multiplied by the pair's IDF, over |U|). */
export const SAME_FIELD_UNIT_WEIGHT = 1;

const LEXICAL_ORDER: readonly LexicalComponent[] = [
  "name",
  "tool",
  "description",
  "parameter",
  "field",
  "semanticId",
  "unit",
  "qualifier",
  "summary",
];
/** Summation order of the final score (fixed, so both modes produce bit-identical floats). */
export const COMPONENT_ORDER: readonly ScoreComponent[] = [
  ...LEXICAL_ORDER,
  "exactName",
  "exactField",
  "exactSemanticId",
  "exactUnit",
  "exactFieldUnit",
  "sameFieldUnit",
  "intent",
  "coverage",
];

/**
 * One key of a compiled request, applied to the key's component mask on an endpoint. A lexical token
 * (`weights` set) counts as present and adds `weights[c]` for each lexical component bit c it has;
 * any other key adds `weight` to `slot` when the mask has `bit`.
 */
export interface QueryTerm {
  readonly id: number;
  /** A lexical token counts towards coverage (a synonym added for a request token does not). */
  readonly counts: boolean;
  readonly weights: Float64Array | undefined;
  readonly bit: number;
  readonly slot: number;
  readonly weight: number;
}

export interface CompiledQuery {
  /** Distinct request tokens in first-occurrence order (query, then fields, semantic IDs, units). */
  readonly tokens: readonly string[];
  /**
   * The keys whose presence can make the score positive, in application order: lexical tokens the
   * catalog knows (request order), exact fields, semantic IDs, units, field+unit pairs, then the
   * same-field pairs. Ids are distinct. Both modes apply them in this order, so each component's sum
   * sees the same additions in the same order.
   */
  readonly terms: readonly QueryTerm[];
  /** The request's intent, from its verbs (absent for an exact-keys-only query). */
  readonly intent: Intent | undefined;
}

export interface Scored {
  readonly index: number;
  readonly score: number;
  readonly components: Readonly<Partial<Record<ScoreComponent, number>>>;
}

function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** Tokens of everything in the request that takes part in ranking (arguments never do). */
export function requestTokens(request: RetrievalRequest): string[] {
  return distinct([
    ...tokenizeQuery(request.query),
    ...[...(request.fields ?? []), ...(request.semanticIds ?? [])].flatMap((text) => tokenize(text)),
    ...(request.units ?? []).flatMap((unit) => unitTokens(unit)),
  ]);
}

const SLOT = (name: ScoreComponent): number => COMPONENT_ORDER.indexOf(name);
const COVERAGE_SLOT = SLOT("coverage");
const INTENT_SLOT = SLOT("intent");
const PRESENT_SLOT = COMPONENT_ORDER.length;
/** Row width of score sums: one slot per component, then the number of request tokens present. */
export const STRIDE = COMPONENT_ORDER.length + 1;
const LEXICAL_BITS: readonly number[] = LEXICAL_ORDER.map((c) => BIT[c]);
const LEXICAL_B: readonly number[] = LEXICAL_ORDER.map((c) => LENGTH_B[c]);

/** The length-normalisation factors of the catalog's endpoints (length-norm.ts). */
export function normsOf(catalog: Catalog): LengthNorms {
  return lengthNorms(catalog, catalog.entries.length, LEXICAL_BITS, LEXICAL_B);
}
const CONCEPT_BITS = BIT.field | BIT.semanticId;

const idfOf = (n: number, df: number): number => 1 + Math.log(n / df);

function fixed(id: number, name: ScoreComponent & keyof typeof BIT, weight: number): QueryTerm {
  return { id, counts: false, weights: undefined, bit: BIT[name], slot: SLOT(name), weight };
}

/** The same-field pair terms of the request's known tokens (see the module comment). */
function sameFieldTerms(catalog: Catalog, known: readonly number[]): QueryTerm[] {
  const concepts = known.filter((id) => (catalog.keyMasks[id]! & CONCEPT_BITS) !== 0);
  const units = known.filter((id) => (catalog.keyMasks[id]! & BIT.unit) !== 0);
  const n = catalog.entries.length;
  const terms: QueryTerm[] = [];
  for (const c of concepts) {
    const byUnit = catalog.pairs.get(c);
    if (byUnit === undefined) continue;
    for (const u of units) {
      const id = byUnit.get(u);
      const df = id === undefined ? 0 : catalog.documentFrequency[id]!;
      if (id === undefined || df === 0) continue;
      const weight = (SAME_FIELD_UNIT_WEIGHT * idfOf(n, df)) / units.length;
      terms.push(fixed(id, "sameFieldUnit", weight));
    }
  }
  return terms;
}

const knownId = (catalog: Catalog, token: string): number | undefined => {
  const id = catalog.vocabulary.get(token);
  return id === undefined || catalog.documentFrequency[id] === 0 ? undefined : id;
};

function lexical(catalog: Catalog, id: number, share: number, counts: boolean): QueryTerm {
  const idf = idfOf(catalog.entries.length, catalog.documentFrequency[id]!);
  return {
    id,
    counts,
    weights: Float64Array.from(LEXICAL_ORDER, (c) => LEXICAL_WEIGHTS[c] * idf * share),
    bit: LEXICAL_MASK,
    slot: PRESENT_SLOT,
    weight: 1,
  };
}

/**
 * The request's tokens after synonym resolution: a token the catalog does not know is replaced by
 * its first alternative the catalog knows ("warm" → temperature), or dropped when that alternative
 * is already requested; other tokens stay. Returns the tokens and the synonyms to add for known ones.
 */
function resolveSynonyms(catalog: Catalog, tokens: readonly string[]): { tokens: string[]; added: string[] } {
  const out: string[] = [];
  const pending: string[] = [];
  for (const token of tokens) {
    const alternatives = synonymsOf(token);
    if (knownId(catalog, token) !== undefined || alternatives.length === 0) {
      out.push(token);
      pending.push(...alternatives);
      continue;
    }
    const replacement = alternatives.find((alternative) => knownId(catalog, alternative) !== undefined);
    if (replacement === undefined) out.push(token);
    else if (!tokens.includes(replacement) && !out.includes(replacement)) out.push(replacement);
  }
  const added = distinct(pending).filter(
    (token) => !out.includes(token) && knownId(catalog, token) !== undefined,
  );
  return { tokens: out, added };
}

/**
 * Whole-name keys the request can match: every subset (up to MAX_NAME_TOKENS words) of its tokens
 * that some endpoint name has, in a fixed order (by size, then request order).
 */
function wholeNameKeys(catalog: Catalog, tokens: readonly string[]): { key: string; size: number }[] {
  const named = tokens
    .filter((token) => {
      const id = catalog.vocabulary.get(token);
      return id !== undefined && (catalog.keyMasks[id]! & BIT.name) !== 0;
    })
    .slice(0, MAX_NAME_CANDIDATES);
  const keys: { key: string; size: number }[] = [];
  const pick: string[] = [];
  const walk = (from: number, size: number): void => {
    if (pick.length === size) {
      keys.push({ key: nameKey(pick), size });
      return;
    }
    for (let i = from; i < named.length; i++) {
      pick.push(named[i]!);
      walk(i + 1, size);
      pick.pop();
    }
  };
  for (let size = 1; size <= Math.min(MAX_NAME_TOKENS, named.length); size++) walk(0, size);
  return keys;
}

/** Compiles a request against the catalog vocabulary; `exactOnly` keeps only the exact keys. */
export function compileQuery(catalog: Catalog, request: RetrievalRequest, exactOnly = false): CompiledQuery {
  const resolved = exactOnly ? { tokens: [], added: [] } : resolveSynonyms(catalog, requestTokens(request));
  const tokens = resolved.tokens;
  const terms: QueryTerm[] = [];
  const known: number[] = [];
  for (const token of tokens) {
    const id = knownId(catalog, token);
    if (id === undefined) continue;
    known.push(id);
    terms.push(lexical(catalog, id, 1, true));
  }
  for (const token of resolved.added)
    terms.push(lexical(catalog, knownId(catalog, token)!, SYNONYM_WEIGHT, false));
  const action = exactOnly ? undefined : actionWordOf(request.query);
  const actionToken = action === undefined ? undefined : tokenize(action)[0];
  if (actionToken !== undefined && !tokens.includes(actionToken) && !resolved.added.includes(actionToken)) {
    const id = knownId(catalog, actionToken);
    if (id !== undefined) terms.push(lexical(catalog, id, ACTION_WEIGHT, false));
  }
  if (!exactOnly && isFirstPerson(request.query)) {
    for (const token of SELF_TOKENS) {
      if (token === actionToken) continue;
      const id = knownId(catalog, token);
      if (id !== undefined && !tokens.includes(token) && !resolved.added.includes(token))
        terms.push(lexical(catalog, id, FIRST_PERSON_WEIGHT, false));
    }
  }
  const exact = (keys: readonly string[], name: keyof typeof EXACT_WEIGHTS): void => {
    for (const key of distinct(keys)) {
      const id = catalog.vocabulary.get(key);
      if (id !== undefined) terms.push(fixed(id, name, EXACT_WEIGHTS[name]));
    }
  };
  // A whole-name match weighs by the share of the request the name explains ("stock" explains a
  // third of "book titles and their stock", "repos/get" all of "get a repository").
  for (const { key, size } of wholeNameKeys(catalog, tokens)) {
    const id = catalog.vocabulary.get(key);
    if (id !== undefined)
      terms.push(fixed(id, "exactName", (EXACT_WEIGHTS.exactName * size) / tokens.length));
  }
  exact((request.fields ?? []).map(fieldKey), "exactField");
  exact((request.semanticIds ?? []).map(semanticKey), "exactSemanticId");
  exact((request.units ?? []).map(unitKey), "exactUnit");
  const pairs: string[] = [];
  for (const unit of request.units ?? []) {
    for (const id of request.semanticIds ?? []) pairs.push(semanticUnitKey(id, unit));
  }
  exact(pairs, "exactFieldUnit");
  terms.push(...sameFieldTerms(catalog, known));
  return { tokens, terms, intent: exactOnly ? undefined : intentOf(request.query) };
}

/** Applies one term to an endpoint on which the term's key has component mask `mask`. */
export function applyTerm(term: QueryTerm, mask: number, sums: Float64Array, offset: number): void {
  const weights = term.weights;
  if (weights === undefined) {
    if ((mask & term.bit) !== 0) sums[offset + term.slot]! += term.weight;
    return;
  }
  if ((mask & LEXICAL_MASK) === 0) return;
  if (term.counts) sums[offset + PRESENT_SLOT]!++;
  for (let c = 0; c < LEXICAL_BITS.length; c++) {
    if ((mask & LEXICAL_BITS[c]!) !== 0) sums[offset + c]! += weights[c]!;
  }
}

/**
 * Completes the row at `offset` once every term was applied to the endpoint whose locked effect is
 * `effect` and whose length factors are `factors[at ..]` (length-norm.ts): scales each lexical
 * component by its factor, sets the coverage and intent components and returns the total, summed in
 * COMPONENT_ORDER (0 when nothing matched).
 */
export function finishRow(
  sums: Float64Array,
  offset: number,
  query: CompiledQuery,
  effect: string,
  factors: Float64Array,
  at: number,
): number {
  for (let c = 0; c < LEXICAL_BITS.length; c++) sums[offset + c]! *= factors[at + c]!;
  const present = sums[offset + PRESENT_SLOT]!;
  if (present > 0) sums[offset + COVERAGE_SLOT] = (COVERAGE_WEIGHT * present) / query.tokens.length;
  const fit = query.intent === undefined ? 0 : intentFit(query.intent, effect);
  if (fit > 0) {
    let base = 0;
    for (let slot = 0; slot < COMPONENT_ORDER.length; slot++)
      if (slot !== INTENT_SLOT) base += sums[offset + slot]!;
    if (base > 0) sums[offset + INTENT_SLOT] = INTENT_WEIGHT * fit * base;
  }
  let score = 0;
  for (let slot = 0; slot < COMPONENT_ORDER.length; slot++) score += sums[offset + slot]!;
  return score;
}

/** Scratch space for scoring one endpoint at a time. */
export function scratch(): Float64Array {
  return new Float64Array(STRIDE);
}

/**
 * Scores endpoint `index` directly from its surface row (exhaustive mode): fills `sums` and returns
 * the total. Index mode gets the same masks from the posting lists and calls the same two functions.
 */
export function scoreEntry(
  catalog: Catalog,
  index: number,
  query: CompiledQuery,
  sums: Float64Array,
): number {
  sums.fill(0);
  for (const term of query.terms) applyTerm(term, maskOf(catalog, index, term.id), sums, 0);
  const norms = normsOf(catalog);
  return finishRow(sums, 0, query, effectOf(catalog, index), norms.factorsOf(index), 0);
}

/** Number of request tokens present, from a finished row. */
export function presentOf(sums: Float64Array, offset: number): number {
  return sums[offset + PRESENT_SLOT]!;
}

/** The non-zero components of a finished row. */
export function componentsOf(sums: Float64Array, offset: number): Partial<Record<ScoreComponent, number>> {
  const components: Partial<Record<ScoreComponent, number>> = {};
  COMPONENT_ORDER.forEach((name, slot) => {
    const value = sums[offset + slot]!;
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
