/** The filter parser: precedence, AST shapes and spans, syntax errors with positions and hints, nesting limits. */
import { describe, expect, it } from "vitest";
import type { FilterNode } from "../../../../../runtime/transports/optimade/filter/ast.js";
import { formatFilter } from "../../../../../runtime/transports/optimade/filter/format.js";
import {
  MAX_FILTER_NESTING,
  parseFilter,
  propertiesOf,
} from "../../../../../runtime/transports/optimade/filter/parser.js";
import { shape, syntaxError } from "./helpers.js";

describe("precedence", () => {
  it.each([
    ['NOT a > b OR c = 100 AND f = "C2 H6"', '(NOT (a > b)) OR ((c = 100) AND (f = "C2 H6"))'],
    ["a >= 0 AND NOT b < c OR c = 0", "((a >= 0) AND (NOT (b < c))) OR (c = 0)"],
    ["a = 1 OR b = 2 OR c = 3 AND d = 4", "(a = 1) OR (b = 2) OR ((c = 3) AND (d = 4))"],
    ["NOT (a = 1 OR b = 2) AND c", "(NOT ((a = 1) OR (b = 2))) AND (c)"],
    ["(a OR b) AND (c OR d)", "((a) OR (b)) AND ((c) OR (d))"],
  ])("%s", (text, braced) => {
    const node = parseFilter(text);
    expect(formatFilter(node, { braces: "full" })).toBe(braced);
    // The spec's fully braced forms mean the same tree.
    expect(shape(parseFilter(braced))).toEqual(shape(node));
  });

  it("keeps parentheses that change the meaning", () => {
    expect(formatFilter(parseFilter("a AND (b OR c)"))).toBe("a AND (b OR c)");
    expect(formatFilter(parseFilter("NOT (NOT a)"))).toBe("NOT (NOT a)");
    expect(formatFilter(parseFilter("(a AND b) AND c"))).toBe("(a AND b) AND c");
  });
});

describe("AST", () => {
  const property = (...names: string[]) => ({ kind: "property", path: names, name: names.join(".") });
  const str = (value: string) => ({ kind: "string", value });
  const num = (raw: string) => ({ kind: "number", value: Number(raw), raw });
  const eq = (value: unknown, op = "=") => ({ kind: "compare", op, value });

  it.each<[string, unknown]>([
    ["5 < _exmpl_a", { kind: "compare", left: num("5"), op: "<", right: property("_exmpl_a") }],
    ["nelements>=+.1e8", { kind: "compare", left: property("nelements"), op: ">=", right: num("+.1e8") }],
    [
      "TRUE != flag",
      { kind: "compare", left: { kind: "boolean", value: true }, op: "!=", right: property("flag") },
    ],
    ['x = "a\\"b\\\\c"', { kind: "compare", left: property("x"), op: "=", right: str('a"b\\c') }],
    [
      'a.b.c STARTS "x"',
      { kind: "fuzzy", property: property("a", "b", "c"), op: "STARTS WITH", value: str("x") },
    ],
    ["a ENDS WITH b", { kind: "fuzzy", property: property("a"), op: "ENDS WITH", value: property("b") }],
    ["a IS UNKNOWN", { kind: "known", property: property("a"), op: "IS UNKNOWN" }],
    ["a LENGTH 3", { kind: "length", property: property("a"), op: "=", value: num("3") }],
    ["a LENGTH >= 3", { kind: "length", property: property("a"), op: ">=", value: num("3") }],
    ['a HAS "x"', { kind: "has", properties: [property("a")], op: "HAS", values: [[eq(str("x"))]] }],
    ["a HAS < 3", { kind: "has", properties: [property("a")], op: "HAS", values: [[eq(num("3"), "<")]] }],
    [
      'a HAS ANY "x", CONTAINS "y"',
      {
        kind: "has",
        properties: [property("a")],
        op: "HAS ANY",
        values: [[eq(str("x"))], [{ kind: "fuzzy", op: "CONTAINS", value: str("y") }]],
      },
    ],
    [
      'a:b HAS ALL "x":>1, "y":2',
      {
        kind: "has",
        properties: [property("a"), property("b")],
        op: "HAS ALL",
        values: [
          [eq(str("x")), eq(num("1"), ">")],
          [eq(str("y")), eq(num("2"))],
        ],
      },
    ],
    ["flag", { kind: "property", property: property("flag") }],
    ["NOT flag", { kind: "not", operand: { kind: "property", property: property("flag") } }],
  ])("%s", (text, want) => {
    expect(shape(parseFilter(text))).toEqual(want);
  });

  it("flattens AND/OR chains and records spans", () => {
    const node = parseFilter("a=1 AND b=2 AND c=3 OR d=4");
    expect(node.kind).toBe("or");
    const or = node as Extract<FilterNode, { kind: "or" }>;
    expect(or.operands[0]?.kind === "and" && or.operands[0].operands.length).toBe(3);
    expect(or.span).toEqual({ start: 0, end: 26 });
    expect(or.operands[1]?.span).toEqual({ start: 23, end: 26 });
  });

  it("lists referenced properties once, in order", () => {
    expect(
      propertiesOf(
        parseFilter('elements:_x_counts HAS "H":n AND NOT (a.b > c OR nelements LENGTH 2) AND a.b'),
      ),
    ).toEqual(["elements", "_x_counts", "n", "a.b", "c", "nelements"]);
  });

  it("quotes strings when printing", () => {
    expect(formatFilter(parseFilter('x = "say \\"hi\\" \\\\ bye"'))).toBe('x = "say \\"hi\\" \\\\ bye"');
  });
});

describe("syntax errors", () => {
  it.each<[string, number, string, string | undefined]>([
    ['elements HAS IS "H"', 13, 'keyword "IS"', "a string"],
    ["chemical_formula = '42'", 19, 'character "\'"', undefined],
    ['( ( chemical_formula = "Al" )', 29, "end of filter", '")"'],
    ['a = "Al" and b = "A"', 9, 'property name "and"', "AND"],
    ["nelements <> 42", 11, '">"', "a number"],
    ["NOT NOT a", 4, 'keyword "NOT"', '"("'],
    ['elements HAS "H":6', 16, '":"', "end of filter"],
    ['elements:elements:element_counts HAS "H":6', 42, "end of filter", '":"'],
    ["chemical_formula CONTAINS 42", 26, "number 42", "a string"],
    ["a < TRUE", 4, 'keyword "TRUE"', "a number"],
    ["TRUE < a", 5, '"<"', '"=" or "!="'],
    ['x = "abc', 8, "end of filter", '"\\""'],
    ['x = "a\\qb"', 6, '"\\q"', '"\\\\"'],
    ["x = +-1", 5, 'character "-"', "digits"],
    ["x = 1.e", 7, "end of filter", "exponent digits"],
    ["x = 1 ANDS y", 9, '"S"', undefined],
    ["BadLuck = 1", 0, '"BadLuck"', undefined],
    ["a ! b", 3, 'character " "', '"="'],
    ["", 0, "end of filter", "a property name"],
  ])("%s at %d", (text, position, found, expected) => {
    const error = syntaxError(text);
    expect(error.details.position).toBe(position);
    expect(error.details.found).toBe(found);
    if (expected !== undefined) expect(error.details.expected).toContain(expected);
    const { line, column } = error.details;
    expect([line, column]).toEqual([1, position + 1]);
    // The message shows the filter with a caret under the offending position.
    const frame = error.message.split("\n");
    expect(frame[1]).toBe(`  ${text}`);
    expect(frame[2]).toBe(`  ${" ".repeat(position)}^`);
  });

  it("reports line and column in multi-line filters", () => {
    const error = syntaxError("a = 1 AND\n  b = = 2");
    expect([error.details.line, error.details.column, error.details.position]).toEqual([2, 7, 16]);
    expect(error.message).toContain("\n    b = = 2\n        ^");
  });

  it("gives hints for common mistakes", () => {
    expect(syntaxError("a = 1 and b = 2").message).toContain('write "AND"');
    expect(syntaxError("a UNKNOWN").message).toContain('"IS UNKNOWN"');
    expect(syntaxError("x = 'a'").message).toContain("double quotes");
  });

  it("refuses nesting deeper than the limit without exhausting the stack", () => {
    const deep = (n: number) => `${"(".repeat(n)}a${")".repeat(n)}`;
    expect(() => parseFilter(deep(MAX_FILTER_NESTING))).not.toThrow();
    expect(syntaxError(deep(MAX_FILTER_NESTING + 1)).message).toContain("nested deeper");
    expect(syntaxError(deep(100_000)).details.position).toBe(MAX_FILTER_NESTING);
  });

  it("accepts keywords and values without separating spaces", () => {
    expect(formatFilter(parseFilter('aCONTAINS"x"ANDNOTb=1ORc:dHASALL1:2'))).toBe(
      'a CONTAINS "x" AND NOT b = 1 OR c:d HAS ALL 1:2',
    );
  });
});
