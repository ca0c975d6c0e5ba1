import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Registry } from "../../../runtime/load/registry.js";
import type { Effect, EndpointSpec, FieldSpec, ToolSpec } from "../../../runtime/model/specs.js";
import {
  type CapabilityCandidate,
  COMPONENT_ORDER,
  createRetriever,
  type RetrievalRequest,
  route,
  SAME_FIELD_UNIT_WEIGHT,
  synonymsOf,
  tokenize,
  tokenizeQuery,
  unitTokens as unitTokensOf,
} from "../../../runtime/retrieval/index.js";
import { endpoint, generatedCatalog, param, registryOf, tool } from "../../fixtures/catalogs.js";

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
  "degrees Celsius",
  "in kelvin",
  "warm",
  "closing",
  "repositories",
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
    unit: fc.constantFrom("K", "degC", "degF", "hPa", "m/s", "%", "m"),
    dimensions: fc.constantFrom("temperature", "length/time", "L", "m"),
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
    units: fc.array(fc.constantFrom("K", "degC", "degF", "hPa", "m/s", "%", "m", "ppm"), { maxLength: 2 }),
    effects: fc.subarray<Effect>(["read", "write", "destructive", "unclassified"], { minLength: 1 }),
  },
  { requiredKeys: ["query"] },
) as fc.Arbitrary<RetrievalRequest>;

const view = (candidates: readonly CapabilityCandidate[]) =>
  candidates.map((c) => ({ route: c.route, score: c.score, components: c.scoreComponents, rank: c.rank }));

const tokensOf = (texts: readonly (string | undefined)[]): string[] => [
  ...new Set(texts.flatMap((text) => (text === undefined ? [] : tokenize(text)))),
];

/**
 * An independent reading of the documented `sameFieldUnit` component, straight from the field
 * specs: per endpoint, Σ over (request concept token c, request unit token u) that one field carries
 * of SAME_FIELD_UNIT_WEIGHT × (1 + ln(N / df(c, u))) / |request unit tokens|.
 */
function sameFieldOracle(registry: Registry, request: RetrievalRequest): Map<string, number> {
  const entries = registry.entries();
  const conceptTokens = new Set<string>();
  const unitTokens = new Set<string>();
  const pairsOf = entries.map(({ endpoint: ep }) => {
    const pairs = new Set<string>();
    for (const f of ep.fields) {
      const concept = tokensOf([
        f.id,
        ...(f.aliases ?? []),
        ...f.path.filter((s) => s !== "*"),
        f.semanticId,
      ]);
      const units = [
        ...new Set([...(f.unit === undefined ? [] : unitTokensOf(f.unit)), ...tokensOf([f.dimensions])]),
      ];
      for (const c of concept) conceptTokens.add(c);
      for (const u of units) unitTokens.add(u);
      for (const c of concept) for (const u of units) pairs.add(`${c}\u0000${u}`);
    }
    return pairs;
  });
  const df = new Map<string, number>();
  for (const pairs of pairsOf) for (const pair of pairs) df.set(pair, (df.get(pair) ?? 0) + 1);
  // Request tokens as documented: units written in the query and requested units are canonical
  // unit tokens; a token no endpoint has is replaced by its first synonym some endpoint has.
  const surface = new Set(
    entries.flatMap(({ tool: t, endpoint: ep }) =>
      tokensOf([
        ep.name,
        ep.description,
        t.name,
        t.namespace,
        t.provider,
        t.accessMode,
        t.description,
        ...ep.parameters.flatMap((p) => [p.name, p.description]),
        ...ep.fields.flatMap((f) => [
          f.id,
          ...(f.aliases ?? []),
          ...f.path.filter((s) => s !== "*"),
          f.description,
          f.semanticId,
          f.dimensions,
          ...Object.entries(f.qualifiers ?? {}).flat(),
        ]),
        ...ep.fields.flatMap((f) => (f.unit === undefined ? [] : unitTokensOf(f.unit))),
      ]),
    ),
  );
  const raw = [
    ...new Set([
      ...tokenizeQuery(request.query),
      ...tokensOf([...(request.fields ?? []), ...(request.semanticIds ?? [])]),
      ...(request.units ?? []).flatMap((u) => unitTokensOf(u)),
    ]),
  ];
  const asked: string[] = [];
  for (const t of raw) {
    const replacement = surface.has(t) ? undefined : synonymsOf(t).find((s) => surface.has(s));
    const token = replacement ?? t;
    if (replacement !== undefined && raw.includes(replacement)) continue;
    if (!asked.includes(token)) asked.push(token);
  }
  const concepts = asked.filter((t) => conceptTokens.has(t));
  const units = asked.filter((t) => unitTokens.has(t));
  const out = new Map<string, number>();
  entries.forEach(({ tool: t, endpoint: ep }, i) => {
    let sum = 0;
    for (const c of concepts) {
      for (const u of units) {
        const pair = `${c}\u0000${u}`;
        if (pairsOf[i]!.has(pair))
          sum += (SAME_FIELD_UNIT_WEIGHT * (1 + Math.log(entries.length / df.get(pair)!))) / units.length;
      }
    }
    if (sum > 0) out.set(`${t.name}.${ep.name}`, sum);
  });
  return out;
}

describe("index mode and exhaustive mode", () => {
  it("return identical ranked results on random catalogs and queries", () => {
    let withSameField = 0;
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
            // The total is the components summed in COMPONENT_ORDER, bit for bit.
            for (const c of a) {
              const sum = COMPONENT_ORDER.reduce((acc, name) => acc + (c.scoreComponents[name] ?? 0), 0);
              expect(sum).toBe(c.score);
            }
            // The same-field component matches its documented definition, and every endpoint it
            // rewards is on the ranked surface (when the effect filter lets it through).
            const oracle = sameFieldOracle(registry, request);
            for (const c of a) {
              const want = oracle.get(c.route);
              if (want === undefined) expect(c.scoreComponents.sameFieldUnit).toBeUndefined();
              else expect(c.scoreComponents.sameFieldUnit).toBeCloseTo(want, 9);
            }
            const admitted = new Set(request.effects ?? ["read", "write", "destructive", "unclassified"]);
            const routes = new Set(a.map((c) => c.route));
            for (const entry of registry.entries()) {
              const route = `${entry.tool.name}.${entry.endpoint.name}`;
              if (oracle.has(route) && admitted.has(entry.endpoint.effect)) expect(routes).toContain(route);
            }
            if (a.some((c) => c.scoreComponents.sameFieldUnit !== undefined)) withSameField++;
            // Rejection and its explanation read only the ranked lists: identical in both modes.
            const routed = (r: typeof indexed) => {
              const out = route(r, request, { k });
              return { ...out, candidates: view(out.candidates) };
            };
            expect(routed(indexed)).toEqual(routed(exhaustive));
          }
        },
      ),
      { numRuns: 200 },
    );
    // The generators exercise the same-field component, not only the lexical and exact ones.
    expect(withSameField).toBeGreaterThan(20);
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

  it("agree on a catalog larger than one accumulation window, for dense and sparse requests", () => {
    // 2500 endpoints: index mode accumulates in windows of endpoints, so this crosses window edges.
    const catalog = generatedCatalog(2500, { seed: 5, queries: 30 });
    const endpoints = catalog.registry.entries();
    const requests: RetrievalRequest[] = [...catalog.queries];
    for (let i = 0; i < 30; i++) {
      const ep = endpoints[(i * 977) % endpoints.length]!.endpoint;
      const f = ep.fields[1 + (i % 4)]!;
      // A concept word with its unit (same-field pairs), and one with another field's unit.
      const other = ep.fields[1 + ((i + 1) % 4)]!;
      requests.push({ query: `${f.id.split("_")[0]} in ${f.unit ?? "m"}` });
      requests.push({ query: `${f.id.split("_")[0]} ${other.unit ?? "K"}`, effects: ["read"] });
    }
    requests.push({ query: "sem id" }, { query: "sem K degC m/s hPa", units: ["K"] });
    const indexed = createRetriever(catalog.registry);
    const exhaustive = createRetriever(catalog.registry, { exhaustive: true });
    let dense = 0;
    let paired = 0;
    const entries = (r: typeof indexed, request: RetrievalRequest, options = {}) =>
      r.rankedEntries(request, options).map((e) => [e.route, e.score, e.rank]);
    for (const request of requests) {
      const full = entries(exhaustive, request);
      expect(entries(indexed, request)).toEqual(full);
      const strict = { minCoverage: 0.6, minScore: 3 };
      expect(entries(indexed, request, strict)).toEqual(entries(exhaustive, request, strict));
      const top = exhaustive.rankedSurface(request, { limit: 40 });
      expect(view(indexed.rankedSurface(request, { limit: 40 }))).toEqual(view(top));
      if (full.length > 1500) dense++;
      if (top.some((c) => c.scoreComponents.sameFieldUnit !== undefined)) paired++;
    }
    expect(dense).toBeGreaterThan(0);
    expect(paired).toBeGreaterThan(10);
  });
});
