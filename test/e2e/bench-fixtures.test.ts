/**
 * The routing benchmarks build their catalogs from test/fixtures/catalogs.ts itself, transpiled by
 * scripts/bench-fixtures.mjs against the built runtime: the transpiled module must build exactly the
 * catalogs the tests build, so a benchmark measures the catalogs the tests describe.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generatedCatalog, registryOf, tool } from "../fixtures/catalogs.js";
import { REPO_ROOT } from "../helpers/project.js";

type Catalogs = typeof import("../fixtures/catalogs.js");

describe("benchmark fixtures", () => {
  it("transpiles the catalog fixture into bench/.generated/ and builds the same catalogs", async () => {
    const printed = execFileSync(
      process.execPath,
      [join(REPO_ROOT, "scripts/bench-fixtures.mjs"), "catalogs"],
      {
        cwd: REPO_ROOT,
        encoding: "utf8",
      },
    );
    expect(printed).toBe("bench/.generated/catalogs.mjs\n");
    const url = pathToFileURL(join(REPO_ROOT, "bench/.generated/catalogs.mjs")).href;
    const transpiled = (await import(url)) as Catalogs;
    const [ours, theirs] = [generatedCatalog, transpiled.generatedCatalog].map((generate) =>
      generate(300, { seed: 3, queries: 20 }),
    );
    expect(JSON.stringify(theirs?.tools)).toBe(JSON.stringify(ours?.tools));
    expect(theirs?.queries).toEqual(ours?.queries);
    // It registers tools with the built runtime (runtime/dist), which the benchmarks measure.
    const registry = transpiled.registryOf([tool("t", [])]);
    expect(registry.constructor).not.toBe(registryOf([]).constructor);
    expect(registry.get("t")?.fingerprint).toBe(registryOf([tool("t", [])]).get("t")?.fingerprint);
  });
});
