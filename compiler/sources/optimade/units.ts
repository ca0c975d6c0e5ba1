/**
 * Units and dimensions of OPTIMADE properties (OPTIMADE v1.2 "Physical Units in Property
 * Definitions", "Compound Unit Expressions", the `x-optimade-dimensions` field; v1.1 `unit`).
 * Both definition formats give the same FieldSpec unit: symbols are written in one canonical form
 * (`angstrom`, `Å`, v1.1's `Ao` → `Å`; `dalton`, `a.m.u.` → `u`), compound expressions factor by factor.
 */

/** Unit symbols that mean the same unit, mapped to the symbol FieldSpecs carry. */
const CANONICAL_SYMBOLS: Readonly<Record<string, string>> = {
  angstrom: "Å",
  Angstrom: "Å",
  ångström: "Å",
  Å: "Å",
  "\u212b": "Å",
  Ang: "Å",
  // OPTIMADE v1.0/v1.1 write the ångström as "Ao" in `unit` (e.g. `lattice_vectors`, `cartesian_site_positions`).
  Ao: "Å",
  dalton: "u",
  Da: "u",
  u: "u",
  amu: "u",
  "a.m.u.": "u",
  atomicmassunit: "u",
  eV: "eV",
  electronvolt: "eV",
};

/** Values of `x-optimade-unit` that are not units. */
const NOT_A_UNIT = new Set(["inapplicable", "dimensionless"]);

/** The canonical form of a unit symbol or compound expression (`eV*angstrom^-1` → `eV*Å^-1`). */
export function canonicalUnit(expression: string): string {
  return expression
    .split("*")
    .map((factor) => {
      const [symbol = "", power] = factor.trim().split("^");
      const canonical = CANONICAL_SYMBOLS[symbol] ?? symbol;
      return power === undefined ? canonical : `${canonical}^${power}`;
    })
    .join("*");
}

type Definition = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Definition {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The unit of the values a v1.2 property holds: the first physical unit down its `items`
 * (a list of vectors in ångström has `x-optimade-unit: angstrom` on its innermost items).
 */
export function valueUnitOf(definition: Definition): string | undefined {
  let current: Definition | undefined = definition;
  while (current !== undefined) {
    const symbol = current["x-optimade-unit"];
    if (typeof symbol === "string" && symbol !== "" && !NOT_A_UNIT.has(symbol)) return canonicalUnit(symbol);
    current = isRecord(current.items) ? current.items : undefined;
  }
  return undefined;
}

/**
 * The dimensions of a v1.2 list property as text: names outermost first, fixed sizes in brackets
 * (`dim_lattice[3],dim_spatial[3]`; `dim_sites,dim_spatial[3]` when the outer size varies).
 */
export function dimensionsOf(definition: Definition): string | undefined {
  let current: Definition | undefined = definition;
  while (current !== undefined) {
    const dimensions = current["x-optimade-dimensions"];
    if (isRecord(dimensions) && Array.isArray(dimensions.names) && dimensions.names.length > 0) {
      const sizes = Array.isArray(dimensions.sizes) ? dimensions.sizes : [];
      return dimensions.names
        .map((name, index) => {
          const size = sizes[index];
          return typeof size === "number" && Number.isInteger(size)
            ? `${String(name)}[${size}]`
            : String(name);
        })
        .join(",");
    }
    current = isRecord(current.items) ? current.items : undefined;
  }
  return undefined;
}
