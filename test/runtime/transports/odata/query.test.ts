/**
 * OData literals and request URLs (docs/sources/odata.md "Filters"): every EDM type's literal form,
 * quote doubling, values with no literal form refused (ODATA_ARGUMENT_INVALID), `$filter` joined in
 * declared property order, key predicates and function parameters, and `$select` from the plan.
 */
import { describe, expect, it } from "vitest";
import { isSchemaRouterError } from "../../../../runtime/errors/errors.js";
import type { EndpointSpec, FieldSpec, ODataExecution } from "../../../../runtime/model/specs.js";
import { literalOf } from "../../../../runtime/transports/odata/literals.js";
import { filterExpression, requestUrl, resourcePath } from "../../../../runtime/transports/odata/query.js";

// biome-ignore format: one case per line
const LITERALS: readonly [string, { given: [string, unknown]; want: string | undefined }][] = [
  ["string", { given: ["Edm.String", "Jane"], want: "'Jane'" }],
  ["string with quotes", { given: ["Edm.String", "O'Brien''s"], want: "'O''Brien''''s'" }],
  ["string that tries to close the literal", { given: ["Edm.String", "x' or 1 eq 1 or 'a"], want: "'x'' or 1 eq 1 or ''a'" }],
  ["null", { given: ["Edm.String", null], want: "null" }],
  ["boolean", { given: ["Edm.Boolean", false], want: "false" }],
  ["boolean as a string", { given: ["Edm.Boolean", "true"], want: undefined }],
  ["Int32", { given: ["Edm.Int32", -42], want: "-42" }],
  ["Int32 out of range", { given: ["Edm.Int32", 2 ** 31], want: undefined }],
  ["Byte below zero", { given: ["Edm.Byte", -1], want: undefined }],
  ["Int32 fraction", { given: ["Edm.Int32", 1.5], want: undefined }],
  ["Int64 beyond 2^53 as a string", { given: ["Edm.Int64", "9223372036854775807"], want: "9223372036854775807" }],
  ["Int64 with an expression", { given: ["Edm.Int64", "1 or 1 eq 1"], want: undefined }],
  ["Decimal", { given: ["Edm.Decimal", "12.34"], want: "12.34" }],
  ["Decimal as a number", { given: ["Edm.Decimal", 12.34], want: undefined }],
  ["Double", { given: ["Edm.Double", 1e21], want: "1e+21" }],
  ["Double INF", { given: ["Edm.Double", "INF"], want: "INF" }],
  ["Double NaN number", { given: ["Edm.Double", Number.NaN], want: undefined }],
  ["Date", { given: ["Edm.Date", "2026-12-01"], want: "2026-12-01" }],
  ["Date with time", { given: ["Edm.Date", "2026-12-01T00:00:00Z"], want: undefined }],
  ["DateTimeOffset", { given: ["Edm.DateTimeOffset", "2026-12-01T10:00:00+09:00"], want: "2026-12-01T10:00:00+09:00" }],
  ["TimeOfDay", { given: ["Edm.TimeOfDay", "23:59:59.5"], want: "23:59:59.5" }],
  ["Duration", { given: ["Edm.Duration", "P1DT2H"], want: "duration'P1DT2H'" }],
  ["empty Duration", { given: ["Edm.Duration", "P"], want: undefined }],
  ["Guid", { given: ["Edm.Guid", "6f9619ff-8b86-d011-b42d-00c04fc964ff"], want: "6f9619ff-8b86-d011-b42d-00c04fc964ff" }],
  ["Guid with a payload", { given: ["Edm.Guid", "6f9619ff-8b86-d011-b42d-00c04fc964ff)"], want: undefined }],
  ["enumeration member", { given: ["Demo.Color", "Red"], want: "Demo.Color'Red'" }],
  ["enumeration with a quote", { given: ["Demo.Color", "Red'"], want: undefined }],
  ["unknown primitive", { given: ["Edm.Stream", "x"], want: undefined }],
];

describe("literals", () => {
  it.each(LITERALS)("%s", (_name, { given, want }) => {
    expect(literalOf(...given)).toBe(want);
  });
});

const LIST: ODataExecution = {
  kind: "odata",
  operation: "list",
  resource: "Books",
  keys: [],
  parameters: [],
  filterable: [
    { name: "title", type: "Edm.String" },
    { name: "stock", type: "Edm.Int32" },
  ],
  collection: true,
};

function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isSchemaRouterError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("$filter", () => {
  it("joins comparisons in declared property order, then operator order", () => {
    expect(
      filterExpression("t.e", LIST.filterable, {
        stock: { le: 5, gt: 1 },
        title: { startswith: "A", in: ["A'1", "B"], ne: null },
      }),
    ).toBe("title ne null and title in ('A''1','B') and startswith(title,'A') and stock gt 1 and stock le 5");
  });

  it("refuses an undeclared property, an unknown operator and a string function on a number", () => {
    const cases = [
      { secret: { eq: 1 } },
      { stock: { like: 1 } },
      { stock: { contains: "1" } },
      { stock: { eq: "1) or (true" } },
    ].map((filter) => refusalOf(() => filterExpression("t.e", LIST.filterable, filter)));
    expect(cases.map((error) => [error.code, (error.details as { argument: string }).argument])).toEqual([
      ["ODATA_ARGUMENT_INVALID", "filter.secret"],
      ["ODATA_ARGUMENT_INVALID", "filter.stock.like"],
      ["ODATA_ARGUMENT_INVALID", "filter.stock.contains"],
      ["ODATA_ARGUMENT_INVALID", "filter.stock.eq"],
    ]);
    expect(cases[3]!.message).toBe(
      "t.e: filter.stock.eq cannot be written as an Edm.Int32 literal; pass a value of that type.",
    );
  });
});

describe("resource paths and query strings", () => {
  it("writes single and compound keys, bound operations and inline function parameters", () => {
    const get: ODataExecution = {
      ...LIST,
      operation: "get",
      keys: [{ name: "ID", type: "Edm.Int32" }],
      filterable: [],
      collection: false,
    };
    expect(resourcePath("t.e", get, { ID: 7 })).toBe("/Books(7)");
    const compound: ODataExecution = {
      ...get,
      keys: [
        { name: "year", type: "Edm.Int32" },
        { name: "code", type: "Edm.String" },
      ],
    };
    expect(resourcePath("t.e", compound, { year: 2026, code: "a/b c'd" })).toBe(
      "/Books(year=2026,code='a%2Fb%20c''d')",
    );
    const bound: ODataExecution = {
      ...get,
      operation: "function",
      bound: "NS.related",
      parameters: [{ name: "depth", type: "Edm.Int32" }],
    };
    expect(resourcePath("t.e", bound, { ID: 7, depth: 2 })).toBe("/Books(7)/NS.related(depth=2)");
    expect(refusalOf(() => resourcePath("t.e", get, {})).code).toBe("MISSING_REQUIRED_ARGUMENT");
  });

  it("encodes spaces as %20 and sends $select for the planned fields with the key first", () => {
    const endpoint = {
      serverProjection: {
        parameter: "$select",
        selectors: { title: "title", stock: "stock" },
        always: ["ID"],
        separator: ",",
      },
    } as unknown as EndpointSpec;
    const fields = [{ id: "stock", path: ["value", "*", "stock"] }] as FieldSpec[];
    const url = requestUrl(
      "t.e",
      new URL("http://127.0.0.1:1/svc"),
      endpoint,
      LIST,
      { filter: { title: { eq: "a b+c" } }, top: 5, count: true },
      fields,
    );
    expect(url.href).toBe(
      "http://127.0.0.1:1/svc/Books?$filter=title%20eq%20%27a%20b%2Bc%27&$top=5&$count=true&$select=ID%2Cstock",
    );
    const overlay = [{ id: "extra", path: ["value", "*", "x_extra"] }] as FieldSpec[];
    expect(requestUrl("t.e", new URL("http://127.0.0.1:1/svc"), endpoint, LIST, {}, overlay).search).toBe("");
  });
});
