/** Evidence requirements: candidates that cannot meet them are not planned, and the plan says why. */
import { describe, expect, it } from "vitest";
import { plan } from "../../../runtime/planner/index.js";
import type { RetrievalRequest } from "../../../runtime/retrieval/index.js";
import { endpoint, field, registryOf, tool } from "../../fixtures/catalogs.js";
import { only, text } from "./helpers.js";

describe("evidence", () => {
  const withProvenance = endpoint("obs", {
    description: "Air temperature observations",
    fields: [
      field("id", { identifier: true, ...text }),
      field("temperature", { unit: "degC", provenance: "met", license: "OGL" }),
    ],
  });
  const bare = endpoint("obs", {
    description: "Air temperature observations observations",
    fields: [field("id", { identifier: true, ...text }), field("temperature"), field("label", text)],
  });
  const registry = registryOf([tool("good", [withProvenance]), tool("bad", [bare])], {
    good: "mcp",
    bad: "openapi",
  });

  it("does not plan a candidate that cannot meet the requirements, and says why", () => {
    const loose = plan(registry, { query: "temperature observations" });
    expect(loose.calls[0]!.tool).toBe("bad");
    const strict = plan(registry, {
      query: "temperature observations",
      evidence: { provenance: true, units: true },
    });
    expect(strict.calls.map((c) => c.tool)).toEqual(["good"]);
    expect(strict.rejected).toEqual([
      { route: "bad.obs", reason: "evidence", missing: ["temperature:provenance", "temperature:unit"] },
    ]);
    expect(strict.explanations[0]!.evidence).toEqual({
      satisfied: true,
      sourceType: "mcp",
      missing: [],
      fields: [
        { field: "id", exempt: "identifier", missing: [] },
        { field: "temperature", provenance: "met", license: "OGL", unit: "degC", missing: [] },
      ],
    });
  });

  it.each<[string, NonNullable<RetrievalRequest["evidence"]>, string[]]>([
    ["license list", { license: ["CC0"] }, []],
    ["source type", { sourceTypes: ["optimade"] }, []],
    ["matching license", { license: ["OGL"] }, ["good"]],
    ["matching source type", { sourceTypes: ["mcp"] }, ["good"]],
  ])("%s", (_name, evidence, tools) => {
    const p = plan(registry, { query: "temperature observations", evidence });
    expect(p.calls.map((c) => c.tool)).toEqual(tools);
    if (tools.length === 0) expect(p.reason).toBe("no-eligible-candidate");
  });

  it("exempts identifiers and non-numeric fields from the unit requirement", () => {
    const p = plan(registry, { query: "label observations", evidence: { units: true } });
    const { why } = only(p);
    expect(why.route).toBe("bad.obs");
    expect(why.evidence.fields.map((f) => [f.field, f.missing])).toEqual([
      ["id", []],
      ["label", []],
    ]);
  });
});
