/** Filter evaluation over an entry, with and without declared property types. */
import { describe, expect, it } from "vitest";
import { FilterQueryError } from "../../../../../runtime/transports/optimade/filter/errors.js";
import { evaluateFilter } from "../../../../../runtime/transports/optimade/filter/eval.js";
import { parseFilter } from "../../../../../runtime/transports/optimade/filter/parser.js";
import { filterTypesOfDefinitions } from "../../../../../runtime/transports/optimade/filter/types.js";

describe("evaluation", () => {
  const types = filterTypesOfDefinitions({
    last_modified: { "x-optimade-type": "timestamp", type: ["string", "null"] },
    nelements: { type: "integer" },
  });
  const entry = {
    id: "quartz",
    type: "structures",
    elements: ["O", "Si"],
    nelements: 2,
    elements_ratios: [0.6667, 0.3333],
    chemical_formula_descriptive: "SiO2",
    chemical_formula_hill: null,
    nsites: 9,
    last_modified: "2023-05-01T10:00:00Z",
    is_magnetic: false,
    is_stable: true,
    empty: [],
    species: [
      { name: "Si", chemical_symbols: ["Si"], concentration: [1] },
      { name: "O", chemical_symbols: ["O"], concentration: [1] },
    ],
    references: [
      { id: "r1", target: { year: "2021", authors: [{ lastname: "Andersen" }, { lastname: "Armiento" }] } },
      { id: "r2", target: { year: "1963", authors: [{ lastname: "Wyckoff" }] } },
    ],
  };
  const run = (text: string): boolean => evaluateFilter(parseFilter(text), entry, { properties: types });

  it.each<[string, boolean]>([
    ["nelements = 2", true],
    ["nelements != 2", false],
    ["2 = nelements", true],
    ["5 < nsites AND nsites <= 9", true],
    ["5 < 7", true],
    ["7 < 5", false],
    ['chemical_formula_hill = "X"', false],
    ['chemical_formula_hill != "X"', false],
    ['NOT chemical_formula_hill = "X"', true],
    ["chemical_formula_hill IS UNKNOWN", true],
    ["NOT chemical_formula_hill IS KNOWN", true],
    ["chemical_formula_hill IS KNOWN", false],
    ["missing_everywhere IS UNKNOWN", true],
    ["nelements IS KNOWN AND empty IS KNOWN", true],
    ["chemical_formula_hill", false],
    ["nelements", true],
    ["is_stable AND NOT is_magnetic", true],
    ["is_magnetic", false],
    ["is_magnetic = FALSE AND is_stable != FALSE", true],
    ["TRUE = is_stable", true],
    ['elements HAS "Si"', true],
    ['elements HAS "Ge"', false],
    ['elements HAS ALL "Si", "O"', true],
    ['elements HAS ALL "Si", "Ge"', false],
    ['elements HAS ANY "Ge", "O"', true],
    ['elements HAS ONLY "O", "Si", "Ge"', true],
    ['elements HAS ONLY "Si"', false],
    ['empty HAS ONLY "Si"', true],
    ['empty HAS ANY "Si"', false],
    ['elements HAS < "P"', true],
    ['elements HAS ALL < "P", > "P"', true],
    ['elements HAS STARTS "S"', true],
    ["elements LENGTH 2", true],
    ["elements LENGTH > 2", false],
    ["elements LENGTH nelements", true],
    ['elements:elements_ratios HAS "Si":<0.5', true],
    ['elements:elements_ratios HAS "Si":>0.5', false],
    ['elements:elements_ratios HAS ALL "O":>0.5, "Si":<0.5', true],
    ['elements:elements_ratios HAS ONLY "O":>0.5, "Si":<0.5', true],
    ['elements:elements_ratios HAS ONLY "O":>0.5', false],
    ['elements:elements_ratios HAS ANY "Ge":>0, "Si":>0.3', true],
    ["elements_ratios:elements_ratios HAS >0.3:<0.4", true],
    ['chemical_formula_descriptive STARTS WITH "Si"', true],
    ['chemical_formula_descriptive ENDS "O2"', true],
    ['chemical_formula_descriptive CONTAINS "iO"', true],
    ['chemical_formula_descriptive CONTAINS "io"', false],
    ["chemical_formula_descriptive CONTAINS chemical_formula_hill", false],
    ['id = "quartz" AND type = "structures"', true],
    ['last_modified > "2023-01-01T00:00:00Z"', true],
    ['last_modified < "2023-05-01T12:00:00+03:00"', false],
    ['last_modified = "2023-05-01T12:00:00+02:00"', true],
    ['species.name HAS "Si"', true],
    ['species.chemical_symbols HAS ALL "Si", "O"', true],
    ["species.concentration HAS ONLY 1", true],
    ['references.id HAS "r2"', true],
    ['references.target.year = "1963"', true],
    ['references.target.year = "2024"', false],
    ['references.target.authors.lastname HAS ALL "Andersen", "Wyckoff"', true],
    ["references.target.authors.lastname LENGTH 3", true],
    ['references.target.doi = "10.1/x"', false],
    ['NOT a > b OR nelements = 2 AND chemical_formula_descriptive = "SiO2"', true],
  ])("%s → %s", (text, want) => {
    expect(run(text)).toBe(want);
  });

  it.each<[string, string, number]>([
    ['nelements = "2"', "UNSUPPORTED_FILTER", 501],
    ['elements = "Si"', "UNSUPPORTED_FILTER", 501],
    ["nelements HAS 2", "UNSUPPORTED_FILTER", 501],
    ["nelements LENGTH 1", "UNSUPPORTED_FILTER", 501],
    ["elements HAS 3", "UNSUPPORTED_FILTER", 501],
    ["is_stable < is_magnetic", "UNSUPPORTED_FILTER", 501],
    ['"a" < "b"', "UNSUPPORTED_FILTER", 501],
    ["chemical_formula_descriptive CONTAINS nelements", "UNSUPPORTED_FILTER", 501],
    ['last_modified > "yesterday"', "INVALID_FILTER_VALUE", 400],
  ])("%s is refused with %s", (text, code, status) => {
    let caught: unknown;
    try {
      run(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterQueryError);
    expect((caught as FilterQueryError).code).toBe(code);
    expect((caught as FilterQueryError).status).toBe(status);
  });

  it("compares timestamps as text when no types are declared", () => {
    expect(evaluateFilter(parseFilter('last_modified > "2023"'), entry)).toBe(true);
  });
});
