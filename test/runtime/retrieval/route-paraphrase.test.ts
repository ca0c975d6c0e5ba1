/**
 * route() on requests that name a field only in general-English words (docs/runtime/retrieval-and-
 * planning.md, "Frame words" and "Vocabularies"): frame words need no covering, description-level
 * words reach the quantity they describe, a number with a unit is a stated quantity the field must
 * declare, and what no endpoint declares still rejects the request, naming the uncovered concept.
 * Also the read-safety rule for participles: "list uploaded files" routes to the read endpoint.
 */
import { describe, expect, it } from "vitest";
import { createRetriever, route } from "../../../runtime/retrieval/index.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";

const weather = (name: string, height: string) =>
  tool(
    name,
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
          field("wind_speed", { semanticId: "cf:wind_speed", unit: "m/s", qualifiers: { height } }),
          field("humidity", { semanticId: "cf:relative_humidity", unit: "%" }),
          field("pressure", { semanticId: "cf:air_pressure", unit: "hPa" }),
        ],
      }),
    ],
    { description: "Weather data API." },
  );

const files = tool(
  "files",
  [
    endpoint("list_files", { description: "List files.", fields: [field("[].filename_download")] }),
    endpoint("update_file", {
      description: "Update an existing file, or upload a new version of its contents.",
      effect: "write",
      parameters: [param("id", true)],
    }),
  ],
  { description: "File storage." },
);

const registry = registryOf([weather("low_winds", "10m"), weather("high_winds", "100m"), files]);
const modes = [
  ["index", createRetriever(registry)],
  ["exhaustive", createRetriever(registry, { exhaustive: true })],
] as const;
const routes = (out: ReturnType<typeof route>) => out.candidates.map((c) => c.route);

describe("route(): paraphrases in general-English words", () => {
  it.each(modes)("needs no covering for frame words (%s mode)", (_mode, retriever) => {
    for (const query of [
      "how warm it is outside",
      "how cold it gets outdoors at night",
      "barometric reading",
      "barometer reading at the site",
      "how humid it feels today",
      // A reference point after a spatial preposition is a concept only if some endpoint knows it.
      "how warm it is two metres above the ground",
    ]) {
      const out = route(retriever, { query });
      expect(out, query).toMatchObject({ rejected: false, uncovered: [] });
      expect(routes(out).sort(), query).toEqual(["high_winds.get_data", "low_winds.get_data"]);
    }
  });

  it("covers description-level words with the quantity they describe", () => {
    for (const query of ["how damp the air is", "how muggy and breezy it is", "millibar reading"]) {
      expect(route(modes[0][1], { query }), query).toMatchObject({ rejected: false });
    }
  });

  it.each(modes)(
    "reads a number with a unit as a quantity the field must declare (%s mode)",
    (_m, retriever) => {
      expect(routes(route(retriever, { query: "wind speed ten metres up" }))).toEqual(["low_winds.get_data"]);
      expect(routes(route(retriever, { query: "how fast the gale is 100 metres up" }))).toEqual([
        "high_winds.get_data",
      ]);
      // A stated quantity no field declares is a gap, as "at 50m height" is.
      const fifty = route(retriever, { query: "wind speed 50 metres up" });
      expect(fifty).toMatchObject({ rejected: true, uncovered: [{ concept: "50 metres" }] });
      // "in metres per second" still asks for a unit, and one no field offers is still a gap.
      expect(route(retriever, { query: "wind speed in metres per second" }).rejected).toBe(false);
      expect(route(retriever, { query: "wind speed in knots" })).toMatchObject({
        rejected: true,
        uncovered: [{ kind: "unit", concept: "knots" }],
      });
    },
  );

  it("still rejects a medium, a place or a quantity no endpoint declares, naming it", () => {
    expect(route(modes[0][1], { query: "soil moisture" })).toMatchObject({
      rejected: true,
      uncovered: [{ concept: "soil", kind: "concept" }],
    });
    expect(route(modes[0][1], { query: "how warm the ground is" })).toMatchObject({
      rejected: true,
      uncovered: [{ concept: "ground" }],
    });
    expect(route(modes[0][1], { query: "how much snow fell overnight" })).toMatchObject({ rejected: true });
    const out = route(modes[0][1], { query: "which way the breeze blows from" });
    expect(out.rejected).toBe(true);
    expect(out.uncovered.map((u) => u.concept)).toEqual(["way"]);
  });
});

describe("route(): a participle of a write verb on a read request", () => {
  it.each(modes)("routes 'list uploaded files' to the read endpoint first (%s mode)", (_mode, retriever) => {
    const out = route(retriever, { query: "list uploaded files" });
    expect(out.rejected).toBe(false);
    expect(out.candidates[0]).toMatchObject({ route: "files.list_files", effect: "read" });
  });

  it("leaves a request to upload with the endpoint that uploads first", () => {
    const out = route(modes[0][1], { query: "upload a file" });
    expect(routes(out)[0]).toBe("files.update_file");
    // The participle is not waived for a write endpoint: "uploaded" is still the word it must declare.
    expect(route(modes[0][1], { query: "list uploaded files", effects: ["write"] })).toMatchObject({
      rejected: false,
      candidates: [{ route: "files.update_file" }],
    });
  });
});
