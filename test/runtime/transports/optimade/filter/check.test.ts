/** checkFilter: property definitions (v1.1 and v1.2), unknown and foreign properties, type errors with positions. */
import { describe, expect, it } from "vitest";
import { checkFilter } from "../../../../../runtime/transports/optimade/filter/check.js";
import { FilterQueryError } from "../../../../../runtime/transports/optimade/filter/errors.js";
import { parseFilter } from "../../../../../runtime/transports/optimade/filter/parser.js";
import {
  filterTypeOfDefinition,
  filterTypesOfDefinitions,
} from "../../../../../runtime/transports/optimade/filter/types.js";

describe("checkFilter", () => {
  const properties = filterTypesOfDefinitions({
    nelements: { type: "integer", description: "v1.1 form", sortable: true },
    elements: { "x-optimade-type": "list", type: ["array", "null"], items: { "x-optimade-type": "string" } },
    last_modified: { "x-optimade-type": "timestamp", type: ["string", "null"] },
    chemical_formula_descriptive: { "x-optimade-type": "string", type: ["string", "null"] },
    species: {
      "x-optimade-type": "list",
      items: { "x-optimade-type": "dictionary", properties: { name: { "x-optimade-type": "string" } } },
    },
    _fixture_band_gap: { "x-optimade-type": "float" },
    flag: { type: "boolean" },
  });
  const schema = { properties, providerPrefix: "fixture", knownPrefixes: ["exmpl"] };
  const check = (text: string) => checkFilter(parseFilter(text), schema, { source: text });

  it("converts v1.1 and v1.2 definitions", () => {
    expect(properties.nelements).toEqual({ type: "integer" });
    expect(properties.elements).toEqual({ type: "list", items: { type: "string" } });
    expect(properties.species?.items?.properties?.name).toEqual({ type: "string" });
    expect(filterTypeOfDefinition({ type: "unknown" })).toBeUndefined();
  });

  it.each([
    ['nelements > 1 AND elements HAS ALL "Si" AND _fixture_band_gap < 2.5'],
    ['last_modified >= "2024-01-31T12:00:00.5+01:00"'],
    ['species.name HAS "Si" AND species.name = "Si"'],
    ["elements LENGTH > 1 AND flag AND NOT flag = FALSE"],
    ['_exmpl_band_gap < 2 OR chemical_formula_descriptive STARTS "Si"'],
    ["5 < 7"],
  ])("accepts %s", (text) => {
    expect(check(text).warnings).toEqual([]);
  });

  it("treats other providers' properties as unknown, warning for unrecognized prefixes", () => {
    const { warnings } = check("_other_band_gap < 2 OR _other_band_gap > 3 OR _exmpl_x = 1");
    expect(warnings).toEqual([
      {
        property: "_other_band_gap",
        prefix: "other",
        detail:
          'The prefix "_other_" of "_other_band_gap" is not recognized; the property was treated as unknown (null).',
      },
    ]);
  });

  it.each<[string, string, number, number]>([
    ["nsites = 4", "UNKNOWN_FILTER_PROPERTY", 400, 0],
    ['elements HAS "Si" AND _fixture_volume > 1', "UNKNOWN_FILTER_PROPERTY", 400, 22],
    ['nelements = "2"', "UNSUPPORTED_FILTER", 501, 0],
    ['"a" = "a"', "UNSUPPORTED_FILTER", 501, 0],
    ["nelements < 1e999", "UNSUPPORTED_FILTER", 501, 12],
    ["nelements > 1e-999", "UNSUPPORTED_FILTER", 501, 12],
    ['elements = "Si"', "UNSUPPORTED_FILTER", 501, 0],
    ["elements HAS 3", "UNSUPPORTED_FILTER", 501, 13],
    ['nelements HAS "x"', "UNSUPPORTED_FILTER", 501, 0],
    ['elements LENGTH "2"', "UNSUPPORTED_FILTER", 501, 16],
    ['_fixture_band_gap CONTAINS "1"', "UNSUPPORTED_FILTER", 501, 0],
    ["chemical_formula_descriptive CONTAINS nelements", "UNSUPPORTED_FILTER", 501, 38],
    ["flag < 1", "UNSUPPORTED_FILTER", 501, 0],
    ["last_modified > 2024", "UNSUPPORTED_FILTER", 501, 0],
    ['last_modified > "2024-13-01T00:00:00Z"', "INVALID_FILTER_VALUE", 400, 16],
    ['"2024-01-01T00:00:00Z" < last_modified AND last_modified < "soon"', "INVALID_FILTER_VALUE", 400, 59],
    ["species = 1", "UNSUPPORTED_FILTER", 501, 0],
  ])("%s is refused with %s (%d) at %d", (text, code, status, position) => {
    let caught: unknown;
    try {
      check(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterQueryError);
    const error = caught as FilterQueryError;
    expect([error.code, error.status, error.details.position]).toEqual([code, status, position]);
    expect(error.message).toContain(`\n  ${text}\n  ${" ".repeat(position)}^`);
  });
});
