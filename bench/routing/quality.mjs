/**
 * Routing quality on the seeded high-ambiguity catalog: SchemaRouter against the lexical and BM25
 * baselines, same catalog, same labelled requests, same run. Three rejection settings:
 *   none     — ranking only (top 5 with a positive score);
 *   a priori — SchemaRouter `minCoverage: 0.5, minScore: 0` (fixed before any run: at least half of the
 *              distinct request tokens must be on the candidate's surface); baselines get the same rule
 *              over their own text (at least half of the request tokens in name + description);
 *   held-out — each method's own score threshold (SchemaRouter: `minScore`), picked by the same rule
 *              (calibrateThreshold) on one fold and applied to the other (2-fold cross-fitting), so no
 *              case is scored with a threshold tuned on it.
 */
import { createRetriever } from "../../runtime/dist/retrieval/index.js";
import { ambiguousCatalog } from "./ambiguous.mjs";
import { bm25Router, lexicalRouter } from "./baselines.mjs";
import { random } from "./catalogs.mjs";
import { A_PRIORI, aggregate, calibrateThreshold, folds, K, outcome, SETTINGS } from "./metrics.mjs";
import { summarize } from "./stats.mjs";

function schemaRouter(registry) {
  const retriever = createRetriever(registry);
  const routes = (request, options) => retriever.retrieve(request, { k: K, ...options }).map((c) => c.route);
  return {
    name: "SchemaRouter",
    raw: (request) =>
      retriever.rankedEntries(request, { limit: K }).map((e) => ({ route: e.route, score: e.score })),
    none: (request) => routes(request, {}),
    apriori: (request) => routes(request, A_PRIORI),
    above: (request, threshold) => routes(request, { minScore: threshold }),
  };
}

function baseline(router) {
  return {
    name: router.name,
    raw: (request) => router.rank(request),
    none: (request) =>
      router
        .rank(request)
        .slice(0, K)
        .map((s) => s.route),
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

/** Outcomes of one method on one catalog, per setting; plus the held-out thresholds per fold. */
function evaluate(method, catalog, fold) {
  const { cases } = catalog;
  const raw = cases.map((c) => method.raw(c.request));
  const thresholds = [0, 1].map((f) => {
    const calibration = cases.map((_, i) => i).filter((i) => fold[i] !== f);
    return calibrateThreshold(
      calibration.map((i) => cases[i]),
      calibration.map((i) => raw[i]),
    ).threshold;
  });
  return {
    thresholds,
    none: cases.map((c) => outcome(c, method.none(c.request))),
    "a priori": cases.map((c) => outcome(c, method.apriori(c.request))),
    "held-out": cases.map((c, i) => outcome(c, method.above(c.request, thresholds[fold[i]]))),
  };
}

const METRICS = [
  "recall1",
  "recall3",
  "recall5",
  "rejection",
  "overRejection",
  "falseRouteSupported",
  "falseRouteUnsupported",
  "falseRouteOverall",
];

/** Runs every seed; returns catalog facts (one row per seed) then result rows (median/min/max over seeds). */
export function runQuality({ seeds = [1, 2, 3, 4, 5], scale = 1 } = {}) {
  const perSeed = [];
  const facts = [];
  for (const seed of seeds) {
    const catalog = ambiguousCatalog({ seed, scale });
    const fold = folds(catalog.cases, random(seed ^ 0x5eed));
    const methods = [
      schemaRouter(catalog.registry),
      baseline(lexicalRouter(catalog.registry)),
      baseline(bm25Router(catalog.registry)),
      baseline(bm25Router(catalog.registry, { fullSurface: true })),
    ];
    perSeed.push({
      cases: catalog.cases,
      methods: methods.map((m) => ({ name: m.name, ...evaluate(m, catalog, fold) })),
    });
    const needs = catalog.cases.flatMap((c) => c.required);
    facts.push({
      bench: "routing-catalog",
      seed,
      tools: catalog.tools.length,
      endpoints: catalog.endpoints,
      supported: catalog.cases.filter((c) => c.supported).length,
      unsupported: catalog.cases.filter((c) => !c.supported).length,
      answeringPerNeed: needs.reduce((sum, routes) => sum + routes.length, 0) / needs.length,
      forms: Object.fromEntries(
        [...new Set(catalog.cases.map((c) => c.form))].map((form) => [
          form,
          catalog.cases.filter((c) => c.form === form).length,
        ]),
      ),
    });
  }
  const forms = ["all", ...new Set(perSeed.flatMap((s) => s.cases.map((c) => c.form)))];
  const rows = [];
  perSeed[0].methods.forEach(({ name }, mi) => {
    for (const setting of SETTINGS) {
      for (const form of forms) {
        const aggregates = perSeed.map(({ cases, methods }) =>
          aggregate(methods[mi][setting].filter((_, ci) => form === "all" || cases[ci].form === form)),
        );
        const row = { bench: "routing-quality", method: name, setting, form };
        for (const metric of METRICS) row[metric] = summarize(aggregates.map((a) => a[metric]));
        row.cases = summarize(aggregates.map((a) => a.cases));
        if (setting === "a priori") {
          row.rule =
            name === "SchemaRouter"
              ? "minCoverage 0.5, minScore 0"
              : "≥ 0.5 of request tokens in the document";
        }
        if (setting === "held-out") row.thresholds = perSeed.flatMap(({ methods }) => methods[mi].thresholds);
        rows.push(row);
      }
    }
  });
  return [...facts, ...rows];
}
