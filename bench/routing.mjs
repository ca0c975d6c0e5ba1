/**
 * Routing benchmarks (standalone: `npm run build && node bench/routing.mjs`), described in
 * docs/routing-benchmarks.md: routing quality on a seeded high-ambiguity catalog and on the paraphrase
 * set, and on real catalogs (GitHub REST, Directus, Figma, Blockfrost), against lexical and BM25
 * baselines; and retrieve/plan latency at 1k/10k/100k generated endpoints and GitHub REST with
 * index-vs-exhaustive parity. Prints Markdown. Report seeds and report splits only, unless --tuning.
 *
 * Options: --quick (2 report seeds, 1 rewrite seed, 1k/10k, fewer passes), --seeds=101,102,
 * --real-seeds=101, --catalogs=github,figma, --tuning (tuning seeds and tuning splits instead),
 * --sizes=1000,10000,100000, --runs=N, --no-github, --only=quality|real|latency,
 * --json=bench/.tmp/routing.json (rows as JSON).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { environmentText, latencyText, paraphraseText, qualityText, realText } from "./routing/report.mjs";
import { environment } from "./routing/stats.mjs";

const BUILT = fileURLToPath(new URL("../runtime/dist/retrieval/index.js", import.meta.url));

/** The benchmark modules import the built package; say what to do when it is missing. */
async function modules() {
  if (!existsSync(BUILT)) {
    throw new Error(
      "bench/routing.mjs measures the built package and runtime/dist is missing: run `npm run build` first.",
    );
  }
  const [quality, real, latency, concepts, requests] = await Promise.all([
    import("./routing/quality.mjs"),
    import("./routing/real/quality.mjs"),
    import("./routing/latency.mjs"),
    import("./routing/concepts.mjs"),
    import("./routing/real/requests.mjs"),
  ]);
  return { ...quality, ...real, ...latency, ...concepts, ...requests };
}

/**
 * Runs the routing benchmarks and returns their result rows (`bench`: routing-environment,
 * routing-catalog, routing-quality, routing-paraphrase, routing-real-catalog, routing-real,
 * routing-real-misses, routing-latency, routing-index). `log` receives progress lines.
 */
export async function runRoutingBench(options = {}) {
  const m = await modules();
  const log = options.log ?? (() => {});
  const quick = options.quick === true;
  const tuning = options.tuning === true;
  const runs = (part) => options.only === undefined || options.only === part;
  const rows = [{ bench: "routing-environment", ...environment(), split: tuning ? "tuning" : "report" }];
  if (runs("quality")) {
    const all = tuning ? m.TUNING_SEEDS : m.REPORT_SEEDS;
    const seeds = options.seeds ?? (quick ? all.slice(0, 2) : [...all]);
    log(`quality: ${seeds.length} seeds (${seeds.join(", ")})`);
    rows.push(...m.runQuality({ seeds }));
  }
  if (runs("real")) {
    const all = tuning ? m.REAL_TUNING_SEEDS : m.REAL_REPORT_SEEDS;
    const seeds = options.realSeeds ?? (quick ? all.slice(0, 1) : [...all]);
    log(`real catalogs: ${seeds.length} rewrite seeds (${seeds.join(", ")})`);
    rows.push(
      ...(await m.runRealQuality({
        seeds,
        split: tuning ? "tuning" : "report",
        log,
        ...(options.catalogs !== undefined ? { catalogs: options.catalogs } : {}),
      })),
    );
  }
  if (runs("latency")) {
    const { latencySpecs, runLatency } = m;
    const specs = latencySpecs({
      sizes: options.sizes ?? (quick ? [1000, 10000] : [1000, 10000, 100000]),
      github: options.github !== false,
      ...(options.runs !== undefined ? { runs: options.runs } : quick ? { runs: 3 } : {}),
      ...(quick ? { builds: 2 } : {}),
    });
    for (const spec of specs)
      log(`latency: ${spec.catalog === "github" ? "GitHub REST" : `${spec.endpoints} endpoints`} queued`);
    rows.push(...(await runLatency(specs, (result) => log(`latency: ${result.catalog} done`))));
  }
  return rows;
}

/** The Markdown printout of `rows` (as returned by runRoutingBench). */
export function formatRoutingBench(rows) {
  const env = rows.find((r) => r.bench === "routing-environment");
  const parts = ["## Routing benchmarks", "", environmentText(env)];
  if (rows.some((r) => r.bench === "routing-quality")) parts.push("", qualityText(rows));
  if (rows.some((r) => r.bench === "routing-paraphrase")) parts.push("", paraphraseText(rows));
  if (rows.some((r) => r.bench === "routing-real")) parts.push("", realText(rows));
  if (rows.some((r) => r.bench === "routing-latency")) parts.push("", latencyText(rows));
  return parts.join("\n");
}

function parseArgs(argv) {
  const options = {};
  const list = (value) => value.split(",").map((v) => Number(v));
  for (const arg of argv) {
    const [key, value] = arg.replace(/^--/, "").split("=");
    if (key === "quick") options.quick = true;
    else if (key === "no-github") options.github = false;
    else if (key === "seeds") options.seeds = list(value);
    else if (key === "real-seeds") options.realSeeds = list(value);
    else if (key === "catalogs") options.catalogs = value.split(",");
    else if (key === "tuning") options.tuning = true;
    else if (key === "sizes") options.sizes = list(value);
    else if (key === "runs") options.runs = Number(value);
    else if (key === "only") options.only = value;
    else if (key === "json") options.json = value;
    else throw new Error(`unknown option ${arg}; see the header of bench/routing.mjs`);
  }
  return options;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const rows = await runRoutingBench({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(
    `${formatRoutingBench(rows)}\n\nTotal benchmark time: ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
  );
  if (options.json !== undefined) {
    mkdirSync(dirname(resolve(options.json)), { recursive: true });
    writeFileSync(resolve(options.json), `${JSON.stringify(rows, null, 2)}\n`);
  }
}
