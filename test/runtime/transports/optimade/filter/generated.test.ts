/** Generated filters (fast-check): printing round-trips every grammatical tree, and any text parses or is refused with a position. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FilterNode } from "../../../../../runtime/transports/optimade/filter/ast.js";
import { FilterSyntaxError } from "../../../../../runtime/transports/optimade/filter/errors.js";
import { formatFilter } from "../../../../../runtime/transports/optimade/filter/format.js";
import { parseFilter } from "../../../../../runtime/transports/optimade/filter/parser.js";
import { shape } from "./helpers.js";

describe("generated filters", () => {
  type Plain = Record<string, unknown>;
  const identifier = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const property = fc
    .array(identifier, { minLength: 1, maxLength: 3 })
    .map((path): Plain => ({ kind: "property", path, name: path.join(".") }));
  const text = fc
    .string({
      unit: fc.constantFrom("a", "Z", " ", '"', "\\", "é", "\n", "(", ":", ",", "'", "∂"),
      maxLength: 8,
    })
    .map((value): Plain => ({ kind: "string", value }));
  const number = fc
    .constantFrom("0", "42", "-7", "+.1e8", "1.", ".5", "6.03e23", "-1.2E-3")
    .map((raw): Plain => ({ kind: "number", value: Number(raw), raw }));
  const boolean = fc.boolean().map((value): Plain => ({ kind: "boolean", value }));
  const ordered = fc.oneof(property, text, number);
  const value = fc.oneof(property, text, number, boolean);
  const relational = fc.constantFrom("<", "<=", ">", ">=");
  const equality = fc.constantFrom("=", "!=");
  const fuzzyOp = fc.constantFrom("CONTAINS", "STARTS WITH", "ENDS WITH");
  const rhs = fc.oneof(fc.record({ op: equality, value }), fc.record({ op: relational, value: ordered }));
  const test = fc.oneof(
    rhs.map((r): Plain => ({ kind: "compare", ...r })),
    fc.record({ op: fuzzyOp, value: fc.oneof(text, property) }).map((r): Plain => ({ kind: "fuzzy", ...r })),
  );
  const comparison = fc.oneof(
    fc
      .record({ left: property, rhs })
      .map(({ left, rhs: r }): Plain => ({ kind: "compare", left, op: r.op, right: r.value })),
    fc
      .record({ left: fc.oneof(text, number), rhs })
      .map(({ left, rhs: r }): Plain => ({ kind: "compare", left, op: r.op, right: r.value })),
    fc
      .record({ left: boolean, op: equality, right: value })
      .map((r): Plain => ({ kind: "compare", left: r.left, op: r.op, right: r.right })),
    fc
      .record({ property, op: fuzzyOp, value: fc.oneof(text, property) })
      .map((r): Plain => ({ kind: "fuzzy", ...r })),
    fc
      .record({ property, op: fc.constantFrom("IS KNOWN", "IS UNKNOWN") })
      .map((r): Plain => ({ kind: "known", ...r })),
    fc
      .record({ property, op: fc.oneof(equality, relational), value })
      .map((r): Plain => ({ kind: "length", ...r })),
    property.map((p): Plain => ({ kind: "property", property: p })),
    fc.integer({ min: 1, max: 3 }).chain((arity) =>
      fc
        .record({
          properties: fc.array(property, { minLength: arity, maxLength: arity }),
          op: fc.constantFrom("HAS", "HAS ALL", "HAS ANY", "HAS ONLY"),
          tuples: fc.array(fc.array(test, { minLength: arity, maxLength: arity }), {
            minLength: 1,
            maxLength: 3,
          }),
        })
        .map(
          ({ properties, op, tuples }): Plain => ({
            kind: "has",
            properties,
            op,
            values: op === "HAS" ? tuples.slice(0, 1) : tuples,
          }),
        ),
    ),
  );
  const { node } = fc.letrec<{ node: Plain }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth: 4 },
      comparison,
      tie("node").map((operand): Plain => ({ kind: "not", operand })),
      fc
        .array(tie("node"), { minLength: 2, maxLength: 3 })
        .map((operands): Plain => ({ kind: "and", operands })),
      fc
        .array(tie("node"), { minLength: 2, maxLength: 3 })
        .map((operands): Plain => ({ kind: "or", operands })),
    ),
  }));

  it("prints every grammatical tree to text that parses back to it", () => {
    fc.assert(
      fc.property(node, (tree) => {
        const text = formatFilter(tree as unknown as FilterNode);
        expect(shape(parseFilter(text))).toEqual(tree);
        expect(shape(parseFilter(formatFilter(tree as unknown as FilterNode, { braces: "full" })))).toEqual(
          tree,
        );
      }),
      { numRuns: 400 },
    );
  });

  it("either parses arbitrary text or refuses it with a positioned INVALID_FILTER", () => {
    const unit = fc.constantFrom(
      ..."ab_0.9 +-=!<>(),:\"\\'ANDORNOTHASALLANYONLYISKNOWNLENGTHCONTAINSSTARTSWITH\u000b\u0000é".split(""),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        try {
          parseFilter(text);
        } catch (error) {
          expect(error).toBeInstanceOf(FilterSyntaxError);
          const { position } = (error as FilterSyntaxError).details;
          expect(position).toBeGreaterThanOrEqual(0);
          expect(position).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
