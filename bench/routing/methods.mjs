/**
 * The routing methods under test, each as a set of rejection settings over one registry:
 *   raw(request)           — the ranked list with scores, no threshold (for threshold calibration);
 *   default(request)       — what the product returns by default: SchemaRouter `retrieve(request, {k: 5})`
 *                            with no rejection options, so any default threshold or support check the
 *                            runtime applies is measured as shipped (a rejection = an empty list);
 *                            baselines: their top 5 with a positive score;
 *   none(request)          — ranking only: the top 5 of the ranked surface;
 *   apriori(request)       — the fixed coverage rule of metrics.mjs (A_PRIORI);
 *   above(request, t)      — candidates scoring strictly above t (the held-out setting).
 * Each returns routes best first; `top(request)` returns the default setting's first candidate with its
 * locked effect (read-intent safety).
 */
import { createRetriever } from "../../runtime/dist/retrieval/index.js";
import { A_PRIORI, K } from "./metrics.mjs";

export function schemaRouter(registry) {
  const retriever = createRetriever(registry);
  const routes = (request, options) => retriever.retrieve(request, { k: K, ...options }).map((c) => c.route);
  return {
    name: "SchemaRouter",
    raw: (request) =>
      retriever.rankedEntries(request, { limit: K }).map((e) => ({ route: e.route, score: e.score })),
    default: (request) => routes(request, {}),
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
