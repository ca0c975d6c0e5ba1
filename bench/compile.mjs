/**
 * Benchmarks 1 and 2: a full `schemarouter compile` of GitHub REST (artifact + lock + typed bindings)
 * against `openapi-typescript` generating types only for the same document, and a no-op recompile
 * (nothing changed, digests decide). Every run is a fresh child process; peers are interleaved.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runNode, TMP } from "./lib/child.mjs";
import { BIN, GITHUB_DOCUMENT, PEERS } from "./lib/paths.mjs";
import { interleave, ratio, summarize } from "./lib/stats.mjs";

const DIR = join(TMP, "compile");

function project(name) {
  const dir = join(DIR, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "schemarouter.config.json"),
    JSON.stringify({
      outDir: "generated",
      runtimeImport: "schemarouter",
      sources: { github: { kind: "openapi", location: GITHUB_DOCUMENT } },
    }),
  );
  return dir;
}

function metrics(samples) {
  return {
    wallMs: summarize(samples.map((s) => s.wallMs)),
    cpuMs: summarize(samples.map((s) => s.cpuMs)),
    maxRssMb: summarize(samples.map((s) => s.maxRssMb)),
  };
}

/** Full compile (fresh output directory every run) vs openapi-typescript, interleaved. */
export async function benchFullCompile({ runs }) {
  const ours = project("full");
  // Under a `generated` directory, so the repository's tsconfig never picks the output up.
  const peerOut = join(DIR, "peer", "generated", "github.d.ts");
  mkdirSync(dirname(peerOut), { recursive: true });
  const samples = await interleave(
    runs,
    {
      schemarouter: () => {
        rmSync(join(ours, "generated"), { recursive: true, force: true });
        rmSync(join(ours, "schemarouter.lock.json"), { force: true });
        return runNode(BIN, ["compile"], { cwd: ours });
      },
      "openapi-typescript": () =>
        runNode(PEERS.openapiTypescript, [GITHUB_DOCUMENT, "-o", peerOut], { cwd: DIR }),
    },
    { warmup: 1 },
  );
  const outputs = {
    schemarouter: sizeOf(ours, [
      "generated/artifacts/github.json",
      "schemarouter.lock.json",
      "generated/github.ts",
      "generated/github.types.ts",
      "generated/github.schemas.d.ts",
      "generated/index.ts",
    ]),
    "openapi-typescript": sizeOf(DIR, ["peer/generated/github.d.ts"]),
  };
  return {
    ours: metrics(samples.schemarouter),
    peer: metrics(samples["openapi-typescript"]),
    outputs,
    wallRatio: ratio(
      summarize(samples.schemarouter.map((s) => s.wallMs)).median,
      summarize(samples["openapi-typescript"].map((s) => s.wallMs)).median,
    ),
    rssRatio: ratio(
      summarize(samples.schemarouter.map((s) => s.maxRssMb)).median,
      summarize(samples["openapi-typescript"].map((s) => s.maxRssMb)).median,
    ),
  };
}

/** No-op recompile: compile once, then time compiles that find nothing to regenerate. */
export async function benchNoopCompile({ runs }) {
  const dir = project("noop");
  await runNode(BIN, ["compile"], { cwd: dir });
  const before = snapshot(dir);
  const samples = [];
  for (let run = 0; run < runs + 1; run++) {
    const result = await runNode(BIN, ["compile"], { cwd: dir });
    if (!result.stdout.includes("Nothing changed."))
      throw new Error(`no-op compile wrote files:\n${result.stdout}`);
    if (run > 0) samples.push(result);
  }
  const after = snapshot(dir);
  if (JSON.stringify(before) !== JSON.stringify(after)) throw new Error("no-op compile changed a file");
  return { ours: metrics(samples) };
}

function snapshot(dir) {
  const files = [
    "schemarouter.lock.json",
    "generated/artifacts/github.json",
    "generated/github.ts",
    "generated/github.types.ts",
    "generated/github.schemas.d.ts",
    "generated/index.ts",
  ];
  return Object.fromEntries(files.map((file) => [file, readFileSync(join(dir, file), "utf8")]));
}

function sizeOf(dir, files) {
  let bytes = 0;
  for (const file of files) if (existsSync(join(dir, file))) bytes += readFileSync(join(dir, file)).length;
  return { files: files.filter((file) => existsSync(join(dir, file))).length, bytes };
}
