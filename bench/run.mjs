/**
 * `npm run bench`: runs the benchmarks against their named peers (built package in dist/, peers from
 * node_modules, same inputs, interleaved runs) and prints one Markdown table of medians, min–max,
 * ratios and targets, plus the environment. Raw results go to bench/results/<timestamp>.json.
 * Benchmark 6 (retrieval and planning at scale, index-vs-exhaustive parity) is bench/routing.mjs's
 * latency part, run here and printed after the table.
 *
 *   node bench/run.mjs [--runs=5] [--only=compile,noop,typecheck,cold,call,retrieval,serve]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchCalls } from "./call.mjs";
import { benchColdStart } from "./cold-start.mjs";
import { benchFullCompile, benchNoopCompile } from "./compile.mjs";
import { PACKAGE, REPO, versionOf } from "./lib/paths.mjs";
import { environment, fmt, spread, table } from "./lib/stats.mjs";
import { benchServe } from "./serve.mjs";
import { benchTypecheck } from "./typecheck.mjs";

const ALL = ["compile", "noop", "typecheck", "cold", "call", "retrieval", "serve"];
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const runs = Number(args.runs ?? 5);
const only = args.only ? args.only.split(",") : ALL;
for (const name of only)
  if (!ALL.includes(name)) throw new Error(`unknown benchmark "${name}" (${ALL.join(", ")})`);

const verdict = (ok) => (ok ? "yes" : "**no**");
const x = (value) => `${fmt(value)}×`;
const rows = [["Benchmark", "schemarouter", "peer", "ratio / result", "target", "met"]];
const results = { environment: environment(), runs, package: PACKAGE, peers: {} };
for (const pkg of [
  "openapi-typescript",
  "openapi-fetch",
  "typescript",
  "undici",
  "@modelcontextprotocol/sdk",
])
  results.peers[pkg] = versionOf(pkg);

async function step(name, run) {
  if (!only.includes(name)) return;
  process.stderr.write(`… ${name}\n`);
  const started = performance.now();
  results[name] = await run();
  process.stderr.write(`✓ ${name} (${Math.round((performance.now() - started) / 1000)} s)\n`);
}

await step("compile", () => benchFullCompile({ runs }));
await step("noop", () => benchNoopCompile({ runs: Math.max(runs, 5) }));
await step("typecheck", () => benchTypecheck({ runs }));
await step("cold", () => benchColdStart({ runs: Math.max(runs, 5) }));
await step("call", () => benchCalls({ runs }));
await step("retrieval", async () => {
  const { formatRoutingBench, runRoutingBench } = await import("./routing.mjs");
  const rows = await runRoutingBench({ only: "latency", log: (line) => process.stderr.write(`  ${line}\n`) });
  return { rows, text: formatRoutingBench(rows) };
});
await step("serve", () => benchServe({ runs }));

if (results.compile) {
  const { ours, peer, wallRatio, rssRatio } = results.compile;
  rows.push(
    [
      "1. compile GitHub REST, wall ms",
      spread(ours.wallMs),
      spread(peer.wallMs),
      x(wallRatio),
      "≤ 0.5×",
      verdict(wallRatio <= 0.5),
    ],
    [
      "1. compile GitHub REST, CPU ms",
      spread(ours.cpuMs),
      spread(peer.cpuMs),
      x(ours.cpuMs.median / peer.cpuMs.median),
      "(info)",
      "",
    ],
    [
      "1. compile GitHub REST, peak RSS MB",
      spread(ours.maxRssMb),
      spread(peer.maxRssMb),
      x(rssRatio),
      "≤ 1×",
      verdict(rssRatio <= 1),
    ],
  );
}
if (results.noop) {
  const { wallMs, maxRssMb } = results.noop.ours;
  rows.push([
    "2. no-op recompile, wall ms",
    spread(wallMs),
    "—",
    `${fmt(wallMs.median)} ms, ${fmt(maxRssMb.median)} MB`,
    "< 300 ms",
    verdict(wallMs.median < 300),
  ]);
}
if (results.typecheck) {
  const t = results.typecheck;
  const peer = t["openapi-typescript"];
  rows.push(
    [
      "3. tsc --noEmit, 5-endpoint app, wall ms",
      spread(t.schemarouter.wallMs),
      spread(peer.wallMs),
      x(t.wallRatio),
      "≤ 1×",
      verdict(t.wallRatio <= 1),
    ],
    [
      "3. tsc --noEmit, CPU ms",
      spread(t.schemarouter.cpuMs),
      spread(peer.cpuMs),
      x(t.cpuRatio),
      "≤ 1×",
      verdict(t.cpuRatio <= 1),
    ],
    [
      "3. tsc --noEmit, peak RSS MB",
      spread(t.schemarouter.maxRssMb),
      spread(peer.maxRssMb),
      x(t.schemarouter.maxRssMb.median / peer.maxRssMb.median),
      "(info)",
      "",
    ],
  );
}
if (results.cold) {
  const c = results.cold;
  rows.push(
    [
      `4. cold start: load + verify (${c.endpoints} endpoints), ms`,
      spread(c.loadMs),
      "—",
      `${fmt(c.loadMs.median)} ms`,
      "< 100 ms",
      verdict(c.loadMs.median < 100),
    ],
    [
      "4. cold start: import + load, ms",
      spread(c.importPlusLoadMs),
      "—",
      `${fmt(c.importPlusLoadMs.median)} ms`,
      "(info)",
      "",
    ],
    [
      "4. cold start: peak RSS MB",
      spread(c.maxRssMb),
      "—",
      `${fmt(c.maxRssMb.median)} MB`,
      "< 80 MB",
      verdict(c.maxRssMb.median < 80),
    ],
    [
      "4. first call after load (verifies its endpoint), ms",
      spread(c.firstCallMs),
      "—",
      `${fmt(c.firstCallMs.median)} ms`,
      "(info)",
      "",
    ],
    [
      "4. first retrieve after load (verifies every endpoint), ms",
      spread(c.firstRetrieveMs),
      "—",
      `${fmt(c.firstRetrieveMs.median)} ms`,
      "(info)",
      "",
    ],
    [
      '4. load with verify: "full" (every endpoint at load), ms',
      spread(c.fullLoadMs),
      "—",
      `${fmt(c.fullLoadMs.median)} ms, ${fmt(c.fullMaxRssMb.median)} MB`,
      "(info)",
      "",
    ],
  );
}
if (results.call) {
  for (const [size, r] of Object.entries(results.call)) {
    for (const c of ["c1", "c32"])
      rows.push([
        `5. calls/s, ${size}, concurrency ${c.slice(1)}`,
        spread(r[c].ours),
        `${spread(r[c].raw)} (raw undici)`,
        x(r[c].ratio),
        size === "2 KB" ? "≥ 0.85×" : "(info)",
        size === "2 KB" ? verdict(r[c].ratio >= 0.85) : "",
      ]);
    for (const c of ["c1", "c32"]) {
      const d = r[c].dispatch;
      if (d === undefined) continue;
      rows.push([
        `5. calls/s, ${size}, concurrency ${c.slice(1)}, vs raw undici dispatch()`,
        spread(d.ours),
        `${spread(d.raw)} (raw dispatch)`,
        `${x(d.ratio)} (paired ${x(d.pairedRatio.median)})`,
        "≥ 0.85× (governance overhead)",
        verdict(d.ratio >= 0.85),
      ]);
    }
    rows.push([
      `5. p50 latency µs, ${size}, concurrency 1`,
      spread(r.p50.ours),
      `${spread(r.p50.raw)} (raw undici)`,
      `+${fmt(r.addedP50Us)} µs`,
      size === "2 KB" ? "< +50 µs" : "(info)",
      size === "2 KB" ? verdict(r.addedP50Us < 50) : "",
    ]);
    rows.push([
      `5. p99 latency µs, ${size}, concurrency 1`,
      spread(r.p99.ours),
      `${spread(r.p99.raw)} (raw undici)`,
      `+${fmt(r.p99.ours.median - r.p99.raw.median)} µs`,
      "(info)",
      "",
    ]);
  }
}
if (results.retrieval) {
  for (const row of results.retrieval.rows.filter((r) => r.bench === "routing-latency")) {
    const size = row.catalog === "github" ? "GitHub REST" : `${row.endpoints} endpoints`;
    rows.push([
      `6. ${row.op} p50 ms, ${size} (index vs exhaustive)`,
      spread(row.p50Index),
      `${spread(row.p50Exhaustive)} (exhaustive)`,
      `${x(row.p50Ratio)}, ${row.parityMismatches} parity mismatches`,
      "exact parity",
      verdict(row.parityMismatches === 0),
    ]);
  }
}
if (results.serve) {
  for (const c of ["c1", "c32"]) {
    const r = results.serve[c];
    rows.push(
      [
        `7. calls/s through serve (Streamable HTTP), concurrency ${c.slice(1)}`,
        spread(r.served),
        `${spread(r.inProcess)} (router.invoke() in-process)`,
        x(r.ratio),
        "(info)",
        "",
      ],
      [
        `7. calls/s through serve vs a bare MCP SDK server, concurrency ${c.slice(1)}`,
        spread(r.served),
        `${spread(r.bare)} (bare SDK, constant)`,
        x(r.ofBare),
        "(info)",
        "",
      ],
    );
  }
}

const env = results.environment;
const out = [
  `Environment: Node ${env.node} (${env.platform}), ${env.cpu} × ${env.cpus}, ${env.memoryGb} GB RAM, load average ${env.loadAverage} at start.`,
  `Peers: ${Object.entries(results.peers)
    .map(([pkg, version]) => `${pkg} ${version}`)
    .join(", ")}. Runs per measurement: ${runs} (median, min–max).`,
  "",
  table(rows),
  "",
  ...(results.retrieval ? [results.retrieval.text, ""] : []),
].join("\n");
process.stdout.write(out);
const dir = join(REPO, "bench", "results");
mkdirSync(dir, { recursive: true });
const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ ...results, table: out }, null, 2)}\n`);
process.stderr.write(`results: ${file}\n`);
