/** OPTIMADE units are the same in both property-definition formats: v1.1 `unit: "Ao"` is `Å`, like v1.2's `angstrom`. */
import { describe, expect, it } from "vitest";
import { canonicalUnit, valueUnitOf } from "../../../../compiler/sources/optimade/units.js";

describe("OPTIMADE units", () => {
  it("reads v1.1 'Ao' as the ångström, like v1.2 'angstrom'", () => {
    expect(canonicalUnit("Ao")).toBe("Å");
    expect(canonicalUnit("Ao^3")).toBe("Å^3");
    expect(valueUnitOf({ "x-optimade-unit": "angstrom" })).toBe(canonicalUnit("Ao"));
    expect(canonicalUnit("eV*Ao^-1")).toBe(canonicalUnit("eV*angstrom^-1"));
  });
});
