import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Effect, EndpointSpec, FieldSpec, ToolSpec } from "../runtime/model.js";
import {
  type CapabilityCandidate,
  createRetriever,
  type RetrievalRequest,
} from "../runtime/retrieval/index.js";
import { endpoint, param, registryOf, tool } from "./fixtures/catalogs.js";

// A small, overlapping vocabulary (camelCase, snake, units, qualifiers, stop words) so random
// catalogs and queries collide often; plus arbitrary strings for the long tail.
const WORDS = [
  "temp",
  "temperature",
  "airTemperature",
  "wind_speed",
  "rain",
  "city",
  "repo",
  "repos",
  "stars",
  "star",
  "count",
  "getUser",
  "user-name",
  "sea",
  "level",
  "2m",
  "K",
  "degC",
  "hPa",
  "m/s",
  "the",
  "of",
  "wx:air_temperature",
  "Ümlaut",
  "x",
];
const word = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const text = fc
  .tuple(fc.array(word, { maxLength: 6 }), fc.constantFrom(" ", "_", "-", ".", "/", ""))
  .map(([words, sep]) => words.join(sep));

const fieldArb = fc.record(
  {
    id: word,
    aliases: fc.array(word, { maxLength: 2 }),
    path: fc.array(fc.oneof(word, fc.constant("*")), { minLength: 1, maxLength: 3 }),
    semanticId: word.map((w) => `ns:${w}`),
    unit: fc.constantFrom("K", "degC", "hPa", "m/s", "%", "m"),
    qualifiers: fc.dictionary(fc.constantFrom("height", "level", "period"), word, { maxKeys: 2 }),
    identifier: fc.boolean(),
    description: text,
  },
  { requiredKeys: ["id", "path"] },
);

const endpointArb = fc.record({
  name: word,
  description: text,
  effect: fc.constantFrom<Effect>("read", "write", "destructive", "unclassified"),
  params: fc.array(word, { maxLength: 3 }),
  fields: fc.array(fieldArb, { maxLength: 5 }),
});

const toolArb = fc.record({
  name: word,
  provider: word,
  accessMode: fc.constantFrom("rest", "mcp"),
  description: text,
  endpoints: fc.array(endpointArb, { minLength: 1, maxLength: 4 }),
});

const catalogArb = fc.array(toolArb, { minLength: 1, maxLength: 8 }).map((tools): ToolSpec[] =>
  tools.map((t, ti) => {
    const endpoints: EndpointSpec[] = t.endpoints.map((e, ei) =>
      endpoint(`${e.name}_${ei}`, {
        description: e.description,
        effect: e.effect,
        parameters: [...new Set(e.params)].map((name) => param(name)),
        fields: e.fields.map(
          (f, fi): FieldSpec => ({
            ...f,
            id: `${f.id}#${fi}`,
            ...(f.aliases !== undefined ? { aliases: f.aliases } : {}),
            ...(f.qualifiers !== undefined ? { qualifiers: f.qualifiers } : {}),
          }),
        ),
      }),
    );
    return tool(`t${ti}_${t.name}`, endpoints, {
      provider: t.provider,
      accessMode: t.accessMode,
      description: t.description,
    });
  }),
);

const requestArb = fc.record(
  {
    query: text,
    fields: fc.array(word, { maxLength: 3 }),
    semanticIds: fc.array(
      word.map((w) => `ns:${w}`),
      { maxLength: 2 },
    ),
    units: fc.array(fc.constantFrom("K", "degC", "hPa", "m/s", "%", "m", "ppm"), { maxLength: 2 }),
    effects: fc.subarray<Effect>(["read", "write", "destructive", "unclassified"], { minLength: 1 }),
  },
  { requiredKeys: ["query"] },
) as fc.Arbitrary<RetrievalRequest>;

const view = (candidates: readonly CapabilityCandidate[]) =>
  candidates.map((c) => ({ route: c.route, score: c.score, components: c.scoreComponents, rank: c.rank }));

describe("index mode and exhaustive mode", () => {
  it("return identical ranked results on random catalogs and queries", () => {
    fc.assert(
      fc.property(
        catalogArb,
        fc.array(requestArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 12 }),
        (tools, requests, k) => {
          const registry = registryOf(tools);
          const indexed = createRetriever(registry);
          const exhaustive = createRetriever(registry, { exhaustive: true });
          for (const request of requests) {
            const a = indexed.rankedSurface(request);
            const b = exhaustive.rankedSurface(request);
            expect(view(a)).toEqual(view(b));
            expect(view(indexed.retrieve(request, { k }))).toEqual(view(b.slice(0, k)));
            expect(view(exhaustive.retrieve(request, { k }))).toEqual(view(b.slice(0, k)));
            const exact = (r: typeof indexed) =>
              r.rankedEntries(request, { exactOnly: true }).map((e) => [e.route, e.score, e.rank]);
            expect(exact(indexed)).toEqual(exact(exhaustive));
            // The index scores only endpoints sharing a key; nothing outside it can score above zero.
            for (const candidate of b) expect(candidate.score).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("agree on a catalog where every endpoint shares tokens with the query", () => {
    const tools = Array.from({ length: 30 }, (_, i) =>
      tool(`tool_${i}`, [
        endpoint(`get_weather_${i % 7}`, { description: `weather ${"temp ".repeat(i % 4)}` }),
      ]),
    );
    const registry = registryOf(tools);
    const request = { query: "weather temp 3" };
    expect(view(createRetriever(registry).rankedSurface(request))).toEqual(
      view(createRetriever(registry, { exhaustive: true }).rankedSurface(request)),
    );
    expect(createRetriever(registry).rankedSurface(request)).toHaveLength(30);
  });
});
