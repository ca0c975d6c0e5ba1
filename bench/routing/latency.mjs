/**
 * Latency at scale: runs latency-child.mjs once per catalog (generated 1k/10k/100k endpoints and
 * GitHub REST), each in a fresh `node --expose-gc` process, one after another, and turns the results
 * into rows: per-request p50/p99 of retrieve and plan in index and exhaustive mode (median over runs,
 * min–max), index build time, memory, and index-vs-exhaustive parity mismatch counts.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { summarize } from "./stats.mjs";

const CHILD = fileURLToPath(new URL("./latency-child.mjs", import.meta.url));

function runChild(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", CHILD, JSON.stringify(spec)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0)
        reject(new Error(`latency child ${JSON.stringify(spec)} exited with ${code}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

/** The default plan: fewer passes and builds at 100k (3 passes, 2 index builds, 1 exhaustive build), to keep the whole run near two minutes. */
export function latencySpecs({ sizes = [1000, 10000, 100000], github = true, runs, builds } = {}) {
  const specs = sizes.map((endpoints) => ({
    catalog: "generated",
    endpoints,
    runs: runs ?? (endpoints >= 100000 ? 3 : 5),
    builds: builds ?? (endpoints >= 100000 ? 2 : 3),
    exhaustiveBuilds: builds ?? (endpoints >= 100000 ? 1 : 3),
  }));
  if (github) specs.push({ catalog: "github", runs: runs ?? 5, builds: builds ?? 3 });
  return specs;
}

/** Runs every spec; `onResult` sees each raw child result as it arrives. */
export async function runLatency(specs, onResult = () => {}) {
  const rows = [];
  for (const spec of specs) {
    const result = await runChild(spec);
    onResult(result);
    const common = { catalog: result.catalog, endpoints: result.endpoints, requests: result.requests };
    for (const op of ["retrieve", "plan"]) {
      const index = result.ops[`${op}/index`];
      const exhaustive = result.ops[`${op}/exhaustive`];
      const row = {
        bench: "routing-latency",
        ...common,
        op,
        runs: index.p50.length,
        p50Index: summarize(index.p50),
        p50Exhaustive: summarize(exhaustive.p50),
        p99Index: summarize(index.p99),
        p99Exhaustive: summarize(exhaustive.p99),
        meanIndex: summarize(index.mean),
        meanExhaustive: summarize(exhaustive.mean),
        parityMismatches:
          op === "retrieve" ? result.parity.retrieve + result.parity.surface : result.parity.plan,
      };
      row.p50Ratio = row.p50Index.median / row.p50Exhaustive.median;
      rows.push(row);
    }
    rows.push({
      bench: "routing-index",
      ...common,
      tools: result.tools,
      registryMs: result.registryMs,
      indexBuildMs: summarize(result.indexBuildMs),
      exhaustiveBuildMs: summarize(result.exhaustiveBuildMs),
      vocabulary: result.vocabulary,
      postings: result.postings,
      memory: result.memory,
      surfaceMedian: result.surfaceMedian,
      parity: result.parity,
    });
  }
  return rows;
}
