/**
 * Routing quality on the seeded high-ambiguity catalog and on the paraphrase set: SchemaRouter against
 * the lexical and BM25 baselines, same catalog, same labelled requests, same run. Rejection settings
 * (methods.mjs): default (the product as shipped), none (ranking only), a priori (metrics.mjs A_PRIORI,
 * fixed before any run), held-out (each method's own score threshold, picked by calibrateThreshold on
 * one fold and applied to the other — 2-fold cross-fitting — and, for paraphrase requests, the
 * threshold picked on all of the seed's catalog requests, none of which is a paraphrase request).
 *
 * Seeds: REPORT_SEEDS by default (the tables), TUNING_SEEDS for tuning (concepts.mjs); the paraphrase
 * set's own split follows (report seeds use its report half, other seeds its tuning half).
 */
import { ambiguousCatalog } from "./ambiguous.mjs";
import { bm25Router, lexicalRouter } from "./baselines.mjs";
import { random } from "./catalogs.mjs";
import { REPORT_SEEDS } from "./concepts.mjs";
import { baseline, DEFAULT_API, schemaRouter } from "./methods.mjs";
import { aggregate, calibrateThreshold, folds, outcome, SETTINGS } from "./metrics.mjs";
import { paraphraseCases } from "./paraphrase.mjs";
import { summarize } from "./stats.mjs";

/** Near-domain unsupported kinds (the fixed list's `near` and the three generated kinds). */
export const NEAR_KINDS = Object.freeze([
  "unsupported-near",
  "unsupported-field",
  "unsupported-unit",
  "unsupported-qualifier",
]);

const structuredRequest = (request) => request.semanticIds !== undefined || request.units !== undefined;

/** The groups a catalog case is aggregated in (every case is in "all"). */
function groupsOf(c) {
  const shape = structuredRequest(c.request) ? "structured" : "text";
  if (c.supported) return ["all", "supported", c.form, `supported-${shape}`];
  const groups = ["all", "unsupported", c.form, `unsupported-${shape}`];
  if (NEAR_KINDS.includes(c.form)) groups.push("unsupported-near-all", `unsupported-near-all-${shape}`);
  return groups;
}

/** The groups a paraphrase case is aggregated in. */
function paraphraseGroupsOf(c) {
  return c.supported ? ["paraphrase", "paraphrase-supported", c.form] : ["paraphrase", c.form];
}

/** Outcomes of one method on one seed, per setting; plus the held-out thresholds per fold. */
function evaluate(method, cases, fold, paraphrases) {
  const raw = cases.map((c) => method.raw(c.request));
  const calibrate = (indices) =>
    calibrateThreshold(
      indices.map((i) => cases[i]),
      indices.map((i) => raw[i]),
    ).threshold;
  const thresholds = [0, 1].map((f) => calibrate(cases.map((_, i) => i).filter((i) => fold[i] !== f)));
  const whole = calibrate(cases.map((_, i) => i));
  const settings = (list, thresholdOf) => ({
    default: list.map((c) => {
      const result = method.explain(c.request);
      return outcome(c, result.routes, result);
    }),
    none: list.map((c) => outcome(c, method.none(c.request))),
    "a priori": list.map((c) => outcome(c, method.apriori(c.request))),
    "held-out": list.map((c, i) => outcome(c, method.above(c.request, thresholdOf(i)))),
  });
  return {
    thresholds,
    catalog: settings(cases, (i) => thresholds[fold[i]]),
    paraphrase: settings(paraphrases, () => whole),
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
  "explained",
];

/** Aggregates outcomes per group; returns Map group → aggregate. */
function byGroup(cases, outcomes, groupsFn) {
  const buckets = new Map();
  cases.forEach((c, i) => {
    for (const g of groupsFn(c)) {
      if (!buckets.has(g)) buckets.set(g, []);
      buckets.get(g).push(outcomes[i]);
    }
  });
  return new Map([...buckets].map(([g, list]) => [g, aggregate(list)]));
}

/**
 * Runs every seed; returns catalog facts (one row per seed) then result rows (median/min/max over
 * seeds) for every method × setting × group: `routing-quality` (catalog) and `routing-paraphrase`.
 */
export function runQuality({ seeds = REPORT_SEEDS, scale = 1 } = {}) {
  const perSeed = [];
  const facts = [];
  for (const seed of seeds) {
    const catalog = ambiguousCatalog({ seed, scale });
    const paraphrase = paraphraseCases(catalog.tools, {
      split: REPORT_SEEDS.includes(seed) ? "report" : "tuning",
    });
    const fold = folds(catalog.cases, random(seed ^ 0x5eed));
    const methods = [
      schemaRouter(catalog.registry),
      baseline(lexicalRouter(catalog.registry)),
      baseline(bm25Router(catalog.registry)),
      baseline(bm25Router(catalog.registry, { fullSurface: true })),
    ];
    const evaluated = methods.map((m) => ({
      name: m.name,
      ...evaluate(m, catalog.cases, fold, paraphrase.cases),
    }));
    perSeed.push({
      methods: evaluated.map((m) => ({
        name: m.name,
        thresholds: m.thresholds,
        catalog: Object.fromEntries(SETTINGS.map((s) => [s, byGroup(catalog.cases, m.catalog[s], groupsOf)])),
        paraphrase: Object.fromEntries(
          SETTINGS.map((s) => [s, byGroup(paraphrase.cases, m.paraphrase[s], paraphraseGroupsOf)]),
        ),
      })),
    });
    const needs = catalog.cases.flatMap((c) => c.required);
    const count = (list, pred) => list.filter(pred).length;
    facts.push({
      bench: "routing-catalog",
      seed,
      split: REPORT_SEEDS.includes(seed) ? "report" : "tuning",
      defaultApi: DEFAULT_API,
      tools: catalog.tools.length,
      endpoints: catalog.endpoints,
      supported: count(catalog.cases, (c) => c.supported),
      unsupported: count(catalog.cases, (c) => !c.supported),
      answeringPerNeed: needs.reduce((sum, routes) => sum + routes.length, 0) / needs.length,
      forms: Object.fromEntries(
        [...new Set(catalog.cases.map((c) => c.form))].map((form) => [
          form,
          count(catalog.cases, (c) => c.form === form),
        ]),
      ),
      paraphrase: {
        supported: count(paraphrase.cases, (c) => c.supported),
        unsupported: count(paraphrase.cases, (c) => !c.supported),
        notApplicable: paraphrase.notApplicable,
      },
    });
  }
  const rows = [];
  perSeed[0].methods.forEach(({ name }, mi) => {
    for (const [bench, part] of [
      ["routing-quality", "catalog"],
      ["routing-paraphrase", "paraphrase"],
    ]) {
      for (const setting of SETTINGS) {
        const groups = [...new Set(perSeed.flatMap((s) => [...s.methods[mi][part][setting].keys()]))];
        for (const group of groups) {
          const aggregates = perSeed
            .map((s) => s.methods[mi][part][setting].get(group))
            .filter((a) => a !== undefined);
          const row = { bench, method: name, setting, form: group };
          for (const metric of METRICS) row[metric] = summarize(aggregates.map((a) => a[metric]));
          row.cases = summarize(aggregates.map((a) => a.cases));
          if (setting === "held-out" && part === "catalog" && group === "all")
            row.thresholds = perSeed.flatMap((s) => s.methods[mi].thresholds);
          rows.push(row);
        }
      }
    }
  });
  return [...facts, ...rows];
}
