/**
 * Retrieval with vectors over a compiled project, end to end (docs/runtime/embeddings.md): a request
 * in words no declared field uses reaches its endpoint, the lexical top k stays, added candidates
 * honour the request's effects, and the documented ModelQueryAnalyzer path maps free text onto a
 * declared field that a real HTTP call then returns.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyzerPrompt } from "../../../../runtime/planner/analyzer.js";
import { ModelQueryAnalyzer } from "../../../../runtime/planner/analyzer.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { trigramEmbedder } from "../../../fixtures/embeddings/trigram-embedder.mjs";
import { startServer, type TestServer } from "../../../helpers/http-server.js";
import type { TempProject } from "../../../helpers/project.js";
import { compileWeather, weatherProject } from "./project.js";

let project: TempProject;
let server: TestServer;
beforeAll(async () => {
  project = weatherProject();
  await compileWeather(project, {});
  server = await startServer((request, response) => {
    response.setHeader("content-type", "application/json");
    if (request.method === "GET" && /\/stations\/[^/]+\/observation$/.test(request.url ?? "")) {
      response.end(JSON.stringify({ station: "st-1", temperature: 21.5, humidity: 40, wind_speed: 3 }));
    } else {
      response.statusCode = 404;
      response.end("{}");
    }
  });
});
afterAll(() => server.close());

const load = () =>
  SchemaRouter.load({
    lockfile: project.lockfile,
    embedder: trigramEmbedder(),
    bindings: { weather: { baseUrl: `${server.url}/v1` } },
  });

describe("retrieveWithEmbeddings", () => {
  it("adds the endpoint a paraphrase means when lexical scoring finds nothing", async () => {
    const router = await load();
    // "humidish" is in no declared field and in none of the runtime's local vocabularies
    // (runtime/retrieval/vocabulary/synonyms.ts knows "warm" → temperature and "damp" → humidity, so
    // those are lexical now).
    const request = { query: "how humidish is it outside" };
    expect(router.retrieve(request)).toEqual([]);
    const [first, ...rest] = await router.retrieveWithEmbeddings(request);
    expect(first).toMatchObject({
      route: "weather.getObservation",
      rank: 1,
      effect: "read",
      embedding: { origin: "embedding", lexicalRank: null, field: "humidity" },
    });
    expect(first!.embedding.similarity).toBeGreaterThan(0.3);
    expect(first!.endpointFingerprint).toBe(
      router.registry.get("weather")!.endpointFingerprints.get("getObservation"),
    );
    expect(rest.every((c) => c.embedding.similarity! >= 0.3)).toBe(true);
    await router.close();
  });

  it("keeps every lexical top-k candidate and only re-ranks them when k is full", async () => {
    const router = await load();
    const request = { query: "station" };
    const lexical = router.retrieve(request, { k: 3 });
    expect(lexical).toHaveLength(3);
    const result = await router.retrieveWithEmbeddings(request, { k: 3, add: 0 });
    expect(result.map((c) => c.route).sort()).toEqual(lexical.map((c) => c.route).sort());
    expect(result.every((c) => c.embedding.origin === "lexical")).toBe(true);
    await router.close();
  });

  it("adds only endpoints whose effect the request allows", async () => {
    const router = await load();
    const all = await router.retrieveWithEmbeddings({ query: "get rid of a station" }, { minSimilarity: 0 });
    expect(all.map((c) => c.route)).toContain("weather.deleteStation");
    const reads = await router.retrieveWithEmbeddings(
      { query: "get rid of a station", effects: ["read"] },
      { minSimilarity: 0 },
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => c.effect === "read")).toBe(true);
    await router.close();
  });
});

describe("mapping free text onto declared fields with ModelQueryAnalyzer", () => {
  it("offers the vector candidates to the model, plans the declared field it names, and calls it", async () => {
    const router = await load();
    const prompts: AnalyzerPrompt[] = [];
    // The model: a local stand-in for an LLM that reads the offered candidates and answers in the
    // response format (route, declared field IDs, arguments stated in the request).
    const model = (prompt: AnalyzerPrompt) => {
      prompts.push(prompt);
      const offered = (prompt.candidates as { candidates: { route: string; fields: { id: string }[] }[] })
        .candidates;
      const observation = offered.find((c) => c.fields.some((f) => f.id === "humidity"));
      return { route: observation?.route ?? null, fields: ["humidity"], arguments: { id: "st-1" } };
    };
    const analyzer = new ModelQueryAnalyzer(router.registry, model, {
      offer: (request, k) => router.retrieveWithEmbeddings(request, { k }),
    });
    const request = { query: "how humidish is it at st-1" };
    expect(router.retrieve(request, { k: 8 }).map((c) => c.route)).not.toContain("weather.getObservation");
    const proposal = await analyzer.analyze(request);
    expect(proposal).toMatchObject({ route: "weather.getObservation", fields: ["humidity"], dropped: [] });
    // Without the offer function, the lexical ranking never shows the model this endpoint.
    const lexicalOnly = await new ModelQueryAnalyzer(router.registry, model).analyze(request);
    expect(lexicalOnly.route).toBeUndefined();

    const plan = router.plan(request, { proposal });
    expect(plan.calls[0]).toMatchObject({
      tool: "weather",
      endpoint: "getObservation",
      arguments: { id: "st-1" },
    });
    expect(plan.calls[0]!.fields).toContain("humidity");
    const [result] = await router.invoke(plan);
    expect(result!.data).toMatchObject({ humidity: 40 });
    expect(server.requests.at(-1)!.url).toBe("/v1/stations/st-1/observation");
    await router.close();
  });
});
