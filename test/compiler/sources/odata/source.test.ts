/**
 * The OData source adapter on the CSDL SAP CAP generates for bookshop.cds (`cds.compile.to.edmx`, flat
 * and structured), and on small CSDL documents written here for constructs CAP does not emit
 * (enumeration and type definitions, aliases, inheritance, overloads): endpoints per entity set,
 * singleton and operation, EDM types as JSON Schema, the compatibility report, and byte-identical
 * output for identical input.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile, resolveSource } from "../../../../compiler/compile/compile.js";
import type { SourceContext, SourceResult } from "../../../../compiler/sources/types.js";
import { isSchemaRouterError } from "../../../../runtime/errors/errors.js";
import type { EndpointSpec } from "../../../../runtime/model/specs.js";
import { bookshopEdmx } from "../../../fixtures/odata/bookshop-edmx.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

const project = tempProject("odata-source");
const context: SourceContext = { cwd: project.dir, env: {}, allowInsecureHttp: false };
const ROOT = "https://books.example/odata/v4/catalog";
let flat: SourceResult;
let structured: SourceResult;

const resolveFile = (name: string, text: string, serviceRoot: string | null = ROOT) => {
  writeInto(project, name, text);
  return resolveSource(
    "shop",
    { kind: "odata", location: name, ...(serviceRoot !== null ? { serviceRoot } : {}) },
    context,
  );
};
const endpoint = (result: SourceResult, name: string): EndpointSpec =>
  result.tools[0]!.endpoints.find((candidate) => candidate.name === name)!;

beforeAll(async () => {
  flat = await resolveFile("flat.xml", await bookshopEdmx("flat"));
  structured = await resolveFile("structured.xml", await bookshopEdmx("structured"));
}, 60_000);

describe("the CSDL CAP generates", () => {
  it("is one tool bound to the service root, with endpoints per entity set, singleton and operation", () => {
    const tool = flat.tools[0]!;
    expect(tool).toMatchObject({
      name: "shop",
      accessMode: "odata",
      remote: true,
      execution: { transport: "odata", serviceRoot: ROOT },
    });
    expect(
      tool.endpoints.map((e) => [e.name, e.effect, e.execution.kind === "odata" && e.execution.operation]),
    ).toEqual([
      ["Books_list", "read", "list"],
      ["Books_get", "read", "get"],
      ["Authors_list", "read", "list"],
      ["Authors_get", "read", "get"],
      ["Shop_get", "read", "singleton"],
      ["booksByGenre", "read", "function"],
      ["stockOf", "read", "function"],
      ["order", "write", "action"],
      ["Books_related", "read", "function"],
      ["Books_restock", "write", "action"],
    ]);
    expect(endpoint(flat, "Books_restock").execution).toEqual({
      kind: "odata",
      operation: "action",
      resource: "Books",
      keys: [{ name: "ID", type: "Edm.Int32" }],
      parameters: [{ name: "quantity", type: "Edm.Int32" }],
      bound: "bookshop.CatalogService.restock",
      filterable: [],
      collection: false,
    });
  });

  it("maps EDM types: Int64 and Decimal as strings, dates and GUIDs pattern-checked, collections as arrays", () => {
    const books = flat.defs["bookshop.CatalogService.Books"] as { properties: Record<string, unknown> };
    expect(books.properties).toMatchObject({
      ID: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
      title: { type: ["string", "null"], maxLength: 100 },
      price: { type: ["string", "null"], pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" },
      isbn13: { type: ["string", "null"], pattern: "^-?[0-9]{1,19}$" },
      updatedAt: { type: ["string", "null"], pattern: expect.stringContaining("T[0-9]{2}") },
      uuid: { type: ["string", "null"], pattern: expect.stringContaining("[0-9a-fA-F]{8}") },
      tags: { type: "array", items: { type: "string" } },
    });
    const structuredBooks = structured.defs["bookshop.CatalogService.Books"] as {
      properties: Record<string, unknown>;
    };
    expect(structuredBooks.properties.size).toEqual({
      anyOf: [{ $ref: "#/$defs/bookshop.CatalogService.bookshop_Dimensions" }, { type: "null" }],
    });
    expect(structured.defs["bookshop.CatalogService.bookshop_Dimensions"]).toMatchObject({
      type: "object",
      properties: { height: expect.any(Object), width: expect.any(Object) },
    });
  });

  it("gives lists typed structured filters, orderby over sortable properties, and a $select projection", () => {
    const list = endpoint(flat, "Books_list");
    expect(list.parameters.map((p) => [p.name, p.wireName])).toEqual([
      ["filter", "$filter"],
      ["orderby", "$orderby"],
      ["top", "$top"],
      ["skip", "$skip"],
      ["count", "$count"],
    ]);
    const filter = list.parameters[0]!.schema as {
      properties: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(Object.keys(filter.properties)).not.toContain("tags");
    expect(Object.keys(filter.properties.title!.properties)).toEqual([
      "eq",
      "ne",
      "in",
      "gt",
      "ge",
      "lt",
      "le",
      "contains",
      "startswith",
      "endswith",
    ]);
    expect(Object.keys(filter.properties.uuid!.properties)).toEqual(["eq", "ne", "in"]);
    expect(list.serverProjection).toMatchObject({ parameter: "$select", always: ["ID"], separator: "," });
    expect(list.fields.find((field) => field.id === "ID")).toMatchObject({
      path: ["value", "*", "ID"],
      identifier: true,
    });
    expect(list.parameters.some((p) => p.name === "select" || p.wireName === "$select")).toBe(false);
  });

  it("reports navigation properties (not expanded) in the compatibility report", () => {
    expect(flat.compatibility).toContainEqual(
      expect.objectContaining({
        construct: "navigation-property",
        level: "partial",
        message: expect.stringContaining(
          "bookshop.CatalogService.Books/author (to bookshop.CatalogService.Authors) is not expanded",
        ),
      }),
    );
  });

  it("digests the CSDL bytes and compiles byte-identical artifacts and lock twice", async () => {
    const again = await resolveFile("flat-again.xml", await bookshopEdmx("flat"));
    expect(again.documentDigest).toBe(flat.documentDigest);
    const twice = tempProject("odata-deterministic");
    writeInto(twice, "shop.xml", await bookshopEdmx("flat"));
    twice.write({ sources: { shop: { kind: "odata", location: "shop.xml", serviceRoot: ROOT } } });
    await compile({ config: twice.configPath, env: {} });
    const first = [
      readFileSync(twice.lockfile, "utf8"),
      readFileSync(join(twice.outDir, "artifacts", "shop.json"), "utf8"),
    ];
    await compile({ config: twice.configPath, env: {} });
    expect([
      readFileSync(twice.lockfile, "utf8"),
      readFileSync(join(twice.outDir, "artifacts", "shop.json"), "utf8"),
    ]).toEqual(first);
  });
});

const doc = (schema: string, alias = "") =>
  `<?xml version="1.0" encoding="utf-8"?><edmx:Edmx Version="4.01" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices><Schema Namespace="Demo.Model"${alias} xmlns="http://docs.oasis-open.org/odata/ns/edm">${schema}</Schema></edmx:DataServices></edmx:Edmx>`;

describe("constructs written here (CAP does not emit them)", () => {
  it("maps enumerations, type definitions, aliases and inherited keys", async () => {
    const result = await resolveFile(
      "enums.xml",
      doc(
        '<EnumType Name="Color"><Member Name="Red"/><Member Name="Blue"/></EnumType>' +
          '<TypeDefinition Name="Sku" UnderlyingType="Edm.String"/>' +
          '<EntityType Name="Base" Abstract="true"><Key><PropertyRef Name="id"/></Key><Property Name="id" Type="Edm.Guid" Nullable="false"/></EntityType>' +
          '<EntityType Name="Item" BaseType="D.Base"><Property Name="color" Type="D.Color"/><Property Name="sku" Type="D.Sku" Nullable="false"/><Property Name="weight" Type="Edm.Double"/><Property Name="due" Type="Edm.Duration"/><Property Name="blob" Type="Edm.Stream"/></EntityType>' +
          '<EntityContainer Name="C"><EntitySet Name="Items" EntityType="D.Item"/></EntityContainer>',
        ' Alias="D"',
      ),
    );
    const item = result.defs["Demo.Model.Item"] as { properties: Record<string, unknown> };
    expect(item.properties).toEqual({
      id: expect.objectContaining({ type: "string" }),
      color: { anyOf: [{ type: "string", enum: ["Red", "Blue"] }, { type: "null" }] },
      sku: { type: "string" },
      weight: {
        anyOf: [{ anyOf: [{ type: "number" }, { enum: ["INF", "-INF", "NaN"] }] }, { type: "null" }],
      },
      due: expect.objectContaining({ type: ["string", "null"] }),
    });
    expect(result.compatibility).toContainEqual(
      expect.objectContaining({
        construct: "property-type",
        level: "unsupported",
        message: expect.stringContaining("Edm.Stream"),
      }),
    );
    const get = endpoint(result, "Items_get");
    expect(get.execution).toMatchObject({ keys: [{ name: "id", type: "Edm.Guid" }] });
    expect(endpoint(result, "Items_list").execution).toMatchObject({
      filterable: expect.arrayContaining([
        { name: "color", type: "Demo.Model.Color" },
        { name: "sku", type: "Edm.String" },
      ]),
    });
  });

  it("reports overloads, unknown entity types and functions without URL literal forms, and compiles the rest", async () => {
    const result = await resolveFile(
      "partial.xml",
      doc(
        '<ComplexType Name="Point"><Property Name="x" Type="Edm.Int32"/></ComplexType>' +
          '<Function Name="near"><Parameter Name="p" Type="Demo.Model.Point"/><ReturnType Type="Edm.Int32"/></Function>' +
          '<Function Name="twice"><Parameter Name="n" Type="Edm.Int32"/><ReturnType Type="Edm.Int32"/></Function>' +
          '<Function Name="twice"><Parameter Name="s" Type="Edm.String"/><ReturnType Type="Edm.String"/></Function>' +
          '<EntityContainer Name="C"><EntitySet Name="Ghosts" EntityType="Demo.Model.Missing"/><FunctionImport Name="near" Function="Demo.Model.near"/><FunctionImport Name="twice" Function="Demo.Model.twice"/></EntityContainer>',
      ),
    );
    expect(result.tools[0]!.endpoints.map((e) => e.name)).toEqual(["twice"]);
    expect(
      result.compatibility.map((issue) => [issue.construct, issue.level, issue.leftOut ?? null]),
    ).toEqual(
      expect.arrayContaining([
        ["entity-set", "unsupported", "/EntityContainer/EntitySet/Ghosts"],
        ["operation-parameter", "unsupported", "/EntityContainer/FunctionImport/near"],
        ["operation-overload", "partial", null],
      ]),
    );
  });

  it("refuses a CSDL file without a serviceRoot, a non-CSDL root and an OData v2 document", async () => {
    const errors = await Promise.all(
      [
        resolveFile("no-root.xml", doc('<EntityContainer Name="C"/>'), null),
        resolveFile("html.xml", "<html><body/></html>"),
        resolveFile("v2.xml", doc('<EntityContainer Name="C"/>').replace('Version="4.01"', 'Version="1.0"')),
      ].map((promise) =>
        promise.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    expect(errors.map((error) => (isSchemaRouterError(error) ? error.code : String(error)))).toEqual([
      "ODATA_SERVICE_ROOT_MISSING",
      "SOURCE_INVALID",
      "SOURCE_INVALID",
    ]);
    expect((errors[0] as Error).message).toContain('add "serviceRoot": "https://…/service" to the source');
  });
});
