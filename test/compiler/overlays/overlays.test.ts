/**
 * Trusted overlays (result contracts): validated against the output schema, fingerprinted, and unable
 * to change execution identity or validation shape.
 */
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { copyInto, tempProject } from "../../helpers/project.js";

async function compileWith(overlays: unknown) {
  const p = tempProject("overlay");
  copyInto(p, "examples/petstore/openapi.yaml", "openapi.yaml");
  p.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml", overlays } } });
  return compile({ config: p.configPath });
}

const field = (extra: Record<string, unknown>) => ({
  endpoints: { getPetById: { fields: [{ id: "x", path: ["name"], ...extra }] } },
});

describe("overlays", () => {
  it.each([
    ["an unknown endpoint", { endpoints: { nope: { fields: [] } } }, "OVERLAY_INVALID"],
    ["a path the output schema does not declare", field({ path: ["owner", "nickname"] }), "OVERLAY_INVALID"],
    ["a unit on a string field", field({ unit: "kg" }), "OVERLAY_INVALID"],
    [
      "normalization without a unit",
      {
        endpoints: {
          getPetById: {
            fields: [{ id: "w", path: ["weightKg"], normalization: { canonicalUnit: "g", scale: 1000 } }],
          },
        },
      },
      "OVERLAY_INVALID",
    ],
    [
      "a wildcard path without resultPath",
      { endpoints: { listPets: { fields: [{ id: "n", path: ["*", "name"] }] } } },
      "OVERLAY_INVALID",
    ],
    [
      "a trailing wildcard path",
      { endpoints: { listPets: { fields: [{ id: "n", path: ["*"], resultPath: ["*"] }] } } },
      "OVERLAY_INVALID",
    ],
    [
      "a wildcard over a non-array",
      {
        endpoints: {
          getPetById: { fields: [{ id: "n", path: ["owner", "*"], resultPath: ["owner", "*"] }] },
        },
      },
      "OVERLAY_INVALID",
    ],
    [
      "a server projection on an undeclared parameter",
      { endpoints: { getPetById: { serverProjection: { parameter: "fields", selectors: {} } } } },
      "OVERLAY_INVALID",
    ],
    ["an attempt to change parameters", { endpoints: { getPetById: { parameters: [] } } }, "CONFIG_INVALID"],
    [
      "an attempt to change the execution",
      { endpoints: { getPetById: { execution: { path: "/admin" } } } },
      "CONFIG_INVALID",
    ],
  ])("refuses %s", async (_name, overlays, code) => {
    await expect(compileWith(overlays)).rejects.toMatchObject({ code });
  });

  it("is fingerprinted but leaves parameters, schemas and execution untouched", async () => {
    const plain = await compileWith(undefined);
    const overlaid = await compileWith({
      endpoints: {
        getPetById: {
          fields: [{ id: "weight", path: ["weightKg"], unit: "kg", semanticId: "schema:weight" }],
        },
      },
    });
    const pick = (r: typeof plain) => r.sources[0]!.tools[0]!;
    const before = pick(plain).tool.endpoints.find((e) => e.name === "getPetById")!;
    const after = pick(overlaid).tool.endpoints.find((e) => e.name === "getPetById")!;
    expect(after.parameters).toEqual(before.parameters);
    expect(after.inputSchema).toEqual(before.inputSchema);
    expect(after.outputSchema).toEqual(before.outputSchema);
    expect(after.execution).toEqual(before.execution);
    expect(after.fields.find((f) => f.id === "weight")).toMatchObject({
      unit: "kg",
      semanticId: "schema:weight",
      overlay: true,
    });
    expect(after.fields.some((f) => f.id === "weightKg")).toBe(false);
    expect(pick(overlaid).endpointFingerprints.get("getPetById")).not.toBe(
      pick(plain).endpointFingerprints.get("getPetById"),
    );
    expect(pick(overlaid).endpointFingerprints.get("listPets")).toBe(
      pick(plain).endpointFingerprints.get("listPets"),
    );
  });
});
