/** Precompiled fallbacks: read-only alternatives, same provider first, each with its own contract and evidence. */
import { describe, expect, it } from "vitest";
import type { EndpointSpec } from "../../../runtime/model/specs.js";
import { plan } from "../../../runtime/planner/index.js";
import { createRetriever, type RetrievalRequest } from "../../../runtime/retrieval/index.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";
import { text } from "./helpers.js";

describe("fallbacks", () => {
  const fields = (names: [string, string, string], extra: Record<string, object> = {}) => [
    field(names[0], { identifier: true, ...text }),
    field(names[1], {
      unit: "degC",
      semanticId: "wx:air_temperature",
      provenance: "p",
      ...(extra.temp ?? {}),
    }),
    field(names[2], { unit: "%", semanticId: "wx:relative_humidity", provenance: "p", ...(extra.rh ?? {}) }),
  ];
  const obs = (extra: Partial<EndpointSpec> = {}) =>
    endpoint("observations", {
      description: "weather observations",
      parameters: [param("city", true)],
      ...extra,
    });
  const tools = [
    tool("meteo_rest", [obs({ fields: fields(["station", "temperature", "humidity"]) })], {
      provider: "meteo",
      accessMode: "rest",
    }),
    // Cross-provider and a better need match (aliases too) and a smaller name: still listed after same-provider.
    tool(
      "aa_other",
      [
        obs({
          fields: fields(["site", "air_temp", "rh"], {
            temp: { aliases: ["temperature"] },
            rh: { aliases: ["humidity"] },
          }),
        }),
      ],
      { provider: "other", accessMode: "rest" },
    ),
    tool(
      "meteo_mcp",
      [
        obs({
          fields: [
            field("station_ref", { identifier: true, ...text }),
            field("temp", { aliases: ["temperature"], unit: "degC" }),
            field("rel_humidity", { unit: "%", semanticId: "wx:relative_humidity" }),
            field("pressure", { unit: "hPa" }),
          ],
        }),
      ],
      { provider: "meteo", accessMode: "mcp" },
    ),
    tool("kelvin", [obs({ fields: fields(["s", "t", "h"], { temp: { unit: "K" } }) })], {
      provider: "other",
    }),
    tool("writer", [obs({ effect: "write", fields: fields(["s", "t", "h"]) })], { provider: "meteo" }),
    tool(
      "needs_station",
      [obs({ parameters: [param("city", true), param("station", true)], fields: fields(["s", "t", "h"]) })],
      { provider: "other" },
    ),
    tool("partial", [obs({ fields: [field("t", { unit: "degC", semanticId: "wx:air_temperature" })] })], {
      provider: "meteo",
    }),
  ];
  const registry = registryOf(tools);
  const request: RetrievalRequest = {
    query: "meteo rest temperature and humidity",
    semanticIds: ["wx:air_temperature"],
    arguments: { city: "Oslo" },
    fallbacks: true,
  };

  it("precompiles read-only alternatives, same provider first, each with its own contract", () => {
    const p = plan(registry, request, { maxFallbacks: 5 });
    const call = p.calls[0]!;
    expect(call.tool).toBe("meteo_rest");
    expect(call.fields).toEqual(["station", "temperature", "humidity"]);
    const routes = call.fallbacks!;
    expect(routes.map((r) => r.tool)).toEqual(["meteo_mcp", "aa_other"]);
    const [same, cross] = routes as [
      NonNullable<typeof call.fallbacks>[0],
      NonNullable<typeof call.fallbacks>[0],
    ];
    expect(same).toMatchObject({
      sameProvider: true,
      accessMode: "mcp",
      effect: "read",
      arguments: { city: "Oslo" },
      fields: ["station_ref", "temp", "rel_humidity"],
      fieldMap: { temperature: "temp", humidity: "rel_humidity" },
      endpointFingerprint: registry.get("meteo_mcp")!.endpointFingerprints.get("observations"),
      toolFingerprint: registry.get("meteo_mcp")!.fingerprint,
    });
    expect(same.fields).not.toContain("pressure");
    expect(cross).toMatchObject({
      sameProvider: false,
      fields: ["site", "air_temp", "rh"],
      toolFingerprint: registry.get("aa_other")!.fingerprint,
    });
    expect(p.explanations[0]!.excludedFallbacks).toEqual([
      { route: "needs_station.observations", reason: "missing-required-argument:station" },
    ]);
  });

  it("respects maxFallbacks and is absent unless asked for", () => {
    expect(plan(registry, request, { maxFallbacks: 1 }).calls[0]!.fallbacks!.map((r) => r.tool)).toEqual([
      "meteo_mcp",
    ]);
    expect(plan(registry, { ...request, fallbacks: false }).calls[0]!.fallbacks).toBeUndefined();
  });

  it("never plans fallbacks for a call that is not read-only", () => {
    const p = plan(registry, { ...request, effects: ["write"] });
    expect(p.calls[0]!.tool).toBe("writer");
    expect(p.calls[0]!.fallbacks).toBeUndefined();
  });

  it("keeps the evidence contract for every alternative", () => {
    const p = plan(registry, { ...request, evidence: { provenance: true } }, { maxFallbacks: 5 });
    expect(p.calls[0]!.fallbacks!.map((r) => r.tool)).toEqual(["aa_other"]);
    expect(p.calls[0]!.fallbacks![0]!.evidence.satisfied).toBe(true);
    expect(p.explanations[0]!.excludedFallbacks).toContainEqual({
      route: "meteo_mcp.observations",
      reason: "evidence:temp:provenance,rel_humidity:provenance",
    });
  });

  it("ranks the cross-provider alternative higher on its own, so the ordering above is provider-first", () => {
    const need = createRetriever(registry).rankedEntries(
      {
        query: "",
        fields: ["temperature", "humidity"],
        semanticIds: ["wx:air_temperature", "wx:relative_humidity"],
        effects: ["read"],
      },
      { exactOnly: true },
    );
    const routes = need.map((ranked) => ranked.entry.tool.name);
    expect(routes.indexOf("aa_other")).toBeLessThan(routes.indexOf("meteo_mcp"));
  });
});
