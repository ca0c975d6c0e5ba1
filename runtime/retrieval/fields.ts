/**
 * Query-to-field matching (docs/runtime/field-projection.md, "Planner behaviour"): a declared field is
 * matched by its logical ID, aliases, explicit path segments, semantic ID, unit, dimensions and
 * qualifiers. Matching only ever names declared logical field IDs; paths are trusted metadata and never
 * leave this module.
 */
import type { FieldSpec } from "../model/specs.js";
import { normalizeKey, tokenize, tokenizeQuery, unitTokens } from "./tokenize.js";
import type { RetrievalRequest } from "./types.js";
import { synonymsOf } from "./vocabulary/synonyms.js";
import { canonicalUnit } from "./vocabulary/units.js";

export interface FieldTerms {
  /** Every token that matches the field. */
  readonly tokens: ReadonlySet<string>;
  /** Tokens of the field's own names: ID, aliases and the last path segment. */
  readonly nameTokens: ReadonlySet<string>;
  /** Tokens of the field's distinguishing attributes: unit, dimensions and qualifier keys/values. */
  readonly attributeTokens: ReadonlySet<string>;
  /** Normalized keys of the field ID and aliases (exact-name matching). */
  readonly keys: ReadonlySet<string>;
}

/** Texts of field names, paths and attributes repeat across endpoints: their tokens, by text. */
const TOKEN_CACHE_LIMIT = 8192;
const tokenCache = new Map<string, readonly string[]>();
const unitTokenCache = new Map<string, readonly string[]>();

/** `tokenize`/`unitTokens` of `text`, remembered (the cache is emptied when it reaches its limit). */
function cached(
  cache: Map<string, readonly string[]>,
  text: string,
  compute: (text: string) => string[],
): readonly string[] {
  let tokens = cache.get(text);
  if (tokens === undefined) {
    if (cache.size >= TOKEN_CACHE_LIMIT) cache.clear();
    tokens = Object.freeze(compute(text));
    cache.set(text, tokens);
  }
  return tokens;
}

export function fieldTerms(field: FieldSpec): FieldTerms {
  const tokens = new Set<string>();
  const nameTokens = new Set<string>();
  const attributeTokens = new Set<string>();
  const add = (text: string | undefined, into: Set<string>[]): void => {
    if (text === undefined) return;
    for (const token of cached(tokenCache, text, tokenize)) for (const set of into) set.add(token);
  };
  add(field.id, [tokens, nameTokens]);
  for (const alias of field.aliases ?? []) add(alias, [tokens, nameTokens]);
  const segments = field.path.filter((segment) => segment !== "*");
  segments.forEach((segment, i) => {
    add(segment, i === segments.length - 1 ? [tokens, nameTokens] : [tokens]);
  });
  add(field.semanticId, [tokens]);
  if (field.unit !== undefined) {
    for (const token of cached(unitTokenCache, field.unit, unitTokens)) {
      tokens.add(token);
      attributeTokens.add(token);
    }
  }
  add(field.dimensions, [tokens, attributeTokens]);
  for (const [key, value] of Object.entries(field.qualifiers ?? {})) {
    add(key, [tokens, attributeTokens]);
    add(value, [tokens, attributeTokens]);
  }
  const keys = new Set([field.id, ...(field.aliases ?? [])].map(normalizeKey));
  return { tokens, nameTokens, attributeTokens, keys };
}

export interface FieldMatch {
  readonly field: FieldSpec;
  readonly terms: FieldTerms;
  /** Query tokens (from the request text, or a synonym of one) that the field matches, in query order. */
  readonly tokens: readonly string[];
  /** Explicit request items the field satisfies: `field:<name>` or `semanticId:<id>`. */
  readonly requested: readonly string[];
  /** The field declares one of the requested units. */
  readonly unitRequested: boolean;
}

/** What field matching needs of a request, computed once per request (see matchFields). */
export interface PreparedRequest {
  readonly request: RetrievalRequest;
  readonly queryTokens: readonly string[];
  readonly units: ReadonlySet<string>;
  readonly semanticIds: ReadonlySet<string>;
}

export function prepareRequest(request: RetrievalRequest): PreparedRequest {
  const written = tokenizeQuery(request.query);
  return {
    request,
    queryTokens: [...new Set([...written, ...written.flatMap((token) => synonymsOf(token))])],
    units: new Set((request.units ?? []).map((unit) => canonicalUnit(unit) ?? unit)),
    semanticIds: new Set(request.semanticIds ?? []),
  };
}

/** Terms of frozen fields (loaded contracts), computed once per field object. */
const frozenTerms = new WeakMap<FieldSpec, FieldTerms>();

function termsOf(field: FieldSpec): FieldTerms {
  if (!Object.isFrozen(field)) return fieldTerms(field);
  let terms = frozenTerms.get(field);
  if (terms === undefined) {
    terms = fieldTerms(field);
    frozenTerms.set(field, terms);
  }
  return terms;
}

/** Matches every declared field against the request; one result per field, in declaration order. */
export function matchFields(
  fields: readonly FieldSpec[],
  request: RetrievalRequest,
  prepared: PreparedRequest = prepareRequest(request),
): FieldMatch[] {
  const { queryTokens, units, semanticIds } = prepared;
  return fields.map((field) => {
    const terms = termsOf(field);
    const requested: string[] = [];
    for (const name of request.fields ?? []) {
      if (terms.keys.has(normalizeKey(name)) && !requested.includes(`field:${name}`))
        requested.push(`field:${name}`);
    }
    if (field.semanticId !== undefined && semanticIds.has(field.semanticId)) {
      requested.push(`semanticId:${field.semanticId}`);
    }
    return {
      field,
      terms,
      tokens: queryTokens.filter((token) => terms.tokens.has(token)),
      requested,
      unitRequested: field.unit !== undefined && units.has(canonicalUnit(field.unit) ?? field.unit),
    };
  });
}

export function isMatched(match: FieldMatch): boolean {
  return match.tokens.length > 0 || match.requested.length > 0 || match.unitRequested;
}
