/**
 * Routing benchmarks (standalone: `npm run build && node bench/routing.mjs`): routing quality on a
 * seeded high-ambiguity catalog against lexical and BM25 baselines, and retrieve/plan latency at
 * 1k/10k/100k generated endpoints and GitHub REST with index-vs-exhaustive parity. Prints Markdown.
 *
 * Options: --quick (2 seeds, 1k/10k, fewer passes), --seeds=1,2,3, --sizes=1000,10000,100000,
 * --runs=N, --no-github, --only=quality|latency, --json=bench/.tmp/routing.json (rows as JSON).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { environmentText, latencyText, qualityText } from "./routing/report.mjs";
import { environment } from "./routing/stats.mjs";

const BUILT = fileURLToPath(new URL("../runtime/dist/retrieval/index.js", import.meta.url));

/** The benchmark modules import the built package; say what to do when it is missing. */
async function modules() {
  if (!existsSync(BUILT)) {
    throw new Error(
      "bench/routing.mjs measures the built package and runtime/dist is missing: run `npm run build` first.",
    );
  }
  const [quality, latency] = await Promise.all([
    import("./routing/quality.mjs"),
    import("./routing/latency.mjs"),
  ]);
  return { ...quality, ...latency };
}

/**
 * Runs the routing benchmarks and returns their result rows (`bench`: routing-environment,
 * routing-catalog, routing-quality, routing-latency, routing-index). `log` receives progress lines.
 */
export async function runRoutingBench(options = {}) {
  const { latencySpecs, runLatency, runQuality } = await modules();
  const log = options.log ?? (() => {});
  const quick = options.quick === true;
  const rows = [{ bench: "routing-environment", ...environment() }];
  if (options.only !== "latency") {
    const seeds = options.seeds ?? (quick ? [1, 2] : [1, 2, 3, 4, 5]);
    log(`quality: ${seeds.length} seeds`);
    rows.push(...runQuality({ seeds }));
  }
  if (options.only !== "quality") {
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
