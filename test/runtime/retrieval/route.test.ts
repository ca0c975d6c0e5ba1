import { describe, expect, it } from "vitest";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import { plan } from "../../../runtime/planner/index.js";
import {
  createRetriever,
  DEFAULT_MIN_CONCEPT_COVERAGE,
  type RetrievalRequest,
  route,
} from "../../../runtime/retrieval/index.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";
import { codeOf } from "../planner/helpers.js";

// Two weather providers with look-alike endpoints: only their fields tell them apart.
const registry = registryOf([
  tool(
    "north_weather",
    [
      endpoint("get_data", {
        description: "Get weather data for a location.",
        parameters: [param("location", true)],
        fields: [
          field("temperature", {
            semanticId: "cf:air_temperature",
            unit: "degC",
            qualifiers: { height: "2m" },
          }),
          field("wind_speed", { semanticId: "cf:wind_speed", unit: "m/s", qualifiers: { height: "10m" } }),
        ],
      }),
    ],
    { description: "Weather data API." },
  ),
  tool(
    "south_weather",
    [
      endpoint("get_data", {
        description: "Get weather data for a location.",
        parameters: [param("location", true)],
        fields: [
          field("temperature", { semanticId: "cf:air_temperature", unit: "K" }),
          field("humidity", { semanticId: "cf:relative_humidity", unit: "%" }),
        ],
      }),
      endpoint("get_station", {
        description: "Get a weather station.",
        parameters: [param("station", true)],
      }),
      endpoint("delete_station", {
        description: "Delete a weather station.",
        effect: "destructive",
        parameters: [param("station", true)],
      }),
    ],
    { description: "Weather data API." },
  ),
]);
const NORTH = "north_weather.get_data";
const SOUTH = "south_weather.get_data";

const modes = [
  ["index", createRetriever(registry)],
  ["exhaustive", createRetriever(registry, { exhaustive: true })],
] as const;

describe("route: supported requests", () => {
  it.each(modes)("finds the field by its unit written out in words (%s mode)", (_mode, retriever) => {
    const celsius = route(retriever, { query: "air temperature in degrees Celsius" });
    expect(celsius.rejected).toBe(false);
    expect(celsius.candidates.map((c) => c.route)).toEqual([NORTH]);
    const kelvin = route(retriever, { query: "air temperature in kelvin" });
    expect(kelvin.candidates.map((c) => c.route)).toEqual([SOUTH]);
  });

  it("finds a field named only by a description-level word", () => {
    const out = route(modes[0][1], { query: "how warm is it in Busan" });
    expect(out.rejected).toBe(false);
    expect(out.candidates.map((c) => c.route).sort()).toEqual([NORTH, SOUTH]);
  });

  it("keeps qualifiers on the field they belong to", () => {
    const out = route(modes[0][1], { query: "air temperature at 2m height for Busan" });
    expect(out.candidates.map((c) => c.route)).toEqual([NORTH]);
  });

  it("routes each need of a two-need request", () => {
    const out = route(modes[0][1], { query: "relative humidity and wind speed at 10m height" });
    expect(out.rejected).toBe(false);
    expect(out.candidates.map((c) => c.route).sort()).toEqual([NORTH, SOUTH]);
  });

  it("accepts structured requests naming declared semantic IDs and units", () => {
    const out = route(modes[0][1], {
      query: "air temperature",
      semanticIds: ["cf:air_temperature"],
      units: ["Cel"],
    });
    expect(out.candidates[0]?.route).toBe(NORTH);
  });
});

describe("route: unsupported requests are rejected with what is uncovered", () => {
  it("names a concept no endpoint declares", () => {
    const out = route(modes[0][1], { query: "dew point temperature for Busan" });
    expect(out.rejected).toBe(true);
    expect(out.candidates).toEqual([]);
    expect(out.uncovered).toEqual([
      {
        concept: "dew point",
        kind: "concept",
        need: "dew point temperature for Busan",
        reason: 'no endpoint declares "dew point"',
      },
    ]);
    expect(out.reason).toContain("dew point");
  });

  it("names a unit no field of that concept offers", () => {
    const out = route(modes[0][1], { query: "air temperature in degrees Fahrenheit" });
    expect(out.rejected).toBe(true);
    expect(out.uncovered.map((u) => [u.kind, u.concept])).toEqual([["unit", "degrees Fahrenheit"]]);
    expect(out.uncovered[0]!.reason).toMatch(/temperature in degrees Fahrenheit/);
  });

  it("names a qualifier that belongs to another field", () => {
    const out = route(modes[0][1], { query: "air temperature at 10m height" });
    expect(out.rejected).toBe(true);
    expect(out.uncovered.map((u) => [u.kind, u.concept])).toEqual([["qualifier", "10m"]]);
  });

  it("names a requested semantic ID no endpoint declares", () => {
    const out = route(modes[0][1], { query: "salinity", semanticIds: ["cf:sea_water_salinity"] });
    expect(out.rejected).toBe(true);
    // A request naming semantic IDs has said what it needs: the ID is the requirement.
    expect(out.uncovered.map((u) => [u.kind, u.concept])).toEqual([["semanticId", "cf:sea_water_salinity"]]);
  });

  it("names a requested unit of a semantic ID as the request wrote it, with its canonical code", () => {
    const out = route(modes[0][1], { query: "wind speed", semanticIds: ["cf:wind_speed"], units: ["mph"] });
    expect(out.rejected).toBe(true);
    // "mph" is what the user asked for; `[mi_i]/h` is the canonical code both sides are compared in.
    expect(out.uncovered.map((u) => [u.kind, u.concept])).toEqual([["unit", "mph"]]);
    expect(out.uncovered[0]!.reason).toBe("no endpoint declares cf:wind_speed in mph ([mi_i]/h)");
  });

  it("rejects a request no endpoint matches at all", () => {
    const out = route(modes[0][1], { query: "flight departures from Seoul" });
    expect(out.rejected).toBe(true);
    expect(out.uncovered.map((u) => u.concept)).toEqual(["flight departures"]);
  });

  it("lowers the bar only when asked (minConceptCoverage)", () => {
    const request: RetrievalRequest = { query: "dew point temperature" };
    expect(DEFAULT_MIN_CONCEPT_COVERAGE).toBe(1);
    expect(route(modes[0][1], request).rejected).toBe(true);
    expect(route(modes[0][1], request, { minConceptCoverage: 0.3 }).rejected).toBe(false);
  });

  it("refuses invalid options with a typed error", () => {
    const retriever = modes[0][1];
    expect(codeOf(() => route(retriever, { query: "temperature" }, { minConceptCoverage: 0 }))).toBe(
      "INVALID_RETRIEVAL_REQUEST",
    );
    expect(codeOf(() => route(retriever, { query: "temperature" }, { depth: 0 }))).toBe(
      "INVALID_RETRIEVAL_REQUEST",
    );
    expect(codeOf(() => route(retriever, { query: "temperature" }, { k: 1.5 }))).toBe(
      "INVALID_RETRIEVAL_REQUEST",
    );
  });

  it.each(modes)("gives the same answer in both modes (%s)", (_mode, retriever) => {
    const base = modes[1][1];
    for (const query of [
      "dew point",
      "air temperature in K",
      "wind speed at 2m height",
      "delete a station",
    ]) {
      expect(route(retriever, { query })).toEqual(route(base, { query }));
    }
  });
});

describe("plan: unsupported requests", () => {
  it("plans nothing and explains what is uncovered", () => {
    const out = plan(registry, {
      query: "dew point temperature for Busan",
      arguments: { location: "Busan" },
    });
    expect(out.calls).toEqual([]);
    expect(out.reason).toBe("unsupported");
    expect(out.uncovered?.map((u) => u.concept)).toEqual(["dew point"]);
  });

  it("plans a supported request as before", () => {
    const out = plan(registry, { query: "air temperature in kelvin", arguments: { location: "Busan" } });
    expect(out.calls.map((c) => c.route)).toEqual([SOUTH]);
    expect(out.uncovered).toBeUndefined();
  });

  it("can be told not to reject (rejectUnsupported: false)", () => {
    const out = plan(
      registry,
      { query: "dew point temperature", arguments: { location: "Busan" } },
      { rejectUnsupported: false },
    );
    expect(out.calls.length).toBe(1);
  });
});

describe("intent ranks a read endpoint above a write one for a read request", () => {
  it("prefers the destructive endpoint only when asked to delete", () => {
    const retriever = modes[0][1];
    expect(retriever.retrieve({ query: "delete a weather station" })[0]?.route).toBe(
      "south_weather.delete_station",
    );
    const read = retriever.retrieve({ query: "weather station" });
    expect(read.map((c) => c.route).slice(0, 2)).toEqual([
      "south_weather.get_station",
      "south_weather.delete_station",
    ]);
    expect(read[0]?.scoreComponents.intent).toBeGreaterThan(0);
    expect(read[1]?.scoreComponents.intent).toBeUndefined();
  });
});

describe("route(): requests that name inputs by their declared type", () => {
  // An OpenRPC-style method whose arguments are typed through a shared definition.
  const math = new Registry([
    registerTool({
      source: "math",
      sourceKind: "openrpc",
      defs: { Integer: { type: "integer" } },
      tool: tool("math", [
        endpoint("addition", {
          description: "Adds two numbers.",
          parameters: [
            param("a", true, { schema: { $ref: "#/$defs/Integer" } }),
            param("b", true, { schema: { type: "integer" } }),
          ],
          fields: [field("result")],
        }),
      ]),
    }),
  ]);
  const retriever = createRetriever(math);

  it("covers a type word with the parameters' declared types, and a number word is a quantity", () => {
    const routed = route(retriever, { query: "addition of two integers" }, { k: 5 });
    expect(routed.rejected).toBe(false);
    expect(routed.candidates.map((c) => c.route)).toEqual(["math.addition"]);
  });

  it("still names a concept neither the parameters nor the fields declare", () => {
    const routed = route(retriever, { query: "addition of two matrices" }, { k: 5 });
    expect(routed.rejected).toBe(true);
    expect(routed.uncovered.map((u) => u.concept)).toEqual(["matrices"]);
  });
});

describe("route(): coverage terms from enumerated values and path segments", () => {
  // A ticket tracker whose closing is a state value, and a quota endpoint named only by its path.
  const tracker = registryOf([
    tool("tracker", [
      endpoint("update_ticket", {
        description: "Update a ticket.",
        effect: "write",
        parameters: [
          param("ticket", true),
          param("body", true, {
            schema: {
              type: "object",
              properties: {
                state: { type: "string", enum: ["open", "closed"] },
                labels: { type: "array", items: { anyOf: [{ const: "duplicate" }, { type: "string" }] } },
              },
            },
          }),
        ],
      }),
      {
        ...endpoint("get_quota", { description: "Get the status of your account." }),
        execution: { kind: "http", method: "get", path: "/rate_limit/{scope}", successStatus: [200] },
      },
    ]),
  ]);
  const retriever = createRetriever(tracker);

  it("covers a word with a value a parameter enumerates, nested in its body schema", () => {
    for (const query of ["close a ticket", "mark a ticket as duplicate"]) {
      const routed = route(retriever, { query }, { k: 5 });
      expect(routed.rejected, query).toBe(false);
      expect(routed.candidates[0]?.route, query).toBe("tracker.update_ticket");
    }
  });

  it("covers a word with a literal segment of the HTTP path, never a placeholder", () => {
    const routed = route(retriever, { query: "rate limit of my account" }, { k: 5 });
    expect(routed.rejected).toBe(false);
    expect(routed.candidates[0]?.route).toBe("tracker.get_quota");
    const scoped = route(retriever, { query: "scope of my account" }, { k: 5 });
    expect(scoped.rejected).toBe(true);
    expect(scoped.uncovered.map((u) => u.concept)).toEqual(["scope"]);
  });

  it("still names a concept no name, value or path segment declares", () => {
    const routed = route(retriever, { query: "close a ticket milestone" }, { k: 5 });
    expect(routed.rejected).toBe(true);
    expect(routed.uncovered.map((u) => u.concept)).toEqual(["milestone"]);
  });
});
