/**
 * Typed refusals of the embedder layer (docs/runtime/embeddings.md, "Errors"): an embedder that
 * answers out of shape or throws (at compile time and at query time), a module that exports no embed
 * function, a config entry without a model, and a runtime embedder that does not match the vectors.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { trigramEmbedder, vectorOf } from "../../../fixtures/embeddings/trigram-embedder.mjs";
import type { TempProject } from "../../../helpers/project.js";
import { compileWeather, FIXTURES, weatherProject } from "./project.js";

const BROKEN = join(FIXTURES, "broken-embedders.mjs");

describe("compile-time embedder errors", () => {
  it.each([
    ["tooFew", "EMBEDDER_OUTPUT_INVALID", { stage: "compile", reason: "count" }],
    ["notFinite", "EMBEDDER_OUTPUT_INVALID", { stage: "compile", reason: "not-finite", index: 0 }],
    ["mixedDimensions", "EMBEDDER_OUTPUT_INVALID", { stage: "compile", reason: "dimension", index: 1 }],
    ["throws", "EMBEDDER_FAILED", { stage: "compile", model: "trigram-256" }],
    ["notAFunction", "EMBEDDER_MODULE_INVALID", { export: "notAFunction" }],
    ["missing", "EMBEDDER_MODULE_INVALID", { export: "missing" }],
  ])("%s → %s", async (name, code, details) => {
    const project = weatherProject();
    await expect(compileWeather(project, { module: BROKEN, export: name })).rejects.toMatchObject({
      code,
      details,
    });
  });

  it("refuses a module that cannot be imported, naming it", async () => {
    await expect(
      compileWeather(weatherProject(), { module: join(FIXTURES, "no-such-embedder.mjs") }),
    ).rejects.toMatchObject({ code: "EMBEDDER_MODULE_INVALID" });
  });

  it("refuses an embedder entry without a model (CONFIG_INVALID)", async () => {
    const project = weatherProject();
    project.write({
      sources: { weather: { kind: "openapi", location: join(FIXTURES, "weather-api.yaml") } },
      embedder: { module: join(FIXTURES, "trigram-embedder.mjs") },
    });
    const { compile } = await import("../../../../compiler/compile/compile.js");
    await expect(compile({ config: project.configPath })).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });
});

describe("runtime embedder mismatches", () => {
  let embedded: TempProject;
  let plain: TempProject;
  beforeAll(async () => {
    embedded = weatherProject();
    await compileWeather(embedded, {});
    plain = weatherProject();
    await compileWeather(plain);
  });

  it("refuses another model at load", async () => {
    await expect(
      SchemaRouter.load({ lockfile: embedded.lockfile, embedder: trigramEmbedder({ model: "other-model" }) }),
    ).rejects.toMatchObject({
      code: "EMBEDDING_MISMATCH",
      details: { reason: "model", source: "weather", expected: "trigram-256", actual: "other-model" },
    });
  });

  it("refuses a declared dimension that differs from the stored one at load", async () => {
    const embedder = { ...trigramEmbedder(), dimension: 128 };
    await expect(SchemaRouter.load({ lockfile: embedded.lockfile, embedder })).rejects.toMatchObject({
      code: "EMBEDDING_MISMATCH",
      details: { reason: "dimension" },
    });
  });

  it("refuses query vectors of another dimension (never compared with the stored ones)", async () => {
    const embedder = {
      model: "trigram-256",
      embed: async (texts: readonly string[]) => texts.map((text) => vectorOf(text, 64)),
    };
    const router = await SchemaRouter.load({ lockfile: embedded.lockfile, embedder });
    await expect(router.retrieveWithEmbeddings({ query: "how warm is it" })).rejects.toMatchObject({
      code: "EMBEDDING_MISMATCH",
      details: { reason: "dimension", expected: "256", actual: "64" },
    });
    await router.close();
  });

  it("refuses an embedder when no artifact holds vectors, and a call without an embedder", async () => {
    await expect(
      SchemaRouter.load({ lockfile: plain.lockfile, embedder: trigramEmbedder() }),
    ).rejects.toMatchObject({ code: "EMBEDDING_MISMATCH", details: { reason: "absent" } });
    const router = await SchemaRouter.load({ lockfile: embedded.lockfile });
    await expect(router.retrieveWithEmbeddings({ query: "how warm is it" })).rejects.toMatchObject({
      code: "EMBEDDING_MISMATCH",
      details: { reason: "embedder" },
    });
    await router.close();
  });

  it("types a failing or malformed query embedder (EMBEDDER_FAILED, EMBEDDER_OUTPUT_INVALID)", async () => {
    const failing = {
      model: "trigram-256",
      embed: async () => {
        throw new Error("rate limited");
      },
    };
    const router = await SchemaRouter.load({ lockfile: embedded.lockfile, embedder: failing });
    await expect(router.retrieveWithEmbeddings({ query: "how warm is it" })).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      details: { stage: "query", model: "trigram-256" },
    });
    await router.close();
    const zero = {
      model: "trigram-256",
      embed: async (texts: readonly string[]) => texts.map(() => new Array(256).fill(0)),
    };
    const second = await SchemaRouter.load({ lockfile: embedded.lockfile, embedder: zero });
    await expect(second.retrieveWithEmbeddings({ query: "how warm is it" })).rejects.toMatchObject({
      code: "EMBEDDER_OUTPUT_INVALID",
      details: { stage: "query", reason: "zero", index: 0 },
    });
    await second.close();
  });

  it("refuses a reloaded snapshot compiled with another model, and keeps the current one", async () => {
    const project = weatherProject();
    await compileWeather(project, {});
    const router = await SchemaRouter.load({ lockfile: project.lockfile, embedder: trigramEmbedder() });
    const before = router.snapshot!.id;
    await compileWeather(project, { model: "another-model" });
    await expect(router.reload()).rejects.toMatchObject({
      code: "EMBEDDING_MISMATCH",
      details: { reason: "model", expected: "another-model", actual: "trigram-256" },
    });
    expect(router.snapshot!.id).toBe(before);
    const [first] = await router.retrieveWithEmbeddings({ query: "how warm is it outside" });
    expect(first!.route).toBe("weather.getObservation");
    await router.close();
  });

  it("refuses malformed options before calling the embedder (INVALID_RETRIEVAL_REQUEST)", async () => {
    let calls = 0;
    const counting = {
      model: "trigram-256",
      embed: async (texts: readonly string[]) => {
        calls++;
        return texts.map((text) => vectorOf(text));
      },
    };
    const router = await SchemaRouter.load({ lockfile: embedded.lockfile, embedder: counting });
    for (const options of [{ add: -1 }, { add: 6 }, { minSimilarity: 2 }, { k: 0 }]) {
      await expect(router.retrieveWithEmbeddings({ query: "how warm" }, options)).rejects.toMatchObject({
        code: "INVALID_RETRIEVAL_REQUEST",
      });
    }
    expect(calls).toBe(0);
    await router.close();
  });
});
