/**
 * `schemarouter check` and the stored vectors (docs/runtime/embeddings.md, "Checking the vectors"):
 * an unchanged embedder passes; a renamed model, another dimension, another module behind the same
 * model name, an embedder removed from the config or added to it are each reported with a reason
 * (the CLI prints each and exits 1: compiler/cli/program.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDrift, formatDrift } from "../../../../compiler/compile/check.js";
import { compileWeather, FIXTURES, weatherProject } from "./project.js";

const BROKEN = join(FIXTURES, "broken-embedders.mjs");

/** Compiles with the trigram embedder, then rewrites the config's embedder entry (undefined: none). */
async function checkAfter(embedder: Record<string, unknown> | undefined, compiledWith = true) {
  const project = weatherProject();
  await compileWeather(project, compiledWith ? {} : false);
  project.write({
    sources: { weather: { kind: "openapi", location: join(FIXTURES, "weather-api.yaml") } },
    ...(embedder === undefined ? {} : { embedder }),
  });
  return (await checkDrift(project.configPath, {})).embeddings;
}

/** What `schemarouter check --json` prints for the same project. */
async function checkJsonAfter(embedder: Record<string, unknown> | undefined) {
  const project = weatherProject();
  await compileWeather(project, {});
  project.write({
    sources: { weather: { kind: "openapi", location: join(FIXTURES, "weather-api.yaml") } },
    ...(embedder === undefined ? {} : { embedder }),
  });
  return JSON.parse(formatDrift(await checkDrift(project.configPath, {}), "json"));
}

const TRIGRAM = { module: join(FIXTURES, "trigram-embedder.mjs"), model: "trigram-256" };

describe("schemarouter check with an embedder", () => {
  it("passes when the configured embedder writes the stored vectors", async () => {
    expect(await checkAfter(TRIGRAM)).toEqual([]);
    expect(await checkAfter(undefined, false)).toEqual([]);
  });

  it("reports each way the stored vectors differ from the configured embedder", async () => {
    const cases = [
      [{ ...TRIGRAM, model: "trigram-512" }, "model"],
      [{ module: BROKEN, export: "otherDimension", model: "trigram-256" }, "dimension"],
      [{ module: BROKEN, export: "otherModel", model: "trigram-256" }, "vectors"],
      [undefined, "unexpected"],
    ] as const;
    for (const [embedder, reason] of cases) {
      const drift = await checkAfter(embedder);
      expect(drift).toMatchObject([{ source: "weather", reason }]);
      expect(drift[0]!.message).toContain("schemarouter compile");
    }
    expect(await checkAfter(TRIGRAM, false)).toMatchObject([{ source: "weather", reason: "absent" }]);
  });

  it("puts the findings in check --json's report", async () => {
    expect((await checkJsonAfter(TRIGRAM)).embeddings).toEqual([]);
    const report = await checkJsonAfter({ ...TRIGRAM, model: "trigram-512" });
    expect(report.embeddings).toMatchObject([{ source: "weather", reason: "model" }]);
    expect(report.category).toBe("identical");
  });
});
