/**
 * `findUnits` skips a unit pattern whose needle the text lacks (docs/runtime/retrieval-and-planning.md,
 * "Vocabularies"); this differential test holds it to running every pattern (`findUnitsExhaustive`) over
 * texts made of every recognised spelling in random case, slot words, numbers, hyphens and non-ASCII
 * letters that Unicode case folding matches (`ſ`, the Kelvin sign, `µ`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findUnits,
  findUnitsExhaustive,
  unitSpellings,
} from "../../../runtime/retrieval/vocabulary/units.js";

const spellings = unitSpellings();

const recased = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(""));

const piece = fc.oneof(
  fc.constantFrom(...spellings),
  fc.constantFrom(...spellings).chain(recased),
  fc.constantFrom("in", "per", "as", "of", "into", "at", "temperature", "speed", "price", "K-pop", "2m"),
  fc.integer({ min: 0, max: 999 }).map(String),
  fc.constantFrom("ſ", "\u212A", "µ", "μ", "°", "é", "-", "/", "€", "$"),
  fc.string({ maxLength: 4 }),
);

const text = fc
  .array(fc.tuple(piece, fc.constantFrom(" ", "", "-", "  ")), { maxLength: 8 })
  .map((parts) => parts.map(([word, gap]) => word + gap).join(""));

describe("findUnits prefilter", () => {
  it("finds exactly what running every pattern finds", () => {
    fc.assert(
      fc.property(text, (query) => {
        expect(findUnits(query)).toEqual(findUnitsExhaustive(query));
      }),
      { numRuns: 3000 },
    );
  });

  it("still finds spellings whose first letters fold to ASCII only under Unicode rules", () => {
    // U+212A KELVIN SIGN folds to "k" under /iu: the text is not ASCII, so nothing is skipped.
    expect(findUnits("temperature in \u212Aelvin")).toEqual(
      findUnitsExhaustive("temperature in \u212Aelvin"),
    );
    expect(findUnits("temperature in \u212Aelvin").map((m) => m.code)).toEqual(["K"]);
  });
});
