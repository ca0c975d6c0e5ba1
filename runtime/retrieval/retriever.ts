/**
 * The retriever: ranks registered capabilities for a request and returns bounded typed candidates.
 * It caches the scoring surface and inverted index per registry object (registries are immutable,
 * each replacement is a new versioned object). Nothing here executes or grants authority.
 */

import type { Registry, RegistryEntry } from "../load/registry.js";
import type { SourceKind } from "../model/specs.js";
import { toCandidate } from "./candidate.js";
import { checkK, checkMinCoverage, checkMinScore, checkRequest, RetrievalError } from "./errors.js";
import { prepareRequest } from "./fields.js";
import { type RankFilter, rank } from "./rank.js";
import { compileQuery, type Scored } from "./score.js";
import { catalogFromStoredIndex, storedIndexOf } from "./stored-index.js";
import { buildCatalog, type Catalog } from "./surface.js";
import type {
  CapabilityCandidate,
  ExecutableOptions,
  RetrievalRequest,
  RetrieveOptions,
  StateAwareOptions,
} from "./types.js";

export interface RetrieverOptions {
  /** Score every endpoint instead of only those sharing a key with the request (parity checks). */
  readonly exhaustive?: boolean;
}

export interface SurfaceOptions {
  readonly minScore?: number;
  readonly minCoverage?: number;
  readonly isReady?: (tool: string) => boolean;
  /** Stop after this many candidates (default: the whole positive-score surface). */
  readonly limit?: number;
  /** Score only exact keys (requested field names, semantic IDs, units), no lexical tokens. */
  readonly exactOnly?: boolean;
}

/** A ranked endpoint without the candidate's derived data (effective schemas, matched fields). */
export interface RankedEntry {
  readonly route: string;
  readonly rank: number;
  readonly score: number;
  readonly entry: RegistryEntry;
  readonly sourceKind: SourceKind;
}

export interface IndexStats {
  readonly registryVersion: number;
  readonly exhaustive: boolean;
  readonly endpoints: number;
  readonly vocabulary: number;
  readonly postings: number;
  /**
   * `stored`: the lock-pinned compile-time index of a loaded registry; `memory`: built from the
   * endpoints at first use (exhaustive mode, a registry not from `load`, an old or other-version index).
   */
  readonly origin: "stored" | "memory";
}

export interface Retriever {
  readonly exhaustive: boolean;
  /** The registry the retriever currently serves. */
  registry(): Registry;
  retrieve(request: RetrievalRequest, options?: RetrieveOptions): CapabilityCandidate[];
  retrieveExecutable(request: RetrievalRequest, options: ExecutableOptions): CapabilityCandidate[];
  retrieveStateAware<S>(
    request: RetrievalRequest,
    state: S,
    options: StateAwareOptions<S>,
  ): CapabilityCandidate[];
  reretrieveStateAware<S>(
    request: RetrievalRequest,
    state: S,
    options: StateAwareOptions<S>,
  ): CapabilityCandidate[];
  /** The ranked, positive-score surface (optionally restricted to ready tools), best first. */
  rankedSurface(request: RetrievalRequest, options?: SurfaceOptions): CapabilityCandidate[];
  /** The same ranked surface as registry entries (cheap: no effective schemas are built). */
  rankedEntries(request: RetrievalRequest, options?: SurfaceOptions): RankedEntry[];
  /** Builds the index now (if needed) and describes it. */
  stats(): IndexStats;
}

/** Memoized trusted readiness (called once per tool per ranking). */
function readiness(
  isReady: ((tool: string) => boolean) | undefined,
): ((tool: string) => boolean) | undefined {
  if (isReady === undefined) return undefined;
  if (typeof isReady !== "function") throw new TypeError("isReady must be a function");
  const memo = new Map<string, boolean>();
  return (tool) => {
    let ready = memo.get(tool);
    if (ready === undefined) {
      ready = isReady(tool) === true;
      memo.set(tool, ready);
    }
    return ready;
  };
}

/** A retriever over a fixed registry, or over a getter that returns the current registry. */
export function createRetriever(
  source: Registry | (() => Registry),
  config: RetrieverOptions = {},
): Retriever {
  const exhaustive = config.exhaustive === true;
  const current = typeof source === "function" ? source : () => source;
  let cached: Catalog | undefined;
  const catalog = (): Catalog => {
    const registry = current();
    if (cached === undefined || cached.registry !== registry) {
      // Exhaustive mode is the reference: it always scores the endpoints themselves.
      const stored = exhaustive ? undefined : storedIndexOf(registry);
      cached =
        stored !== undefined ? catalogFromStoredIndex(registry, stored) : buildCatalog(registry, !exhaustive);
    }
    return cached;
  };

  const ranked = (request: RetrievalRequest, opts: SurfaceOptions): { cat: Catalog; list: Scored[] } => {
    checkRequest(request);
    const limit = opts.limit ?? Number.POSITIVE_INFINITY;
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))) {
      throw new RetrievalError(`limit must be a positive integer; got ${String(opts.limit)}.`, {
        limit: opts.limit,
      });
    }
    const cat = catalog();
    const filter: RankFilter = {
      effects: request.effects === undefined ? undefined : new Set(request.effects),
      isReady: readiness(opts.isReady),
      minScore: checkMinScore(opts.minScore),
      minCoverage: checkMinCoverage(opts.minCoverage),
    };
    return {
      cat,
      list: rank(cat, compileQuery(cat, request, opts.exactOnly === true), filter, limit),
    };
  };
  const surface = (request: RetrievalRequest, opts: SurfaceOptions = {}): CapabilityCandidate[] => {
    const { cat, list } = ranked(request, opts);
    const prepared = list.length > 0 ? prepareRequest(request) : undefined;
    return list.map((scored, i) => toCandidate(cat, scored, i + 1, request, prepared));
  };
  const eligibleWith = <S>(state: S, isEligible: StateAwareOptions<S>["isEligible"]) => {
    if (typeof isEligible !== "function") throw new TypeError("isEligible must be a function");
    return (candidate: CapabilityCandidate): boolean => isEligible(candidate, state) === true;
  };
  const options = (
    opts: RetrieveOptions,
    isReady: ((tool: string) => boolean) | undefined,
    limit: number,
  ): SurfaceOptions => ({
    limit,
    ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
    ...(opts.minCoverage !== undefined ? { minCoverage: opts.minCoverage } : {}),
    ...(isReady !== undefined ? { isReady } : {}),
  });

  return {
    exhaustive,
    registry: current,
    rankedSurface: surface,
    rankedEntries(request, opts = {}) {
      const { cat, list } = ranked(request, opts);
      return list.map((scored, i) => ({
        route: cat.routes[scored.index]!,
        rank: i + 1,
        score: scored.score,
        entry: cat.entries[scored.index]!,
        sourceKind: cat.sourceKinds[scored.index]!,
      }));
    },
    retrieve(request, opts = {}) {
      return surface(request, options(opts, undefined, checkK(opts.k)));
    },
    retrieveExecutable(request, opts) {
      if (typeof opts?.isReady !== "function")
        throw new TypeError("retrieveExecutable needs an isReady function");
      return surface(request, options(opts, opts.isReady, checkK(opts.k)));
    },
    retrieveStateAware(request, state, opts) {
      const eligible = eligibleWith(state, opts.isEligible);
      return surface(request, options(opts, opts.isReady, checkK(opts.k))).filter(eligible);
    },
    reretrieveStateAware(request, state, opts) {
      const k = checkK(opts.k);
      const eligible = eligibleWith(state, opts.isEligible);
      const { cat, list } = ranked(request, options(opts, opts.isReady, Number.POSITIVE_INFINITY));
      const out: CapabilityCandidate[] = [];
      const prepared = prepareRequest(request);
      for (let i = 0; i < list.length && out.length < k; i++) {
        const candidate = toCandidate(cat, list[i]!, i + 1, request, prepared);
        if (eligible(candidate)) out.push(candidate);
      }
      return out;
    },
    stats() {
      const cat = catalog();
      return {
        registryVersion: cat.registry.version,
        exhaustive,
        endpoints: cat.entries.length,
        vocabulary: cat.vocabulary.size,
        postings: cat.postings?.length ?? 0,
        origin: cat.origin,
      };
    },
  };
}
