/**
 * Retrieval with the application's embedder (docs/runtime/embeddings.md, "Retrieving with vectors"):
 * the lexical top k first, then the request embedded once and compared with the compiled vectors.
 * Vectors only re-rank or add: every lexical top-k candidate is in the result, at most `add` others
 * join it, and every candidate is built from the locked registry (verified on use) with no authority.
 */

import { LoadError } from "../../errors/errors.js";
import type { Registry, RegistryEntry } from "../../load/registry.js";
import type { SourceKind } from "../../model/specs.js";
import { toCandidate } from "../candidate.js";
import { checkK, RetrievalError } from "../errors.js";
import type { Retriever } from "../retriever.js";
import type { CapabilityCandidate, RetrievalRequest, RetrieveOptions } from "../types.js";
import { queryText } from "./text.js";
import type { Embedder } from "./types.js";
import type { EmbeddingIndex } from "./vector-index.js";
import { embedTexts } from "./vectors.js";

/** Reciprocal-rank fusion constant (Cormack, Clarke & Büttcher, SIGIR 2009): ranks, never raw scores. */
export const FUSION_K = 60;
/** Cosine similarity a candidate the lexical ranking did not find needs to be added. */
export const DEFAULT_MIN_SIMILARITY = 0.3;

export interface EmbeddingRetrieveOptions extends RetrieveOptions {
  /** Candidates the vectors may add beyond the lexical top k (integer 0..k; default k). */
  readonly add?: number;
  /** Similarity an added candidate needs (-1..1; default DEFAULT_MIN_SIMILARITY). */
  readonly minSimilarity?: number;
}

/** How the vectors placed a candidate. */
export interface EmbeddingPlacement {
  /** `lexical`: in the lexical top k (never dropped); `embedding`: added by similarity. */
  readonly origin: "lexical" | "embedding";
  /** Its rank among the lexical top k, or null for an added candidate. */
  readonly lexicalRank: number | null;
  /** Cosine similarity with the request, or null when its source was compiled without vectors. */
  readonly similarity: number | null;
  /** The declared field whose vector was closest, when a field beat the endpoint's own text. */
  readonly field?: string;
}

export type EmbeddingCandidate = CapabilityCandidate & { readonly embedding: EmbeddingPlacement };

export interface RouteInfo {
  readonly index: number;
  readonly entry: RegistryEntry;
  readonly sourceKind: SourceKind;
}

const routeMaps = new WeakMap<
  Registry,
  {
    readonly routes: string[];
    readonly byRoute: Map<string, RouteInfo>;
    readonly entries: readonly RegistryEntry[];
    readonly kinds: SourceKind[];
  }
>();

/** The registry's routes in entry order, each with its entry and source kind (cached per registry). */
export function routesOf(registry: Registry) {
  let map = routeMaps.get(registry);
  if (map === undefined) {
    const entries = registry.entries();
    const routes = entries.map((e) => `${e.tool.name}.${e.endpoint.name}`);
    const kinds = entries.map((e) => registry.get(e.tool.name)!.sourceKind);
    const byRoute = new Map<string, RouteInfo>();
    for (const [index, entry] of entries.entries())
      byRoute.set(routes[index]!, { index, entry, sourceKind: kinds[index]! });
    map = { routes, byRoute, entries, kinds };
    routeMaps.set(registry, map);
  }
  return map;
}

/**
 * The requests' vectors (one `embed` call), each checked against the artifacts' dimension
 * (EMBEDDING_MISMATCH otherwise).
 */
export async function embedQueries(
  index: EmbeddingIndex,
  embedder: Embedder,
  requests: readonly RetrievalRequest[],
): Promise<Float64Array[]> {
  const vectors = await embedTexts(embedder, requests.map(queryText), { stage: "query" });
  for (const query of vectors) {
    if (query.length !== index.dimension) {
      throw new LoadError(
        "EMBEDDING_MISMATCH",
        `The runtime embedder answered with vectors of dimension ${query.length}, but the artifacts hold dimension ${index.dimension}. Use the model the artifacts were compiled with ("${index.model}").`,
        { reason: "dimension", expected: String(index.dimension), actual: String(query.length) },
      );
    }
  }
  return vectors;
}

function checkOptions(options: EmbeddingRetrieveOptions, k: number): { add: number; minSimilarity: number } {
  const add = options.add ?? k;
  if (!Number.isInteger(add) || add < 0 || add > k)
    throw new RetrievalError(`add must be an integer from 0 to k (${k}); got ${String(options.add)}.`, {
      field: "add",
    });
  const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  if (typeof minSimilarity !== "number" || !(minSimilarity >= -1 && minSimilarity <= 1))
    throw new RetrievalError(
      `minSimilarity must be a number from -1 to 1; got ${String(options.minSimilarity)}.`,
      {
        field: "minSimilarity",
      },
    );
  return { add, minSimilarity };
}

/**
 * The lexical top k, re-ranked by reciprocal-rank fusion with the vector ranking, plus at most `add`
 * candidates the lexical ranking missed whose similarity reaches `minSimilarity` (and whose effect
 * the request allows). Best first; `rank` is the position in this list.
 */
export async function retrieveWithEmbeddings(
  retriever: Retriever,
  index: EmbeddingIndex,
  embedder: Embedder,
  request: RetrievalRequest,
  options: EmbeddingRetrieveOptions = {},
): Promise<EmbeddingCandidate[]> {
  const k = checkK(options.k);
  const { add, minSimilarity } = checkOptions(options, k);
  // The lexical ranking first: a malformed request is refused before the embedder is called.
  const lexical = retriever.retrieve(request, { ...options, k });
  const [query] = await embedQueries(index, embedder, [request]);
  const ranked = index.rank(query!);
  const semanticRank = new Map(ranked.map((item, at) => [item.route, { rank: at + 1, item }]));
  const registry = retriever.registry();
  const { byRoute, routes, entries, kinds } = routesOf(registry);
  const effects = request.effects === undefined ? undefined : new Set(request.effects);
  const found = new Set(lexical.map((candidate) => candidate.route));
  const added: RouteInfo[] = [];
  for (const item of ranked) {
    if (added.length >= add || item.similarity < minSimilarity) break;
    const info = byRoute.get(item.route);
    if (info === undefined || found.has(item.route)) continue;
    if (effects !== undefined && !effects.has(info.entry.endpoint.effect)) continue;
    added.push(info);
  }
  const fused = (route: string, lexicalRank: number | null): number =>
    (lexicalRank === null ? 0 : 1 / (FUSION_K + lexicalRank)) +
    (semanticRank.has(route) ? 1 / (FUSION_K + semanticRank.get(route)!.rank) : 0);
  const pool = [
    ...lexical.map((candidate, at) => ({ route: candidate.route, lexicalRank: at + 1, candidate })),
    ...added.map((info) => ({ route: routes[info.index]!, lexicalRank: null, info })),
  ].map((item) => ({ ...item, score: fused(item.route, item.lexicalRank) }));
  pool.sort(
    (a, b) =>
      b.score - a.score ||
      (a.lexicalRank ?? Number.MAX_SAFE_INTEGER) - (b.lexicalRank ?? Number.MAX_SAFE_INTEGER) ||
      (semanticRank.get(a.route)?.rank ?? Number.MAX_SAFE_INTEGER) -
        (semanticRank.get(b.route)?.rank ?? Number.MAX_SAFE_INTEGER),
  );
  const catalog = { registry, entries, routes, sourceKinds: kinds };
  return pool.map((item, at) => {
    const base =
      "candidate" in item
        ? item.candidate
        : toCandidate(catalog, { index: item.info.index, score: 0, components: {} }, at + 1, request);
    const semantic = semanticRank.get(item.route)?.item;
    const placement: EmbeddingPlacement = {
      origin: item.lexicalRank === null ? "embedding" : "lexical",
      lexicalRank: item.lexicalRank,
      similarity: semantic?.similarity ?? null,
      ...(semantic?.field !== undefined ? { field: semantic.field } : {}),
    };
    return Object.freeze({ ...base, rank: at + 1, embedding: Object.freeze(placement) });
  });
}
