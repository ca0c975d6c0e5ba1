/**
 * Scale benchmark, type-checking (docs/benchmarks.md, "Scale: compile"; docs/runtime/bindings.md,
 * "Large projects"): `tsc --noEmit` of an application making 5 calls through 3 sources' per-source
 * modules (`<outDir>/<source>.js`) in the whole-catalog project, against the same application in a
 * project holding only those 3 sources. The per-source modules import nothing that grows with the
 * project, so the ratio should stay near 1.
 *
 * The 3 sources: in name order, the first three of the committed sample's documents whose source has
 * an endpoint with no required argument (2 calls each from the first two, 1 from the third). Each call
 * passes the method's own input type and reads `data`, so tsc resolves input and output types.
 *
 *   node bench/scale/typecheck.mjs [--runs=3] [--project=bench/.tmp/scale/catalog] [--json=<file>]
 *
 * Needs the whole-catalog project compiled (bench/scale/compile.mjs does it).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode, TMP } from "../lib/child.mjs";
import { BIN, PEERS } from "../lib/paths.mjs";
import { interleave, ratio, summarize } from "../lib/stats.mjs";
import { TSCONFIG } from "../typecheck.mjs";
import { sourceName } from "./catalog.mjs";
import { sampleDocuments } from "./compile.mjs";

// Under a `generated` directory, so the repository's tsconfig never includes these files.
const DIR = join(TMP, "scale", "generated", "typecheck");

const pascal = (name) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");

/** Method names of a client module, from its `pins` lines, with whether the arguments are optional. */
function methodsOf(clientText) {
  const optional = new Set(
    [...clientText.matchAll(/^ {2}(\w+)<const F extends \w+ = \w+>\(args\?: /gm)].map((m) => m[1]),
  );
  return [...clientText.matchAll(/^ {2}"(\w+)": \{ tool: /gm)]
    .map((m) => m[1])
    .filter((m) => optional.has(m));
}

/** The 3 sources and 5 methods the app calls, chosen from the compiled catalog. */
function chooseCalls(projectDir) {
  const lock = JSON.parse(readFileSync(join(projectDir, "schemarouter.lock.json"), "utf8"));
  const names = new Set(Object.keys(lock.sources));
  const picked = [];
  for (const path of sampleDocuments()) {
    const name = sourceName(path);
    if (!names.has(name)) continue;
    const methods = methodsOf(readFileSync(join(projectDir, "generated", `${name}.ts`), "utf8"));
    const want = picked.length < 2 ? 2 : 1;
    if (methods.length < want) continue;
    picked.push({ name, location: path, methods: methods.slice(0, want) });
    if (picked.length === 3) break;
  }
  if (picked.length < 3) throw new Error("fewer than 3 sources with argument-free endpoints");
  return picked;
}

function appSource(calls, modulesDir) {
  const lines = ['import type { SchemaRouter } from "schemarouter";'];
  for (const { name } of calls)
    lines.push(
      `import { create${pascal(name)}Client, type ${pascal(name)}Client } from ${JSON.stringify(`${modulesDir}/${name}.js`)};`,
    );
  lines.push(
    "",
    "type ArgsOf<M> = M extends (args?: infer A, ...rest: never[]) => unknown ? A : never;",
    "",
    "export async function main(router: SchemaRouter): Promise<string> {",
  );
  const results = [];
  for (const { name, methods } of calls) {
    const client = `c_${name}`;
    lines.push(`  const ${client} = create${pascal(name)}Client(router);`);
    for (const method of methods) {
      const result = `r${results.length}`;
      lines.push(
        `  const ${result} = await ${client}.${method}({} as ArgsOf<${pascal(name)}Client["${method}"]>);`,
      );
      results.push(`${result}.data`);
    }
  }
  lines.push(`  return JSON.stringify([${results.join(", ")}]);`, "}", "");
  return lines.join("\n");
}

function app(dir, source) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(dir, "app.ts"), source);
  return dir;
}

export async function benchScaleTypecheck({ runs = 3, project }) {
  const big = resolve(project);
  rmSync(DIR, { recursive: true, force: true });
  const calls = chooseCalls(big);
  // The same 3 sources, alone in a project of their own.
  const small = join(DIR, "small");
  mkdirSync(small, { recursive: true });
  const config = JSON.parse(readFileSync(join(big, "schemarouter.config.json"), "utf8"));
  const sources = {};
  for (const { name } of calls)
    sources[name] = {
      ...config.sources[name],
      location: relative(small, resolve(big, config.sources[name].location)),
    };
  writeFileSync(
    join(small, "schemarouter.config.json"),
    JSON.stringify({ outDir: "generated", runtimeImport: "schemarouter", sources }, null, 2),
  );
  await runNode(BIN, ["compile"], { cwd: small });
  const bigApp = app(join(DIR, "big"), appSource(calls, relative(join(DIR, "big"), join(big, "generated"))));
  const smallApp = app(
    join(DIR, "small-app"),
    appSource(calls, relative(join(DIR, "small-app"), join(small, "generated"))),
  );
  const tsc = (dir) => () => runNode(PEERS.tsc, ["-p", join(dir, "tsconfig.json")], { cwd: dir });
  // Fails (tsc exits non-zero) if either app does not type-check.
  await tsc(bigApp)();
  await tsc(smallApp)();
  const samples = await interleave(runs, { catalog: tsc(bigApp), three: tsc(smallApp) }, { warmup: 1 });
  const of = (side, key) => summarize(samples[side].map((sample) => sample[key]));
  const result = {
    calls: calls.map(({ name, methods }) => ({ source: name, methods })),
    sources: Object.keys(config.sources).length,
  };
  for (const side of ["catalog", "three"])
    result[side] = { wallMs: of(side, "wallMs"), cpuMs: of(side, "cpuMs"), maxRssMb: of(side, "maxRssMb") };
  result.wallRatio = ratio(result.catalog.wallMs.median, result.three.wallMs.median);
  result.cpuRatio = ratio(result.catalog.cpuMs.median, result.three.cpuMs.median);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"];
    }),
  );
  const result = await benchScaleTypecheck({
    runs: Number(args.runs ?? 3),
    project: args.project ?? join(TMP, "scale", "catalog"),
  });
  const text = JSON.stringify(result, null, 2);
  if (args.json) writeFileSync(args.json, `${text}\n`);
  else process.stdout.write(`${text}\n`);
}
