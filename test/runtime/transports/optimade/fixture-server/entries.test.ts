/** The fixture provider's entries: response_fields, include, single entries, unknown entries and endpoints. */
import { describe, expect, it } from "vitest";
import { dig, expectError, fixtureProvider, get, type Json, query, records } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

describe("response_fields, include and single entries", () => {
  it("returns only the requested fields, plus id and type", async () => {
    const { body } = await v1(
      `/structures${query({ response_fields: "nelements,chemical_formula_hill", page_limit: "3" })}`,
    );
    for (const entry of records(body.data)) {
      expect(Object.keys(entry.attributes as Json)).toEqual(["nelements", "chemical_formula_hill"]);
      expect(entry.type).toBe("structures");
      expect(typeof entry.id).toBe("string");
    }
    expect(dig(body, "data", 0, "attributes", "chemical_formula_hill")).toBeNull();
    const foreign = await v1(`/structures${query({ response_fields: "_other_x", page_limit: "1" })}`);
    expect(dig(foreign.body, "data", 0, "attributes")).toEqual({ _other_x: null });
    expect(dig(foreign.body, "meta", "warnings")).toHaveLength(1);
    expectError(await v1(`/structures${query({ response_fields: "volume" })}`), 400, "Bad Request");
  });

  it("returns a single entry with its included references", async () => {
    const { status, body } = await v1("/structures/sio2-alpha-quartz?response_fields=nsites");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      type: "structures",
      id: "sio2-alpha-quartz",
      attributes: { nsites: 9 },
    });
    expect(dig(body, "data", "relationships", "references", "data")).toEqual([
      { type: "references", id: "levien1980" },
      { type: "references", id: "wyckoff1963" },
    ]);
    expect(records(body.included).map((entry) => entry.id)).toEqual(["levien1980", "wyckoff1963"]);
    expect(body.meta).toMatchObject({ data_returned: 1, more_data_available: false });
    expect(dig(body, "meta", "query", "representation")).toBe(
      "/structures/sio2-alpha-quartz?response_fields=nsites",
    );
    const reference = await v1("/references/levien1980?ignored_parameter=1");
    expect(dig(reference.body, "data", "attributes", "journal")).toBe("American Mineralogist");
    expect(dig(reference.body, "data", "relationships", "structures", "data")).toEqual([
      { type: "structures", id: "sio2-alpha-quartz" },
    ]);
  });

  it("includes references by default, and only what include asks for", async () => {
    const byDefault = await v1(`/structures${query({ filter: 'id = "si-diamond"' })}`);
    expect(records(byDefault.body.included).map((entry) => entry.id)).toEqual(["wyckoff1963"]);
    const none = await v1(`/structures${query({ filter: 'id = "si-diamond"', include: "" })}`);
    expect(none.body.included).toEqual([]);
    expectError(await v1(`/structures${query({ include: "calculations" })}`), 400, "Bad Request");
  });

  it("answers 404 for unknown entries and endpoints, 501 for dimension_slices", async () => {
    expect(expectError(await v1("/structures/unobtainium"), 404, "Not Found").detail).toContain(
      "unobtainium",
    );
    expectError(await v1("/references/nope"), 404, "Not Found");
    expectError(await v1("/calculations"), 404, "Not Found");
    expectError(await v1("/info/calculations"), 404, "Not Found");
    expectError(await v1("/structures/si-diamond/extra"), 404, "Not Found");
    expectError(await v1("/structures/si-diamond?dimension_slices=dim_sites[0:1:1]"), 501, "Not Implemented");
    expectError(
      await get(`${provider.server.versionedBaseUrl}/structures`, { method: "POST" }),
      405,
      "Method Not Allowed",
    );
  });
});
