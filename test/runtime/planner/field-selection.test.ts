/** Field-first selection: matched fields plus identifiers, aliases, semantic IDs, units, qualifiers, no overlapping paths. */
import { describe, expect, it } from "vitest";
import { plan } from "../../../runtime/planner/index.js";
import { endpoint, field } from "../../fixtures/catalogs.js";
import { observations, only, single, text } from "./helpers.js";

describe("field-first selection", () => {
  const registry = single(observations);

  it("selects matched fields plus identifiers on a clear match", () => {
    const { call, why } = only(
      plan(registry, { query: "temperature in Paris", arguments: { city: "Paris" } }),
    );
    expect(call.fields).toEqual(["station", "temperature"]);
    expect(why.fieldSelection).toBe("matched");
    // Reasons name the matched token, stemmed (vocabulary/stem.ts): "temperatur".
    expect(why.fieldReasons).toEqual({ station: ["identifier"], temperature: ["matched:temperatur"] });
  });

  it("keeps all declared fields when no field matched", () => {
    const { call, why } = only(plan(registry, { query: "weather observations in Paris" }));
    expect(call.fields).toEqual(["station", "temperature", "humidity", "wind_speed", "summary"]);
    expect(why.fieldSelection).toBe("ambiguous-intent-kept-all");
    expect(why.fieldReasons.station).toEqual(["identifier"]);
    expect(why.fieldReasons.humidity).toEqual(["ambiguous-intent-kept-all"]);
  });

  it("keeps a token tied across every data field ambiguous", () => {
    const tied = single(
      endpoint("wind", {
        fields: [
          field("id", { identifier: true, ...text }),
          field("wind_speed"),
          field("wind_direction"),
          field("wind_gust"),
        ],
      }),
    );
    const { call, why } = only(plan(tied, { query: "wind" }));
    expect(why.fieldSelection).toBe("ambiguous-intent-kept-all");
    expect(call.fields).toEqual(["id", "wind_speed", "wind_direction", "wind_gust"]);
  });

  it("matches aliases, explicit path segments and semantic IDs, and carries only logical IDs", () => {
    expect(only(plan(registry, { query: "temp observations" })).call.fields).toEqual([
      "station",
      "temperature",
    ]);
    const byPath = only(plan(registry, { query: "wind observations" }));
    expect(byPath.call.fields).toEqual(["station", "wind_speed"]);
    expect(JSON.stringify(byPath.call)).not.toContain('"speed"');
    const nested = single(
      endpoint("get_user", {
        fields: [
          field("user_id", { identifier: true, path: ["user", "id"], ...text }),
          field("display_name", { path: ["user", "profile", "name"], ...text }),
          field("city", { path: ["user", "profile", "address", "city"], ...text }),
          field("repo_count", { path: ["stats", "repos"] }),
        ],
      }),
    );
    const { call, why } = only(plan(nested, { query: "user profile name" }));
    expect(call.fields).toEqual(["user_id", "display_name"]);
    expect(why.droppedFields).toEqual([{ field: "city", reason: "weak-match-dominated-by:display_name" }]);
  });

  it("selects requested fields and semantic IDs and reports coverage", () => {
    const p = plan(registry, {
      query: "observations",
      fields: ["Temp"],
      semanticIds: ["wx:relative_humidity", "wx:visibility"],
    });
    const { call, why } = only(p);
    expect(call.fields).toEqual(["station", "temperature", "humidity"]);
    expect(why.fieldReasons.temperature).toEqual(["requested:field:Temp"]);
    expect(why.fieldReasons.humidity).toEqual(["requested:semanticId:wx:relative_humidity"]);
    expect(p.coverage).toEqual({
      required: ["field:Temp", "semanticId:wx:relative_humidity", "semanticId:wx:visibility"],
      covered: ["field:Temp", "semanticId:wx:relative_humidity"],
      uncovered: ["semanticId:wx:visibility"],
    });
  });

  it("narrows by requested units and by declared qualifiers", () => {
    const temps = single(
      endpoint("obs", {
        fields: [
          field("id", { identifier: true, ...text }),
          field("temperature_c", { unit: "degC", aliases: ["temperature"] }),
          field("temperature_k", { unit: "K", aliases: ["temperature"] }),
          field("wind_speed_10m", { unit: "m/s", qualifiers: { height: "10m" } }),
          field("wind_speed_100m", { unit: "m/s", qualifiers: { height: "100m" } }),
          field("humidity", { unit: "%" }),
        ],
      }),
    );
    const byUnit = only(plan(temps, { query: "temperature and humidity", units: ["K", "%"] }));
    expect(byUnit.call.fields).toEqual(["id", "temperature_k", "humidity"]);
    expect(byUnit.why.droppedFields).toEqual([{ field: "temperature_c", reason: "unit-not-requested" }]);
    expect(byUnit.why.fieldReasons.temperature_k).toEqual(["matched:temperatur", "unit:K"]);
    const byQualifier = only(plan(temps, { query: "wind speed at 10m" }));
    expect(byQualifier.call.fields).toEqual(["id", "wind_speed_10m"]);
    expect(byQualifier.why.droppedFields).toEqual([
      { field: "wind_speed_100m", reason: "narrowed-by-qualifier:wind_speed_10m" },
    ]);
    // Without a qualifier in the request both heights stay (recall before pruning).
    expect(only(plan(temps, { query: "wind speed" })).call.fields).toEqual([
      "id",
      "wind_speed_10m",
      "wind_speed_100m",
    ]);
  });

  it("never selects overlapping paths (an ancestor covers its descendants)", () => {
    const overlapping = single(
      endpoint("get_user", {
        fields: [
          field("user_name", { path: ["user", "name"], ...text }),
          field("user", { path: ["user"], schema: { type: "object" }, datatype: "object" }),
          field("score"),
        ],
      }),
    );
    const { call, why } = only(plan(overlapping, { query: "get user" }));
    expect(call.fields).toEqual(["user"]);
    expect(why.droppedFields).toEqual([{ field: "user_name", reason: "covered-by:user" }]);
    const all = only(plan(overlapping, { query: "get" }));
    expect(all.why.fieldSelection).toBe("ambiguous-intent-kept-all");
    expect(all.call.fields).toEqual(["user", "score"]);
  });

  it("omits fields for an endpoint that declares none", () => {
    const bare = single(endpoint("ping", { description: "Ping the service" }));
    const { call, why } = only(plan(bare, { query: "ping" }));
    expect(call.fields).toBeUndefined();
    expect(why.fieldSelection).toBe("no-declared-fields");
  });
});
