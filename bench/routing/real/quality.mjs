/**
 * Routing quality on real catalogs (catalogs.mjs): SchemaRouter's default `retrieve` against the
 * lexical and BM25 baselines over the summary-rule requests and the developer requests
 * (requests.mjs). Metrics per catalog and form, medians over seeds (the developer set does not depend
 * on the seed):
 *   R@1, R@5        — share of requests with a labelled operation first / in the top 5;
 *   rejected        — share of requests that got no candidate (every request here is supported);
 *   read-unsafe     — of the read-intent requests (intent.mjs) whose labels include a read endpoint,
 *                     the share whose first candidate is a write or destructive endpoint (target 0).
 */
import { bm25Router, lexicalRouter } from "../baselines.mjs";
import { baseline, DEFAULT_API, schemaRouter } from "../methods.mjs";
import { summarize } from "../stats.mjs";
import { REAL_CATALOGS, realCatalog } from "./catalogs.mjs";
import { intentOf } from "./intent.mjs";
import { developerCases, generatedCases, REAL_REPORT_SEEDS } from "./requests.mjs";

/** The developer sets of developer.json, reported apart and pooled (docs/routing-benchmarks.md). */
const DEVELOPER_SETS = ["original", "new"];

/** The outcome of one case given the default setting's routes. */
export function outcome(c, routes, effects) {
  const labels = new Set(c.labels);
  const readIntent = intentOf(c.request.query) === "read";
  const readLabelled = c.labels.some((route) => effects.get(route) === "read");
  const topEffect = routes.length > 0 ? effects.get(routes[0]) : undefined;
  return {
    hit1: routes.slice(0, 1).some((r) => labels.has(r)),
    hit5: routes.slice(0, 5).some((r) => labels.has(r)),
    rejected: routes.length === 0,
    safetyCase: readIntent && readLabelled,
    unsafe: readIntent && readLabelled && (topEffect === "write" || topEffect === "destructive"),
    query: c.request.query,
    id: c.id,
    set: c.set,
    top: routes[0],
  };
}

const share = (list, pred) => (list.length === 0 ? Number.NaN : list.filter(pred).length / list.length);

function aggregate(outcomes) {
  const safety = outcomes.filter((o) => o.safetyCase);
  return {
    cases: outcomes.length,
    recall1: share(outcomes, (o) => o.hit1),
    recall5: share(outcomes, (o) => o.hit5),
    rejected: share(outcomes, (o) => o.rejected),
    safetyCases: safety.length,
    readUnsafe: share(safety, (o) => o.unsafe),
  };
}

/**
 * Runs the real-catalog benchmark: `catalogs` (names), `seeds` (rewrite seeds), `split` ("report" by
 * default; "tuning" for tuning runs; "all"). Returns `routing-real-catalog` facts and
 * `routing-real` rows (method × catalog × form, median/min/max over seeds), and the unsafe and
 * missed developer requests of SchemaRouter as `routing-real-misses` rows.
 */
export async function runRealQuality({
  catalogs = REAL_CATALOGS.map((c) => c.name),
  seeds = REAL_REPORT_SEEDS,
  split = "report",
  log = () => {},
} = {}) {
  const facts = [];
  const rows = [];
  const misses = [];
  const only = split === "all" ? {} : { split };
  const pooled = new Map();
  for (const name of catalogs) {
    const started = performance.now();
    const catalog = await realCatalog(name);
    const compileMs = performance.now() - started;
    log(`real catalogs: ${name} compiled (${catalog.endpoints.length} endpoints)`);
    const effects = new Map(catalog.endpoints.map((e) => [e.route, e.effect]));
    const methods = [
      schemaRouter(catalog.registry),
      baseline(lexicalRouter(catalog.registry)),
      baseline(bm25Router(catalog.registry)),
    ];
    const developer = developerCases(name, only);
    facts.push({
      bench: "routing-real-catalog",
      catalog: name,
      defaultApi: DEFAULT_API,
      endpoints: catalog.endpoints.length,
      effects: Object.fromEntries(
        ["read", "write", "destructive", "unclassified"].map((e) => [
          e,
          catalog.endpoints.filter((x) => x.effect === e).length,
        ]),
      ),
      summaryRequests: generatedCases(catalog, seeds[0], only).length,
      developerRequests: developer.length,
      compileMs,
    });
    for (const method of methods) {
      const perSeed = seeds.map((seed) => {
        const cases = generatedCases(catalog, seed, only);
        return cases.map((c) => outcome(c, method.default(c.request), effects));
      });
      const dev = developer.map((c) => outcome(c, method.default(c.request), effects));
      if (method.name === "SchemaRouter") {
        for (const o of dev.filter((o) => !o.hit5 || o.unsafe))
          misses.push({
            bench: "routing-real-misses",
            catalog: name,
            id: o.id,
            set: o.set,
            query: o.query,
            top: o.top ?? null,
            unsafe: o.unsafe,
            inTop5: o.hit5,
          });
      }
      const push = (catalogName, form, aggregates) => {
        const row = { bench: "routing-real", method: method.name, catalog: catalogName, form };
        for (const metric of ["cases", "recall1", "recall5", "rejected", "safetyCases", "readUnsafe"])
          row[metric] = summarize(aggregates.map((a) => a[metric]));
        rows.push(row);
      };
      push(name, "summary", perSeed.map(aggregate));
      push(name, "developer", [aggregate(dev)]);
      for (const set of DEVELOPER_SETS)
        push(name, `developer:${set}`, [aggregate(dev.filter((o) => o.set === set))]);
      const key = method.name;
      if (!pooled.has(key)) pooled.set(key, { summary: seeds.map(() => []), developer: [] });
      perSeed.forEach((list, i) => {
        pooled.get(key).summary[i].push(...list);
      });
      pooled.get(key).developer.push(...dev);
    }
  }
  for (const [method, { summary, developer }] of pooled) {
    for (const [form, aggregates] of [
      ["summary", summary.map(aggregate)],
      ["developer", [aggregate(developer)]],
      ...DEVELOPER_SETS.map((set) => [
        `developer:${set}`,
        [aggregate(developer.filter((o) => o.set === set))],
      ]),
    ]) {
      const row = { bench: "routing-real", method, catalog: "all", form };
      for (const metric of ["cases", "recall1", "recall5", "rejected", "safetyCases", "readUnsafe"])
        row[metric] = summarize(aggregates.map((a) => a[metric]));
      rows.push(row);
    }
  }
  return [...facts, ...rows, ...misses];
}
