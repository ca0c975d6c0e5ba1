/**
 * One fresh process of bench/scale/retrieve.mjs: loads a compiled project with the built runtime and
 * measures load, the first retrieve, then every query; prints one JSON object. Modes:
 *   stored      — the project's lockfile (the compile-time retrieval index is used);
 *   memory      — a copy of the lockfile without `retrievalIndex` (the index is built in memory at the
 *                 first retrieve: the pre-#20 behaviour, the peer);
 *   exhaustive  — like memory, then every query is also ranked exhaustively (every endpoint scored),
 *                 the reference for parity.
 * argv: <runtime index.js> <lockfile> <queries.json> <mode> <results.json>
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtimePath, lockfile, queriesPath, mode, resultsPath] = process.argv.slice(2);
const gc = globalThis.gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
const { readFileSync } = await import("node:fs");
const queries = JSON.parse(readFileSync(queriesPath, "utf8"));
const runtime = await import(pathToFileURL(runtimePath).href);
const base = heap();
let started = performance.now();
const router = await runtime.SchemaRouter.load({ lockfile });
const loadMs = performance.now() - started;
const endpoints = router.registry.entries().length;
const loadedHeap = heap();
const retriever = runtime.createRetriever(router.registry, { exhaustive: mode === "exhaustive" });
const K = 10;
started = performance.now();
const first = retriever.retrieve(queries[0], { k: K });
const firstRetrieveMs = performance.now() - started;
const indexedHeap = heap();
const times = [];
const results = [first.map((c) => [c.route, c.score])];
for (let i = 1; i < queries.length; i++) {
  const t = performance.now();
  const out = retriever.retrieve(queries[i], { k: K });
  times.push(performance.now() - t);
  results.push(out.map((c) => [c.route, c.score]));
}
writeFileSync(resultsPath, JSON.stringify(results));
const stats = retriever.stats();
process.stdout.write(
  JSON.stringify({
    mode,
    endpoints,
    origin: stats.origin,
    retrievalIndex: router.catalog.retrievalIndex,
    loadMs,
    firstRetrieveMs,
    times,
    heapLoadedBytes: loadedHeap - base,
    heapIndexedBytes: indexedHeap - base,
  }),
);
await router.close();
