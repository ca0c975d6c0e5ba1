/**
 * Routing with rejection (docs/runtime/retrieval-and-planning.md, "Unsupported requests"): ranks the
 * request, then keeps only candidates that cover a need of the request — every concept word of the
 * need (or a synonym) on the endpoint, and the need's units and field attributes (qualifiers) on one
 * and the same field as its concept. A request with a need that no ranked candidate covers is
 * rejected, and the rejection names the uncovered concepts so an agent can ask instead of guessing.
 * Deterministic, local, and the same in index and exhaustive mode (it reads only the ranked list).
 */
import type { RegistryEntry } from "../load/registry.js";
import type { FieldSpec, JsonSchema } from "../model/specs.js";
import { enumValues } from "./enum-values.js";
import { checkMinScore, RetrievalError } from "./errors.js";
import { type FieldTerms, fieldTerms } from "./fields.js";
import type { Retriever } from "./retriever.js";
import { normalizeKey, tokenize } from "./tokenize.js";
import type { CapabilityCandidate, RetrievalRequest } from "./types.js";
import { type Need, needsOf } from "./vocabulary/concepts.js";
import { namesReadVerb } from "./vocabulary/intent.js";
import { canonicalUnit, unitToken } from "./vocabulary/units.js";

/** Ranked candidates examined for coverage (default). */
export const DEFAULT_ROUTE_DEPTH = 50;
/**
 * The one default rejection threshold: the share of a need's concepts a candidate must cover. 1 —
 * every concept word of the need, with its units and qualifiers on the same field. Not tuned per
 * catalog; an application may lower it (`minConceptCoverage`) to accept partial matches.
 */
export const DEFAULT_MIN_CONCEPT_COVERAGE = 1;

export type UncoveredKind = "concept" | "unit" | "qualifier" | "semanticId" | "field";

export interface UncoveredConcept {
  /** The words (or requested item) no candidate covers, as the request wrote them. */
  readonly concept: string;
  readonly kind: UncoveredKind;
  /** The need it belongs to, as the request wrote it. */
  readonly need: string;
  readonly reason: string;
}

export interface RouteOptions {
  /** Candidates returned (1..200; default 5). */
  readonly k?: number;
  /** Ranked candidates examined (1..200; default DEFAULT_ROUTE_DEPTH). */
  readonly depth?: number;
  /** Share (0..1] of a need's concepts a candidate must cover (default 1). */
  readonly minConceptCoverage?: number;
  readonly minScore?: number;
  readonly isReady?: (tool: string) => boolean;
}

export interface RouteResult {
  /** Ranked candidates covering at least one need, best first (empty when rejected). */
  readonly candidates: readonly CapabilityCandidate[];
  readonly rejected: boolean;
  /** Why the request was rejected: every need no candidate covers, and what in it is uncovered. */
  readonly uncovered: readonly UncoveredConcept[];
  /** A one-line explanation, present when rejected. */
  readonly reason?: string;
}

/** Tokens of an endpoint, split by where they come from. */
interface EntryTerms {
  /** The endpoint only reads. */
  readonly reads: boolean;
  /** The endpoint's locked effect is destructive. */
  readonly destroys: boolean;
  readonly all: ReadonlySet<string>;
  /** Everything except field units, dimensions and qualifiers. */
  readonly plain: ReadonlySet<string>;
  readonly fields: readonly { readonly field: FieldSpec; readonly terms: FieldTerms }[];
}

/** An endpoint with its tool (a registry entry, or a candidate's specs). */
export type EndpointOfTool = Pick<RegistryEntry, "tool" | "endpoint">;

const TERMS = new WeakMap<RegistryEntry["endpoint"], EntryTerms>();

function termsOf(entry: EndpointOfTool): EntryTerms {
  const cached = TERMS.get(entry.endpoint);
  if (cached !== undefined) return cached;
  const { tool, endpoint } = entry;
  const plain = new Set<string>();
  const add = (text: string | undefined): void => {
    if (text !== undefined) for (const token of tokenize(text)) plain.add(token);
  };
  for (const text of [endpoint.name, endpoint.description, tool.name, tool.namespace, tool.provider])
    add(text);
  add(tool.description);
  for (const parameter of endpoint.parameters) {
    add(parameter.name);
    add(parameter.description);
    // Its declared JSON type is part of the contract: "addition of two integers" names the inputs
    // by their type (docs/runtime/retrieval-and-planning.md, "Unsupported requests").
    for (const type of schemaTypes(parameter.schema)) add(type);
    // So are the values it accepts: `state: closed` covers "close an issue" (same page, "Coverage terms").
    for (const value of enumValues(parameter.schema, 0)) add(value);
  }
  // The literal segments of an HTTP path name what the endpoint serves (`/rate_limit`, `/user`).
  if (endpoint.execution?.kind === "http")
    for (const segment of endpoint.execution.path.split("/")) if (!segment.startsWith("{")) add(segment);
  const fields = endpoint.fields.map((field) => ({ field, terms: fieldTerms(field) }));
  const all = new Set(plain);
  for (const { field, terms } of fields) {
    add(field.description);
    for (const token of terms.tokens) {
      all.add(token);
      if (!terms.attributeTokens.has(token)) plain.add(token);
    }
  }
  for (const token of plain) all.add(token);
  const made = {
    reads: endpoint.effect === "read",
    destroys: endpoint.effect === "destructive",
    all,
    plain,
    fields,
  };
  TERMS.set(endpoint, made);
  return made;
}

/**
 * The type names a parameter schema declares: its `type` names, or the name of the shared definition
 * it refers to (`#/$defs/Integer` → `Integer`); none for `true`, `false` or an untyped schema.
 */
function schemaTypes(schema: JsonSchema): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const { type, $ref } = schema as { type?: unknown; $ref?: unknown };
  const out = typeof $ref === "string" ? [$ref.slice($ref.lastIndexOf("/") + 1)] : [];
  if (typeof type === "string") out.push(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === "string") out.push(t);
  return out;
}

/** One thing the request asks for: a free-text need or a structured item. */
type Requirement =
  | { readonly kind: "text"; readonly need: Need }
  | {
      readonly kind: "semanticId";
      readonly id: string;
      readonly units: ReadonlySet<string>;
      /** The same units as the request wrote them, for explanations ("mph", not `[mi_i]/h`). */
      readonly writtenUnits: readonly string[];
      /** The request's free text when it has one need: its field attributes must be on the field. */
      readonly text: Need | undefined;
    }
  | { readonly kind: "field"; readonly name: string }
  | { readonly kind: "unit"; readonly unit: string; readonly code: string };

/**
 * The requirements of a request. A request that names semantic IDs or fields has said what it needs:
 * those are its requirements and its free text only ranks. Otherwise each free-text need is one, and
 * so is each requested unit. Requested units constrain a requested semantic ID only when the request
 * has one semantic ID (with several, which unit belongs to which is not said).
 */
function requirementsOf(
  request: RetrievalRequest,
  unitsBelong = (request.semanticIds ?? []).length === 1,
): Requirement[] {
  const ids = [...new Set(request.semanticIds ?? [])];
  const names = [...new Set(request.fields ?? [])];
  if (ids.length === 0 && names.length === 0) {
    const out: Requirement[] = needsOf(request.query).map((need) => ({ kind: "text", need }));
    for (const unit of new Set(request.units ?? []))
      out.push({ kind: "unit", unit, code: canonicalUnit(unit) ?? unit });
    return out;
  }
  const writtenUnits = unitsBelong ? [...new Set(request.units ?? [])] : [];
  const units = new Set(writtenUnits.map((unit) => canonicalUnit(unit) ?? unit));
  const needs = needsOf(request.query);
  const text = ids.length === 1 && needs.length === 1 ? needs[0] : undefined;
  return [
    ...ids.map((id): Requirement => ({ kind: "semanticId", id, units, writtenUnits, text })),
    ...names.map((name): Requirement => ({ kind: "field", name })),
  ];
}

const unitOf = (field: FieldSpec): string | undefined =>
  field.unit === undefined ? undefined : (canonicalUnit(field.unit) ?? field.unit);

/** What of one text need an endpoint leaves uncovered (empty: it covers the need). */
function textGaps(
  need: Need,
  terms: EntryTerms,
  known: ReadonlySet<string>,
  minCoverage: number,
): UncoveredConcept[] {
  const gaps: UncoveredConcept[] = [];
  const covering = new Map<number, string>();
  let counted = 0;
  need.concepts.forEach((concept, i) => {
    const token = concept.tokens.find((t) => terms.all.has(t));
    if (token !== undefined) {
      covering.set(i, token);
      counted++;
      return;
    }
    // An argument value ("for Busan") that no ranked endpoint knows is not a concept.
    if (concept.value && !concept.tokens.some((t) => known.has(t))) return;
    // "uploaded files": a read endpoint lists them without naming the upload.
    if (concept.participle === true && terms.reads) return;
    counted++;
    gaps.push({
      concept: concept.text,
      kind: "concept",
      need: need.text,
      reason: `no endpoint declares "${concept.text}"`,
    });
  });
  if (counted > 0 && covering.size / counted < minCoverage) return mergeAdjacent(gaps);
  gaps.length = 0;
  // A need with a unit or a field attribute (a word the endpoint has only in a field's unit,
  // dimensions or qualifiers) asks for one field: the unit (unless that field declares none), and
  // every word of the need that the endpoint has on some field, must then be on that same field.
  const words = [...covering.values()];
  const attributes = words.filter((t) => !terms.plain.has(t));
  const units = need.units.map((unit) => ({ ...unit, token: unitToken(unit.code) }));
  if (attributes.length === 0 && units.length === 0) return [];
  const onFields = words.filter((t) => terms.fields.some(({ terms: f }) => f.tokens.has(t)));
  const hasUnit = (entry: (typeof terms.fields)[number], unit: (typeof units)[number]): boolean =>
    unitOf(entry.field) === unit.code || entry.terms.tokens.has(unit.token);
  const fits = (entry: (typeof terms.fields)[number]): number =>
    units.filter((u) => hasUnit(entry, u)).length + onFields.filter((t) => entry.terms.tokens.has(t)).length;
  let best = terms.fields[0];
  for (const entry of terms.fields) if (fits(entry) > fits(best!)) best = entry;
  const subject = best === undefined ? "" : ` for ${best.field.id}`;
  for (const unit of units) {
    // A field that declares no unit may hold any: only a different declared unit is a gap.
    if (best !== undefined && (hasUnit(best, unit) || best.field.unit === undefined)) continue;
    gaps.push({
      concept: unit.text,
      kind: "unit",
      need: need.text,
      reason: `no endpoint declares a field${subject} in ${unit.text}`,
    });
  }
  for (const token of onFields) {
    if (best?.terms.tokens.has(token)) continue;
    const concept = need.concepts.find((c) => c.tokens.includes(token))?.text ?? token;
    const qualifier = attributes.includes(token);
    gaps.push({
      concept,
      kind: qualifier ? "qualifier" : "concept",
      need: need.text,
      reason: qualifier
        ? `no endpoint declares a field${subject} qualified by "${concept}"`
        : `no endpoint declares "${concept}" on the same field${subject}`,
    });
  }
  return gaps;
}

/** Adjacent uncovered words of one need read as one concept ("soil moisture"). */
function mergeAdjacent(gaps: readonly UncoveredConcept[]): UncoveredConcept[] {
  const out: UncoveredConcept[] = [];
  for (const gap of gaps) {
    const last = out[out.length - 1];
    const joined = last === undefined ? "" : `${last.concept} ${gap.concept}`;
    if (
      last !== undefined &&
      last.kind === "concept" &&
      gap.kind === "concept" &&
      gap.need.includes(joined)
    ) {
      out[out.length - 1] = { ...last, concept: joined, reason: `no endpoint declares "${joined}"` };
    } else out.push(gap);
  }
  return out;
}

function structuredGaps(
  requirement: Exclude<Requirement, { kind: "text" }>,
  terms: EntryTerms,
  attributes: ReadonlySet<string>,
): UncoveredConcept[] {
  const fields = terms.fields.map((f) => f.field);
  if (requirement.kind === "semanticId") {
    const declaring = fields.filter((f) => f.semanticId === requirement.id);
    if (declaring.length === 0) {
      return [
        {
          concept: requirement.id,
          kind: "semanticId",
          need: requirement.id,
          reason: `no endpoint declares a field with semantic ID ${requirement.id}`,
        },
      ];
    }
    if (requirement.units.size > 0 && !declaring.some((f) => requirement.units.has(unitOf(f) ?? ""))) {
      // Named as the request wrote them, so an agent can ask the user in the user's own words.
      const units = requirement.writtenUnits.join(", ");
      const codes = [...requirement.units].join(", ");
      return [
        {
          concept: units,
          kind: "unit",
          need: requirement.id,
          reason: `no endpoint declares ${requirement.id} in ${units}${codes === units ? "" : ` (${codes})`}`,
        },
      ];
    }
    // Qualifier words of the text (words some ranked endpoint has only as a field attribute) must
    // be on a field that declares the semantic ID ("solar radiation over 24h").
    const asked = (requirement.text?.concepts ?? []).filter((c) => c.tokens.some((t) => attributes.has(t)));
    const carriers = terms.fields.filter(({ field }) => field.semanticId === requirement.id);
    const missing = asked.filter(
      (c) => !carriers.some(({ terms: f }) => c.tokens.some((t) => f.tokens.has(t))),
    );
    return missing.map((c) => ({
      concept: c.text,
      kind: "qualifier" as const,
      need: requirement.text!.text,
      reason: `no endpoint declares a field with semantic ID ${requirement.id} qualified by "${c.text}"`,
    }));
  }
  if (requirement.kind === "field") {
    const key = normalizeKey(requirement.name);
    if (terms.fields.some(({ terms: f }) => f.keys.has(key))) return [];
    return [
      {
        concept: requirement.name,
        kind: "field",
        need: requirement.name,
        reason: `no endpoint declares a field named ${requirement.name}`,
      },
    ];
  }
  if (fields.some((f) => unitOf(f) === requirement.code)) return [];
  return [
    {
      concept: requirement.unit,
      kind: "unit",
      need: requirement.unit,
      reason: `no endpoint declares a field in ${requirement.unit}`,
    },
  ];
}

function gapsOf(
  requirement: Requirement,
  terms: EntryTerms,
  known: Known,
  minCoverage: number,
): UncoveredConcept[] {
  return requirement.kind === "text"
    ? textGaps(requirement.need, terms, known.tokens, minCoverage)
    : structuredGaps(requirement, terms, known.attributes);
}

/** Tokens of the ranked endpoints: all of them, and those some field has only as an attribute. */
interface Known {
  readonly tokens: ReadonlySet<string>;
  readonly attributes: ReadonlySet<string>;
}

function boundedInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > 200) {
    throw new RetrievalError(`options.${name} must be an integer from 1 to 200; got ${String(value)}.`, {
      field: name,
    });
  }
  return value;
}

function checkConceptCoverage(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MIN_CONCEPT_COVERAGE;
  if (typeof value !== "number" || !(value > 0 && value <= 1)) {
    throw new RetrievalError(
      `options.minConceptCoverage must be a number in (0, 1]; got ${String(value)}. Leave it unset for the default 1.`,
      { field: "minConceptCoverage" },
    );
  }
  return value;
}

export interface CoverageReport {
  /** Per ranked entry (same order): it covers at least one requirement. */
  readonly covers: readonly boolean[];
  readonly rejected: boolean;
  readonly uncovered: readonly UncoveredConcept[];
  readonly reason?: string;
}

/**
 * Checks ranked entries (best first) against the request's needs: which entries cover a need, and
 * whether some need is covered by none (then `rejected`, with the best entry's gaps for that need).
 */
export function checkCoverage(
  request: RetrievalRequest,
  ranked: readonly EndpointOfTool[],
  minConceptCoverage: number = DEFAULT_MIN_CONCEPT_COVERAGE,
): CoverageReport {
  return coverageOf(requirementsOf(request), ranked, minConceptCoverage, asksToRead(request));
}

/**
 * A request whose deciding verb reads ("list", "search", "show": vocabulary/intent.ts) and that names no
 * `effects` of its own is never answered by a destructive endpoint: one still ranks but covers none of
 * its needs (docs/runtime/retrieval-and-planning.md, "Read requests"). A write endpoint still can (a
 * POST that searches is a read to the user). Narrowing, never granting: intent takes candidates away
 * from an answer, it never adds one.
 */
function asksToRead(request: RetrievalRequest): boolean {
  return request.effects === undefined && namesReadVerb(request.query ?? "");
}

function coverageOf(
  requirements: readonly Requirement[],
  ranked: readonly EndpointOfTool[],
  minConceptCoverage: number,
  readVerb: boolean,
): CoverageReport {
  const terms = ranked.map(termsOf);
  const answers = (t: EntryTerms): boolean => !readVerb || !t.destroys;
  const known = { tokens: new Set<string>(), attributes: new Set<string>() };
  for (const t of terms) {
    for (const token of t.all) known.tokens.add(token);
    for (const token of t.all) if (!t.plain.has(token)) known.attributes.add(token);
  }
  const covers = terms.map((t) => requirements.length === 0 && answers(t));
  const uncovered: UncoveredConcept[] = [];
  for (const requirement of requirements) {
    let best: UncoveredConcept[] | undefined;
    terms.forEach((t, i) => {
      if (!answers(t)) return;
      const gaps = gapsOf(requirement, t, known, minConceptCoverage);
      if (gaps.length === 0) covers[i] = true;
      if (best === undefined || gaps.length < best.length) best = gaps;
    });
    if (best === undefined) best = gapsOf(requirement, EMPTY_TERMS, known, minConceptCoverage);
    if (best.length > 0) uncovered.push(...best);
  }
  const rejected = uncovered.length > 0 || !terms.some(answers);
  if (!rejected) return { covers, rejected, uncovered };
  const reason =
    uncovered.length === 0
      ? readVerb && ranked.length > 0
        ? "the request asks to read and only destructive endpoints match it"
        : "no endpoint matches the request"
      : `unsupported: ${uncovered.map((u) => u.reason).join("; ")}`;
  return { covers, rejected, uncovered, reason };
}

const EMPTY_TERMS: EntryTerms = {
  reads: false,
  destroys: false,
  all: new Set(),
  plain: new Set(),
  fields: [],
};

/** One need of a request with the request that ranks it on its own. */
interface Group {
  readonly request: RetrievalRequest;
  readonly requirements: readonly Requirement[];
}

const overlap = (a: readonly string[], b: ReadonlySet<string>): number => a.filter((t) => b.has(t)).length;

/**
 * The request's needs, each with its own request: one group when the request has at most one need.
 * Otherwise, without semantic IDs or fields, one per free-text need; with them, one per requested
 * semantic ID or field, ranked with the free-text need that shares most of its words. Requested units
 * go with every group (they only steer ranking there, unless the request has one semantic ID).
 */
function groupsOf(request: RetrievalRequest): Group[] {
  const needs = needsOf(request.query);
  const ids = [...new Set(request.semanticIds ?? [])];
  const names = [...new Set(request.fields ?? [])];
  const structured = ids.length + names.length;
  if (structured === 1 || (structured === 0 && needs.length <= 1)) {
    return [{ request, requirements: requirementsOf(request) }];
  }
  const rest = {
    ...(request.units !== undefined ? { units: request.units } : {}),
    ...(request.effects !== undefined ? { effects: request.effects } : {}),
  };
  if (structured === 0) {
    return needs.map((need) => {
      const sub: RetrievalRequest = { query: need.text, ...rest };
      return { request: sub, requirements: requirementsOf(sub) };
    });
  }
  const words = needs.map((need) => new Set(need.concepts.flatMap((c) => c.tokens)));
  const textFor = (item: string): string => {
    const tokens = tokenize(item);
    let best = "";
    let most = 0;
    words.forEach((set, i) => {
      const n = overlap(tokens, set);
      if (n > most) {
        most = n;
        best = needs[i]!.text;
      }
    });
    return best;
  };
  const unitsBelong = ids.length === 1;
  const items: RetrievalRequest[] = [
    ...ids.map((id) => ({ query: textFor(id), ...rest, semanticIds: [id] })),
    ...names.map((name) => ({ query: textFor(name), ...rest, fields: [name] })),
  ];
  return items.map((sub) => ({ request: sub, requirements: requirementsOf(sub, unitsBelong) }));
}

export interface AssessOptions {
  readonly depth?: number;
  readonly minConceptCoverage?: number;
  readonly minScore?: number;
  readonly isReady?: (tool: string) => boolean;
}

interface RankedNeed {
  readonly request: RetrievalRequest;
  readonly routes: readonly string[];
  readonly covers: readonly boolean[];
}

export interface Assessment {
  readonly rejected: boolean;
  readonly uncovered: readonly UncoveredConcept[];
  readonly reason?: string;
  /** Per need: its request, its ranked routes (best first) and which of them cover it. */
  readonly needs: readonly RankedNeed[];
  /** No need ranked any candidate (nothing in the registry matches the request at all). */
  readonly nothingRanked: boolean;
}

function surfaceOptions(options: AssessOptions, depth: number) {
  return {
    limit: depth,
    ...(options.minScore !== undefined ? { minScore: checkMinScore(options.minScore) } : {}),
    ...(options.isReady !== undefined ? { isReady: options.isReady } : {}),
  };
}

/**
 * Ranks each need of `request` (the whole request when it has one) and checks which ranked
 * candidates cover it; rejected when some need is covered by none of its `depth` best candidates.
 */
export function assess(
  retriever: Retriever,
  request: RetrievalRequest,
  options: AssessOptions = {},
): Assessment {
  const depth = boundedInteger(options.depth, DEFAULT_ROUTE_DEPTH, "depth");
  const minConceptCoverage = checkConceptCoverage(options.minConceptCoverage);
  const surface = surfaceOptions(options, depth);
  const needs: RankedNeed[] = [];
  const uncovered: UncoveredConcept[] = [];
  let rejected = false;
  for (const group of groupsOf(request)) {
    const ranked = retriever.rankedEntries(group.request, surface);
    const report = coverageOf(
      group.requirements,
      ranked.map((r) => r.entry),
      minConceptCoverage,
      asksToRead(group.request),
    );
    if (report.rejected) rejected = true;
    uncovered.push(...report.uncovered);
    needs.push({ request: group.request, routes: ranked.map((r) => r.route), covers: report.covers });
  }
  const nothingRanked = needs.every((need) => need.routes.length === 0);
  if (!rejected) return { rejected, uncovered: [], needs, nothingRanked };
  const reason =
    uncovered.length === 0
      ? "no endpoint matches the request"
      : `unsupported: ${uncovered.map((u) => u.reason).join("; ")}`;
  return { rejected, uncovered, reason, needs, nothingRanked };
}

/**
 * Ranks `request` and returns the candidates that cover one of its needs, or a rejection naming what
 * no candidate covers. With several needs, candidates covering more needs come first, then the needs'
 * rankings take turns; each candidate carries the rank and score of the ranking it came from. Never
 * executes, never grants authority.
 */
export function route(
  retriever: Retriever,
  request: RetrievalRequest,
  options: RouteOptions = {},
): RouteResult {
  const k = boundedInteger(options.k, 5, "k");
  const depth = Math.max(k, boundedInteger(options.depth, DEFAULT_ROUTE_DEPTH, "depth"));
  const assessment = assess(retriever, request, { ...options, depth });
  if (assessment.rejected) {
    return Object.freeze({
      candidates: Object.freeze([]),
      rejected: true,
      uncovered: Object.freeze([...assessment.uncovered]),
      ...(assessment.reason !== undefined ? { reason: assessment.reason } : {}),
    });
  }
  // Interleave the needs' covering routes; count how many needs each route covers.
  const order: { route: string; need: number; position: number }[] = [];
  const count = new Map<string, number>();
  const seen = new Set<string>();
  assessment.needs.forEach((need) => {
    need.routes.forEach((r, i) => {
      if (need.covers[i]) count.set(r, (count.get(r) ?? 0) + 1);
    });
  });
  for (let position = 0; position < depth; position++) {
    assessment.needs.forEach((need, n) => {
      const r = need.routes[position];
      if (r === undefined || !need.covers[position] || seen.has(r)) return;
      seen.add(r);
      order.push({ route: r, need: n, position });
    });
  }
  const chosen = order
    .map((item, i) => ({ ...item, i }))
    .sort((a, b) => count.get(b.route)! - count.get(a.route)! || a.i - b.i)
    .slice(0, k);
  const surface = surfaceOptions(options, depth);
  const materialised = assessment.needs.map((need, n) => {
    const last = Math.max(0, ...chosen.filter((c) => c.need === n).map((c) => c.position + 1));
    if (last === 0) return new Map<string, CapabilityCandidate>();
    const list = retriever.rankedSurface(need.request, { ...surface, limit: last });
    return new Map(list.map((c) => [c.route, c]));
  });
  const candidates = chosen.map((c) => materialised[c.need]!.get(c.route)!);
  return Object.freeze({
    candidates: Object.freeze(candidates),
    rejected: false,
    uncovered: Object.freeze([]),
  });
}
