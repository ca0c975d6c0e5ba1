/**
 * Routing with rejection when an embedder is configured (docs/runtime/embeddings.md, "Routing with
 * vectors"). The lexical decision (route() and its concept coverage) comes first and is kept: every
 * candidate it returns is returned, in its order. A request it rejects is accepted only when every
 * gap is a free-text concept (no named semantic ID, field, unit or qualifier is missing) and every
 * uncovered need has an endpoint with a declared field whose vector is at least `minFieldSimilarity`
 * from the need's own vector, in the need's unit when it names one, with an effect the request allows.
 * Every candidate is a locked registry endpoint with no authority.
 */
import { toCandidate } from "../candidate.js";
import { RetrievalError } from "../errors.js";
import type { Retriever } from "../retriever.js";
import { assess, type RouteOptions, route, type UncoveredConcept } from "../route.js";
import type { CapabilityCandidate, RetrievalRequest } from "../types.js";
import { needsOf } from "../vocabulary/concepts.js";
import { canonicalUnit } from "../vocabulary/units.js";
import { type EmbeddingCandidate, type EmbeddingPlacement, embedQueries, routesOf } from "./retrieve.js";
import type { Embedder } from "./types.js";
import type { EmbeddingIndex, RouteSimilarity } from "./vector-index.js";

/**
 * The one default: the cosine similarity that both an uncovered need and one of its uncovered words
 * need with a declared field's vector for the field to cover the need. The smallest value of the
 * sweep 0.50/0.55/0.60/0.65 that kept near-domain unsupported requests ≥ 98% rejected on the tuning
 * seeds with the Universal Sentence Encoder lite (docs/routing-benchmarks.md, "With an embedding
 * model"); a model of another family may need its own value (`minFieldSimilarity`).
 */
export const DEFAULT_MIN_FIELD_SIMILARITY = 0.65;

export interface EmbeddingRouteOptions extends RouteOptions {
  /** Similarity (-1..1] a declared field needs to cover a need lexical coverage left uncovered. */
  readonly minFieldSimilarity?: number;
}

export interface EmbeddingRouteResult {
  /** Best first: route()'s candidates when it accepts, else the covering candidates per need. */
  readonly candidates: readonly EmbeddingCandidate[];
  readonly rejected: boolean;
  /** What no candidate covers, lexically or by vector (route()'s explanation); empty when accepted. */
  readonly uncovered: readonly UncoveredConcept[];
  readonly reason?: string;
  /** The needs (as the request wrote them) that only vectors covered; empty when route() accepted. */
  readonly coveredByEmbedding: readonly string[];
}

function checkSimilarity(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MIN_FIELD_SIMILARITY;
  if (typeof value !== "number" || !(value > -1 && value <= 1)) {
    throw new RetrievalError(
      `options.minFieldSimilarity must be a number in (-1, 1]; got ${String(value)}. Leave it unset for the default ${DEFAULT_MIN_FIELD_SIMILARITY}.`,
      { field: "minFieldSimilarity" },
    );
  }
  return value;
}

const placed = (
  candidate: CapabilityCandidate,
  rank: number,
  placement: EmbeddingPlacement,
): EmbeddingCandidate => Object.freeze({ ...candidate, rank, embedding: Object.freeze(placement) });

/**
 * route() with the configured embedder's vectors: never drops or reorders a candidate route() returns,
 * and turns a rejection into candidates only as the module comment says. The request is embedded
 * once, with each uncovered need in the same `embed` call.
 */
export async function routeWithEmbeddings(
  retriever: Retriever,
  index: EmbeddingIndex,
  embedder: Embedder,
  request: RetrievalRequest,
  options: EmbeddingRouteOptions = {},
): Promise<EmbeddingRouteResult> {
  const minFieldSimilarity = checkSimilarity(options.minFieldSimilarity);
  const { minFieldSimilarity: _, ...routeOptions } = options;
  // The lexical decision first: a malformed request is refused before the embedder is called.
  const lexical = route(retriever, request, routeOptions);
  const registry = retriever.registry();
  if (!lexical.rejected) {
    const [query] = await embedQueries(index, embedder, [request]);
    const similarity = new Map(index.rank(query!).map((item) => [item.route, item]));
    const candidates = lexical.candidates.map((candidate, at) => {
      const item = similarity.get(candidate.route);
      return placed(candidate, candidate.rank, {
        origin: "lexical",
        lexicalRank: at + 1,
        similarity: item?.similarity ?? null,
        ...(item?.field !== undefined ? { field: item.field } : {}),
      });
    });
    return Object.freeze({
      candidates: Object.freeze(candidates),
      rejected: false,
      uncovered: Object.freeze([]),
      coveredByEmbedding: Object.freeze([]),
    });
  }
  const rejection = (): EmbeddingRouteResult =>
    Object.freeze({
      candidates: Object.freeze([]),
      rejected: true,
      uncovered: lexical.uncovered,
      ...(lexical.reason !== undefined ? { reason: lexical.reason } : {}),
      coveredByEmbedding: Object.freeze([]),
    });
  // A named semantic ID, field, unit or qualifier is a contract attribute: vectors never supply one.
  if (lexical.uncovered.length === 0 || lexical.uncovered.some((gap) => gap.kind !== "concept"))
    return rejection();
  const k = options.k ?? 5;
  const assessment = assess(retriever, request, routeOptions);
  const open = assessment.needs.filter((need) => !need.covers.some(Boolean));
  // Each open need's uncovered words (route()'s gaps name the need as the request wrote it).
  const spansOf = open.map((need) => {
    const texts = new Set(needsOf(need.request.query).map((n) => n.text));
    const own = lexical.uncovered.filter((gap) => open.length === 1 || texts.has(gap.need));
    return [...new Set(own.map((gap) => gap.concept))];
  });
  if (spansOf.some((spans) => spans.length === 0)) return rejection();
  const asked = open.flatMap((need, n) => [need.request, ...spansOf[n]!.map((query) => ({ query }))]);
  const vectors = await embedQueries(index, embedder, asked);
  const { byRoute } = routesOf(registry);
  const effects = request.effects === undefined ? undefined : new Set(request.effects);
  const rescued = new Map<RetrievalRequest, RouteSimilarity[]>();
  let at = 0;
  for (const need of open) {
    const needVector = vectors[at++]!;
    const spanFields = spansOf[open.indexOf(need)]!.map(
      () => new Map(index.rankFields(vectors[at++]!).map((item) => [item.route, item])),
    );
    const units = needsOf(need.request.query).flatMap((m) => m.units.map((u) => u.code));
    const covering = index.rankFields(needVector).filter((item) => {
      if (item.similarity < minFieldSimilarity) return false;
      // Some uncovered word of the need must itself be as close to the same field.
      const named = spanFields.some((fields) => {
        const span = fields.get(item.route);
        return span !== undefined && span.field === item.field && span.similarity >= minFieldSimilarity;
      });
      if (!named) return false;
      const info = byRoute.get(item.route);
      if (info === undefined) return false;
      if (effects !== undefined && !effects.has(info.entry.endpoint.effect)) return false;
      if (options.isReady !== undefined && !options.isReady(info.entry.tool.name)) return false;
      const field = info.entry.endpoint.fields.find((f) => f.id === item.field);
      const unit = field?.unit === undefined ? undefined : (canonicalUnit(field.unit) ?? field.unit);
      return unit === undefined || units.every((code) => code === unit);
    });
    if (covering.length === 0) return rejection();
    rescued.set(need.request, covering);
  }
  // Accepted: the needs take turns, lexically covered needs with their covering routes in rank order,
  // the others with their vector-covering routes, most similar first.
  const { entries, routes, kinds } = routesOf(registry);
  const catalog = { registry, entries, routes, sourceKinds: kinds };
  type Need = (typeof assessment.needs)[number];
  interface Entry {
    readonly route: string;
    readonly need: Need;
    readonly item: RouteSimilarity | undefined;
    readonly lexicalRank: number | null;
  }
  const lists = assessment.needs.map((need): Entry[] => {
    const vector = rescued.get(need.request);
    if (vector !== undefined)
      return vector.map((item) => ({ route: item.route, need, item, lexicalRank: null }));
    return need.routes.flatMap((r, at) =>
      need.covers[at] ? [{ route: r, need, item: undefined, lexicalRank: at + 1 }] : [],
    );
  });
  const chosen: Entry[] = [];
  const seen = new Set<string>();
  for (let position = 0; chosen.length < k && lists.some((list) => position < list.length); position++) {
    for (const list of lists) {
      const entry = list[position];
      if (entry === undefined || seen.has(entry.route) || chosen.length >= k) continue;
      seen.add(entry.route);
      chosen.push(entry);
    }
  }
  const candidates = chosen.map((entry, at) => {
    const info = byRoute.get(entry.route)!;
    const base = toCandidate(
      catalog,
      { index: info.index, score: 0, components: {} },
      at + 1,
      entry.need.request,
    );
    return placed(base, at + 1, {
      origin: entry.item === undefined ? "lexical" : "embedding",
      lexicalRank: entry.lexicalRank,
      similarity: entry.item?.similarity ?? null,
      ...(entry.item?.field !== undefined ? { field: entry.item.field } : {}),
    });
  });
  return Object.freeze({
    candidates: Object.freeze(candidates),
    rejected: false,
    uncovered: Object.freeze([]),
    coveredByEmbedding: Object.freeze(open.map((need) => need.request.query)),
  });
}
