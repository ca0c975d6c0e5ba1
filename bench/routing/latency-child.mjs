/**
 * One latency measurement in a fresh process (so memory figures belong to one catalog): builds the
 * catalog, builds the index-mode and exhaustive-mode retrievers, checks parity on every request
 * (top-k candidates, the full ranked surface, and the plan), then times retrieve and plan per request
 * in both modes over `runs` interleaved passes. Prints one JSON object on stdout.
 * Usage: node --expose-gc bench/routing/latency-child.mjs '{"catalog":"generated","endpoints":1000,"runs":5,"builds":3}'
 * (`catalog`: "generated" | "github"; `builds`/`exhaustiveBuilds`: timed index/exhaustive builds.)
 */
import { plan } from "../../runtime/dist/planner/index.js";
import { createRetriever } from "../../runtime/dist/retrieval/index.js";
import { generatedCatalog } from "./catalogs.mjs";
import { percentile } from "./stats.mjs";

const spec = JSON.parse(process.argv[2] ?? "{}");
const gc = globalThis.gc ?? (() => {});
const MB = 2 ** 20;

function memory() {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapMb: (m.heapUsed + m.external) / MB, rssMb: m.rss / MB };
}

const timed = (fn) => {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
};

/** The catalog under test; the compiler is imported (outside the timing) only for GitHub. */
async function load() {
  if (spec.catalog === "github") {
    const { GITHUB_QUERIES, githubRegistry } = await import("./github.mjs");
    const base = memory();
    const started = performance.now();
    const registry = await githubRegistry();
    return { base, registry, registryMs: performance.now() - started, queries: GITHUB_QUERIES };
  }
  const base = memory();
  const started = performance.now();
  const generated = generatedCatalog(spec.endpoints, { seed: spec.seed ?? 1, queries: spec.queries ?? 100 });
  return {
    base,
    registry: generated.registry,
    registryMs: performance.now() - started,
    queries: generated.queries,
  };
}
const { base, registry, registryMs, queries } = await load();
const afterRegistry = memory();

const index = createRetriever(registry);
const indexBuild = [timed(() => index.stats()).ms];
const afterIndex = memory();
const exhaustive = createRetriever(registry, { exhaustive: true });
const exhaustiveBuild = [timed(() => exhaustive.stats()).ms];
const afterExhaustive = memory();
// Further builds for timing only (each starts from a collected heap; the built catalogs are dropped).
for (let i = 1; i < Math.max(spec.builds ?? 3, spec.exhaustiveBuilds ?? 0); i++) {
  if (i < (spec.builds ?? 3)) {
    gc();
    indexBuild.push(timed(() => createRetriever(registry).stats()).ms);
  }
  if (i < (spec.exhaustiveBuilds ?? spec.builds ?? 3)) {
    gc();
    exhaustiveBuild.push(timed(() => createRetriever(registry, { exhaustive: true }).stats()).ms);
  }
}

// Parity (also the warm-up pass): identical candidates, identical full ranked surface, identical plan.
const parity = { requests: queries.length, retrieve: 0, surface: 0, plan: 0 };
const surfaceSizes = [];
const sameSurface = (a, b) =>
  a.length === b.length && a.every((x, i) => x.route === b[i].route && x.score === b[i].score);
for (const request of queries) {
  if (JSON.stringify(index.retrieve(request)) !== JSON.stringify(exhaustive.retrieve(request)))
    parity.retrieve++;
  const surface = index.rankedEntries(request);
  surfaceSizes.push(surface.length);
  if (!sameSurface(surface, exhaustive.rankedEntries(request))) parity.surface++;
  if (JSON.stringify(plan(index, request)) !== JSON.stringify(plan(exhaustive, request))) parity.plan++;
}

const OPS = {
  "retrieve/index": (request) => index.retrieve(request),
  "retrieve/exhaustive": (request) => exhaustive.retrieve(request),
  "plan/index": (request) => plan(index, request),
  "plan/exhaustive": (request) => plan(exhaustive, request),
};
const names = Object.keys(OPS);
const ops = Object.fromEntries(names.map((name) => [name, { p50: [], p99: [], mean: [] }]));
for (let run = 0; run < (spec.runs ?? 5); run++) {
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  const order = run % 2 === 0 ? names : [...names].reverse();
  for (const request of queries) {
    for (const name of order) {
      const t = performance.now();
      OPS[name](request);
      samples[name].push(performance.now() - t);
    }
  }
  for (const name of names) {
    ops[name].p50.push(percentile(samples[name], 50));
    ops[name].p99.push(percentile(samples[name], 99));
    ops[name].mean.push(samples[name].reduce((a, b) => a + b, 0) / samples[name].length);
  }
}

const stats = index.stats();
const sortedSizes = [...surfaceSizes].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    catalog: spec.catalog === "github" ? "GitHub REST" : `generated ${spec.endpoints}`,
    endpoints: stats.endpoints,
    tools: registry.toolNames().length,
    requests: queries.length,
    vocabulary: stats.vocabulary,
    postings: stats.postings,
    registryMs,
    indexBuildMs: indexBuild,
    exhaustiveBuildMs: exhaustiveBuild,
    memory: {
      registryMb: afterRegistry.heapMb - base.heapMb,
      indexMb: afterIndex.heapMb - afterRegistry.heapMb,
      exhaustiveMb: afterExhaustive.heapMb - afterIndex.heapMb,
      rssBaseMb: base.rssMb,
      rssAfterIndexMb: afterIndex.rssMb,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    },
    surfaceMedian: sortedSizes[sortedSizes.length >> 1] ?? 0,
    parity,
    ops,
  })}\n`,
);
