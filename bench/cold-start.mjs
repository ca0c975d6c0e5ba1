/**
 * Benchmark 4: runtime cold start. In a fresh process per run: import the runtime and load + verify
 * the GitHub REST artifact (about 1,200 endpoints) against its lockfile. Reports the load time, the
 * time including the import, the process wall time and its peak RSS; then, in separate processes,
 * the first call and the first retrieval after a load (which pay for parsing and verifying the
 * endpoints they use).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode, TMP } from "./lib/child.mjs";
import { BIN, GITHUB_DOCUMENT, RUNTIME } from "./lib/paths.mjs";
import { summarize } from "./lib/stats.mjs";

const CHILD = fileURLToPath(new URL("./lib/cold-start-child.mjs", import.meta.url));

export async function benchColdStart({ runs }) {
  const dir = join(TMP, "cold-start");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "schemarouter.config.json"),
    JSON.stringify({
      outDir: "generated",
      sources: { github: { kind: "openapi", location: GITHUB_DOCUMENT } },
    }),
  );
  await runNode(BIN, ["compile"], { cwd: dir });
  const samples = [];
  for (let run = 0; run < runs + 1; run++) {
    const result = await runNode(CHILD, [RUNTIME, dir]);
    const inner = JSON.parse(result.stdout);
    if (run > 0) samples.push({ ...inner, wallMs: result.wallMs, maxRssMb: result.maxRssMb });
  }
  const firstUse = [];
  for (let run = 0; run < runs; run++) {
    firstUse.push(JSON.parse((await runNode(CHILD, [RUNTIME, dir, "first-use"])).stdout));
  }
  const full = [];
  for (let run = 0; run < runs; run++) {
    const result = await runNode(CHILD, [RUNTIME, dir, "full"]);
    full.push({ ...JSON.parse(result.stdout), maxRssMb: result.maxRssMb });
  }
  const of = (key) => summarize(samples.map((sample) => sample[key]));
  return {
    fullLoadMs: summarize(full.map((sample) => sample.loadMs)),
    fullMaxRssMb: summarize(full.map((sample) => sample.maxRssMb)),
    firstCallMs: summarize(firstUse.map((sample) => sample.firstCallMs)),
    firstRetrieveMs: summarize(firstUse.map((sample) => sample.firstRetrieveMs)),
    endpoints: samples[0].endpoints,
    loadMs: of("loadMs"),
    importPlusLoadMs: summarize(samples.map((sample) => sample.importMs + sample.loadMs)),
    processWallMs: of("wallMs"),
    maxRssMb: of("maxRssMb"),
  };
}
