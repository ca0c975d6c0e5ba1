/**
 * The routing methods under test, each as a set of rejection settings over one registry:
 *   raw(request)           — the ranked list with scores, no threshold (for threshold calibration);
 *   default(request)       — what the product returns by default: SchemaRouter's routing-with-rejection
 *                            API `route(retriever, request, { k: 5 })` when the built runtime exports
 *                            one (docs/runtime/retrieval-and-planning.md), else `retrieve(request,
 *                            { k: 5 })` with no options; a rejection = an empty list. Baselines: their
 *                            top 5 with a positive score;
 *   explain(request)       — the default setting's result with its explanation: { routes, rejected,
 *                            uncovered } (uncovered: what the runtime says no endpoint covers; null
 *                            when the method gives no explanation);
 *   none(request)          — ranking only: the top 5 of the ranked surface;
 *   apriori(request)       — the fixed coverage rule of metrics.mjs (A_PRIORI);
 *   above(request, t)      — candidates scoring strictly above t (the held-out setting).
 * Each returns routes best first; `top(request)` returns the default setting's first candidate with its
 * locked effect (read-intent safety).
 */
import * as retrieval from "../../runtime/dist/retrieval/index.js";
import { A_PRIORI, K } from "./metrics.mjs";

/** The runtime's routing-with-rejection function, when the built runtime has one. */
const ROUTE = typeof retrieval.route === "function" ? retrieval.route : undefined;

/** Which product API the default setting measures (printed with the tables). */
export const DEFAULT_API =
  ROUTE !== undefined ? "route(retriever, request, { k: 5 })" : "retriever.retrieve(request, { k: 5 })";

export function schemaRouter(registry) {
  const retriever = retrieval.createRetriever(registry);
  const routes = (request, options) => retriever.retrieve(request, { k: K, ...options }).map((c) => c.route);
  const explain = (request) => {
    if (ROUTE === undefined) {
      const list = routes(request, {});
      return { routes: list, rejected: list.length === 0, uncovered: null };
    }
    const result = ROUTE(retriever, request, { k: K });
    return {
      routes: result.candidates.map((c) => c.route),
      rejected: result.rejected === true || result.candidates.length === 0,
      uncovered: Array.isArray(result.uncovered) ? result.uncovered : null,
    };
  };
  return {
    name: "SchemaRouter",
    raw: (request) =>
      retriever.rankedEntries(request, { limit: K }).map((e) => ({ route: e.route, score: e.score })),
    default: (request) => explain(request).routes,
    explain,
    none: (request) => retriever.rankedEntries(request, { limit: K }).map((e) => e.route),
    apriori: (request) => routes(request, A_PRIORI),
    above: (request, threshold) => routes(request, { minScore: threshold }),
  };
}

export function baseline(router) {
  const top = (request) =>
    router
      .rank(request)
      .slice(0, K)
      .map((s) => s.route);
  return {
    name: router.name,
    raw: (request) => router.rank(request),
    default: top,
    explain: (request) => {
      const list = top(request);
      return { routes: list, rejected: list.length === 0, uncovered: null };
    },
    none: top,
    apriori: (request) =>
      router
        .rank(request)
        .filter((s) => s.score > A_PRIORI.minScore && s.present >= A_PRIORI.minCoverage * s.total)
        .slice(0, K)
        .map((s) => s.route),
    above: (request, threshold) =>
      router
        .rank(request)
        .filter((s) => s.score > threshold)
        .slice(0, K)
        .map((s) => s.route),
  };
}
