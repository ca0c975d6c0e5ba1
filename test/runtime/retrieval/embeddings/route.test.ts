/**
 * Routing with vectors from a real sentence-embedding model, end to end (docs/runtime/embeddings.md,
 * "Routing with vectors"): the weather fixture compiled with examples/embedders/
 * universal-sentence-encoder.mjs named in its config (vectors in the artifact), loaded with the same
 * model. A word no declared field or local vocabulary has is covered by the field its vector is near;
 * near-domain concepts the contracts lack stay rejected at the default threshold; an endpoint of a
 * disallowed effect is never covered by vectors; route()'s candidates are kept as they are.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL, useEmbedder } from "../../../../examples/embedders/universal-sentence-encoder.mjs";
import { DEFAULT_MIN_FIELD_SIMILARITY } from "../../../../runtime/retrieval/embeddings/route.js";
import { createRetriever } from "../../../../runtime/retrieval/retriever.js";
import { route } from "../../../../runtime/retrieval/route.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { REPO_ROOT, type TempProject } from "../../../helpers/project.js";
import { compileWeather, weatherProject } from "./project.js";

let project: TempProject;
let router: SchemaRouter;
let lexical: (query: string) => ReturnType<typeof route>;
const calls: number[] = [];

beforeAll(async () => {
  project = weatherProject();
  await compileWeather(project, {
    module: join(REPO_ROOT, "examples/embedders/universal-sentence-encoder.mjs"),
    model: MODEL,
  });
  const embedder = useEmbedder();
  router = await SchemaRouter.load({
    lockfile: project.lockfile,
    embedder: {
      ...embedder,
      embed: (texts: readonly string[]) => {
        calls.push(texts.length);
        return embedder.embed(texts);
      },
    },
  });
  const retriever = createRetriever(router.registry);
  lexical = (query) => route(retriever, { query });
}, 120_000);
afterAll(() => router?.close());

describe("routeWithEmbeddings with the Universal Sentence Encoder", () => {
  it("covers a need lexical coverage rejects with the field its vector is near", async () => {
    expect(lexical("humidifying")).toMatchObject({ rejected: true, uncovered: [{ concept: "humidifying" }] });
    const result = await router.routeWithEmbeddings({ query: "humidifying" });
    expect(result).toMatchObject({ rejected: false, uncovered: [], coveredByEmbedding: ["humidifying"] });
    const [first] = result.candidates;
    expect(first).toMatchObject({
      route: "weather.getObservation",
      rank: 1,
      effect: "read",
      embedding: { origin: "embedding", lexicalRank: null, field: "humidity" },
    });
    expect(first!.embedding.similarity!).toBeGreaterThanOrEqual(DEFAULT_MIN_FIELD_SIMILARITY);
    expect(first!.endpointFingerprint).toBe(
      router.registry.get("weather")!.endpointFingerprints.get("getObservation"),
    );
  });

  it("keeps near-domain concepts the contracts lack rejected at the default threshold", async () => {
    for (const query of [
      "soil moisture at 10 cm depth",
      "wind direction",
      "sea water salinity",
      "soil water",
    ]) {
      const before = lexical(query);
      expect(before.rejected).toBe(true);
      const result = await router.routeWithEmbeddings({ query });
      expect(result).toMatchObject({ rejected: true, candidates: [], coveredByEmbedding: [] });
      expect(result.uncovered).toEqual(before.uncovered);
    }
    // The threshold is what holds the line: at 0.5 the model puts soil water on precipitation.
    const loose = await router.routeWithEmbeddings({ query: "soil water" }, { minFieldSimilarity: 0.5 });
    expect(loose.rejected).toBe(false);
    expect(loose.candidates[0]?.embedding.origin).toBe("embedding");
  });

  // A unit or qualifier gap stays rejected: route-property.test.ts (this fixture declares no units).
  it("never covers a need with an endpoint whose effect the request excludes", async () => {
    const effect = await router.routeWithEmbeddings(
      { query: "humidifying", effects: ["write"] },
      { minFieldSimilarity: -0.5 },
    );
    expect(effect.candidates.every((c) => c.effect === "write")).toBe(true);
    expect(effect.candidates.map((c) => c.route)).not.toContain("weather.getObservation");
  });

  it("returns route()'s candidates unchanged when it accepts", async () => {
    const before = lexical("air temperature at the station");
    expect(before.rejected).toBe(false);
    const result = await router.routeWithEmbeddings({ query: "air temperature at the station" });
    expect(result.candidates.map((c) => c.route)).toEqual(before.candidates.map((c) => c.route));
    expect(result.candidates.every((c) => c.embedding.origin === "lexical")).toBe(true);
    expect(result.coveredByEmbedding).toEqual([]);
  });

  it("refuses a bad threshold before calling the embedder", async () => {
    const before = calls.length;
    await expect(
      router.routeWithEmbeddings({ query: "humidifying" }, { minFieldSimilarity: 2 }),
    ).rejects.toMatchObject({ code: "INVALID_RETRIEVAL_REQUEST", details: { field: "minFieldSimilarity" } });
    expect(calls.length).toBe(before);
  });
});
