/** The fixture provider's filters: the grammar's operators, relationships, foreign properties, errors with statuses. */
import { describe, expect, it } from "vitest";
import { dig, expectError, fixtureProvider, ids, query, records } from "./helpers.js";

const provider = fixtureProvider();
const { v1 } = provider;

describe("filters", () => {
  const listed = async (filter: string) => {
    const { status, body } = await v1(`/structures${query({ filter, page_limit: "50" })}`);
    expect(status).toBe(200);
    expect(dig(body, "meta", "data_returned")).toBe(records(body.data).length);
    expect(dig(body, "meta", "more_data_available")).toBe(false);
    return { ids: ids(body).sort(), body };
  };

  it.each<[string, string[]]>([
    ['elements HAS ALL "Si","O"', ["sio2-alpha-quartz"]],
    ['elements HAS "Si"', ["si-diamond", "si3n4-beta", "sic-3c", "sio2-alpha-quartz"]],
    ['elements HAS ANY "Na", "Li"', ["lif-rocksalt", "nacl-conventional", "nacl-rocksalt"]],
    ['elements HAS ONLY "Si", "O", "C"', ["si-diamond", "sic-3c", "sio2-alpha-quartz"]],
    ["elements LENGTH 1", ["al-fcc", "cu-fcc", "fe-bcc", "si-diamond"]],
    [
      "nelements = 2 AND nsites > 2",
      ["nacl-conventional", "si3n4-beta", "sio2-alpha-quartz", "tio2-rutile", "zno-wurtzite"],
    ],
    ["5 < nsites", ["nacl-conventional", "si3n4-beta", "sio2-alpha-quartz", "tio2-rutile"]],
    ['chemical_formula_descriptive STARTS "Si"', ["si-diamond", "si3n4-beta", "sic-3c", "sio2-alpha-quartz"]],
    ['chemical_formula_reduced ENDS WITH "Si"', ["si-diamond", "sic-3c", "sio2-alpha-quartz"]],
    ['chemical_formula_anonymous = "A2B"', ["sio2-alpha-quartz", "tio2-rutile"]],
    [
      "chemical_formula_hill IS KNOWN",
      ["gaas-zincblende", "lif-rocksalt", "mgo-rocksalt", "nacl-conventional", "nacl-rocksalt", "sic-3c"],
    ],
    [
      "chemical_formula_hill IS UNKNOWN AND nelements > 1",
      ["si3n4-beta", "sio2-alpha-quartz", "tio2-rutile", "zno-wurtzite"],
    ],
    ["_fixture_band_gap = 0", ["al-fcc", "cu-fcc", "fe-bcc"]],
    [
      '_fixture_band_gap > 5 AND NOT elements HAS "Na"',
      ["lif-rocksalt", "mgo-rocksalt", "sio2-alpha-quartz"],
    ],
    ["_fixture_band_gap IS UNKNOWN", ["si3n4-beta"]],
    ["NOT nelements = 1 AND _fixture_band_gap < 2", ["gaas-zincblende"]],
    // Unknown band gap: "> 2" does not match, so NOT (…) does (two-valued logic).
    ["NOT (nelements = 1 OR _fixture_band_gap > 2)", ["gaas-zincblende", "si3n4-beta"]],
    [
      'last_modified >= "2024-01-01T00:00:00Z"',
      ["lif-rocksalt", "si3n4-beta", "tio2-rutile", "zno-wurtzite"],
    ],
    ['last_modified < "2020-01-15T10:00:00+01:00"', ["si-diamond"]],
    ["space_group_it_number = 225 AND nsites = 2", ["lif-rocksalt", "mgo-rocksalt", "nacl-rocksalt"]],
    ['elements:elements_ratios HAS "Si":<0.5', ["si3n4-beta", "sio2-alpha-quartz"]],
    ['species.chemical_symbols HAS "Ti"', ["tio2-rutile"]],
    ['references.id HAS "levien1980"', ["sio2-alpha-quartz"]],
    ['references.target.authors.lastname HAS "Prewitt"', ["sio2-alpha-quartz"]],
    ['id = "cu-fcc" OR id = "fe-bcc"', ["cu-fcc", "fe-bcc"]],
    ['structure_features HAS "disorder"', []],
  ])("%s", async (filter, want) => {
    expect((await listed(filter)).ids).toEqual(want);
  });

  it("treats NOT as binding tighter than AND", async () => {
    const loose = await listed("NOT nelements = 1 AND _fixture_band_gap < 2");
    const grouped = await listed("NOT (nelements = 1 AND _fixture_band_gap < 2)");
    expect(loose.ids).toEqual(["gaas-zincblende"]);
    expect(grouped.ids).toHaveLength(10);
    expect(grouped.ids).not.toContain("si-diamond");
  });

  it("filters references by relationship targets", async () => {
    const { body } = await v1(`/references${query({ filter: 'structures.target.elements HAS "Ti"' })}`);
    expect(ids(body)).toEqual(["wyckoff1963"]);
  });

  it("treats another provider's property as unknown, with a warning", async () => {
    const { body } = await listed("_other_band_gap < 1 OR nelements = 1");
    expect(body.data).toHaveLength(4);
    expect(dig(body, "meta", "warnings")).toEqual([
      expect.objectContaining({
        type: "warning",
        code: "_fixture_unknown_property",
        detail: expect.stringContaining("_other_band_gap"),
      }),
    ]);
  });

  it.each<[string, number, string, string]>([
    ["nelements ==", 400, "Bad Request", "INVALID_FILTER"],
    ["nelements = 1 and nsites = 1", 400, "Bad Request", "INVALID_FILTER"],
    ["band_gap > 1", 400, "Bad Request", "UNKNOWN_FILTER_PROPERTY"],
    ["_fixture_volume > 1", 400, "Bad Request", "UNKNOWN_FILTER_PROPERTY"],
    ['last_modified > "2024-02-30T00:00:00Z"', 400, "Bad Request", "INVALID_FILTER_VALUE"],
    ['nelements = "2"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ['"Si" = "Si"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ["nelements > 1e400", 501, "Not Implemented", "UNSUPPORTED_FILTER"],
    ['elements = "Si"', 501, "Not Implemented", "UNSUPPORTED_FILTER"],
  ])("refuses %s with %d", async (filter, status, title, code) => {
    const error = expectError(await v1(`/structures${query({ filter })}`), status, title);
    expect(error.source).toEqual({ parameter: "filter" });
    expect(dig(error, "meta", "code")).toBe(code);
    expect(error.detail).toContain(`\n  ${filter}\n`);
  });
});
