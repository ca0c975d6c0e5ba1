import { describe, expect, it } from "vitest";
import { plan } from "../../../runtime/planner/index.js";
import {
  type CapabilityCandidate,
  COMPONENT_ORDER,
  createRetriever,
  type RetrievalRequest,
  SAME_FIELD_UNIT_WEIGHT,
} from "../../../runtime/retrieval/index.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";

// Two look-alike weather tools with the same tokens everywhere; only which field carries which unit
// differs. `aaa` sorts first, so a tie would put it first.
const observations = (temperatureUnit: string, dewPointUnit: string) =>
  endpoint("observations", {
    description: "Weather observations for a location.",
    parameters: [param("location", true)],
    fields: [
      field("temperature", { semanticId: "wx:air_temperature", unit: temperatureUnit }),
      field("dew_point", { semanticId: "wx:dew_point_temperature", unit: dewPointUnit }),
    ],
  });
const registry = registryOf([
  tool("aaa_weather", [observations("degF", "degC")], { description: "Weather service." }),
  tool("zzz_weather", [observations("degC", "degF")], { description: "Weather service." }),
]);
const WRONG = "aaa_weather.observations";
const RIGHT = "zzz_weather.observations";

const modes = [
  ["index", createRetriever(registry)],
  ["exhaustive", createRetriever(registry, { exhaustive: true })],
] as const;

// The intent component is a share of the others' sum, so it differs with sameFieldUnit too.
const withoutSameField = (candidate: CapabilityCandidate) => {
  const { sameFieldUnit: _, intent: __, ...rest } = candidate.scoreComponents;
  return rest;
};

describe("same-field co-occurrence of concept and unit tokens (sameFieldUnit)", () => {
  it.each(modes)("ranks the route whose temperature is in degC first (%s mode)", (_mode, retriever) => {
    const [first, second] = retriever.retrieve({ query: "air temperature in degC" });
    expect(first?.route).toBe(RIGHT);
    expect(second?.route).toBe(WRONG);
    // Everything else ties exactly: the same-field component alone tells them apart.
    expect(withoutSameField(first!)).toEqual(withoutSameField(second!));
    expect(first!.scoreComponents.sameFieldUnit!).toBeGreaterThan(second!.scoreComponents.sameFieldUnit!);
  });

  it.each([
    ["air temperature in degF", WRONG],
    ["dew point in degC", WRONG],
    ["dew point temperature in degF", RIGHT],
    ["dew point in degF", RIGHT],
  ])("follows the unit to the field it belongs to: %j → %s", (query, route) => {
    for (const [, retriever] of modes) expect(retriever.retrieve({ query })[0]?.route).toBe(route);
  });

  it("counts requested units as unit tokens too", () => {
    const request: RetrievalRequest = { query: "air temperature", units: ["degC"] };
    for (const [, retriever] of modes) expect(retriever.retrieve(request)[0]?.route).toBe(RIGHT);
  });

  it("ties when the concept is on both fields (`temperature` is also in the dew point's semantic ID)", () => {
    const out = createRetriever(registry).retrieve({ query: "temperature in degC" });
    expect(out.map((c) => c.route)).toEqual([WRONG, RIGHT]);
    expect(out[0]!.score).toBe(out[1]!.score);
  });

  it("is absent without a unit token, so the look-alikes tie and the route name decides", () => {
    const out = createRetriever(registry).retrieve({ query: "air temperature" });
    expect(out.map((c) => c.route)).toEqual([WRONG, RIGHT]);
    expect(out[0]!.score).toBe(out[1]!.score);
    for (const c of out) expect(c.scoreComponents.sameFieldUnit).toBeUndefined();
  });

  it("has the documented value: weight × Σ pair idf / |request unit tokens|", () => {
    // Request concept tokens: air, temperature; "in degC" written in the query is one canonical
    // unit token, unit:Cel. N = 2 endpoints. RIGHT carries air·unit:Cel (df 1) and
    // temperature·unit:Cel (df 2); WRONG carries temperature·unit:Cel (df 2).
    const out = createRetriever(registry).retrieve({ query: "air temperature in degC" });
    const rare = 1 + Math.log(2);
    expect(out[0]!.scoreComponents.sameFieldUnit).toBeCloseTo(SAME_FIELD_UNIT_WEIGHT * (rare + 1), 12);
    expect(out[1]!.scoreComponents.sameFieldUnit).toBeCloseTo(SAME_FIELD_UNIT_WEIGHT, 12);
    expect(COMPONENT_ORDER.indexOf("sameFieldUnit")).toBeLessThan(COMPONENT_ORDER.indexOf("coverage"));
  });

  it.each(modes)("plans the right route and only its temperature field (%s mode)", (_mode, retriever) => {
    const result = plan(retriever, { query: "air temperature in degC", arguments: { location: "Busan" } });
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]).toMatchObject({ route: RIGHT, fields: ["temperature"] });
    expect(result.explanations[0]!.scoreComponents.sameFieldUnit).toBeGreaterThan(0);
  });
});
