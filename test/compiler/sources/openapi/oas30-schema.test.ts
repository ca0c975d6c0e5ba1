/**
 * OAS 3.0 Schema Object conversion (compiler/sources/openapi/oas30-schema.ts) against the library it
 * replaced (@openapi-contrib/openapi-schema-to-json-schema 5.1.0 plus the compiler's two fixes, see
 * test/helpers/oas30-oracle.ts): identical output, key order included, for generated OAS 3.0 schemas
 * and for every schema in GitHub's REST description. Each intentional difference has its own test
 * under "differences from the library".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertOas30Schema } from "../../../../compiler/sources/openapi/oas30-schema.js";
import { libraryConvert30 } from "../../../helpers/oas30-oracle.js";
import { REPO_ROOT } from "../../../helpers/project.js";

type Node = Record<string, unknown>;

const NAMES = ["id", "name", "tags", "0", "a b", "$ref", "x-kind"];
const REFS = ["#/components/schemas/Pet", "#/components/schemas/a~1b", "other.yaml#/Pet"];
const FORMATS = ["int32", "int64", "float", "double", "byte", "binary", "date", "date-time", "uuid"];
const TYPES = ["string", "number", "integer", "boolean", "object", "array"];
const NOT_OBJECTS = [null, true, false, 1, "s"];
const plainObjects = { noNullPrototype: true } as const;

const bound = fc.oneof(
  fc.integer({ min: -1_000, max: 1_000 }),
  fc.constantFrom(0, 2 ** 40, -(2 ** 40), 2 ** 64, -(2 ** 64), null, "5"),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const data = fc.jsonValue({ maxDepth: 2 });
/** Schemas both sides leave as written (x-patternProperties values, which the library never converts). */
const plain = fc.record(
  {
    type: fc.constantFrom("string", "integer"),
    minLength: fc.nat(5),
    description: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: [], ...plainObjects },
);

const { node: oas30Node } = fc.letrec<{ schema: Node; ref: Node; node: Node }>((tie) => {
  const child = fc.oneof(tie("schema"), fc.constantFrom(...NOT_OBJECTS));
  const list = fc.array(child, { maxLength: 3 });
  const record = fc.record(
    {
      type: fc.constantFrom(...TYPES),
      nullable: fc.boolean(),
      format: fc.constantFrom(...FORMATS),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: fc.boolean(),
      exclusiveMaximum: fc.boolean(),
      enum: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), {
        maxLength: 3,
      }),
      pattern: fc.constant("^a"),
      properties: fc.dictionary(fc.constantFrom(...NAMES), child, { maxKeys: 3, ...plainObjects }),
      required: fc.array(fc.constantFrom(...NAMES), { maxLength: 3 }),
      items: fc.oneof(tie("schema"), fc.constant(null)),
      additionalProperties: fc.oneof(fc.boolean(), fc.constant(null), tie("schema")),
      allOf: list,
      anyOf: list,
      oneOf: list,
      not: tie("schema"),
      discriminator: fc.constant({ propertyName: "kind" }),
      readOnly: fc.boolean(),
      writeOnly: fc.boolean(),
      deprecated: fc.boolean(),
      example: data,
      default: data,
      xml: fc.constant({ name: "pet" }),
      externalDocs: fc.constant({ url: "https://example.com/docs" }),
      description: fc.string({ maxLength: 4 }),
      "x-unit": fc.constantFrom("kg", "m"),
      "x-extra": data,
      "x-patternProperties": fc.dictionary(fc.constantFrom("^a", "^b"), plain, {
        maxKeys: 2,
        ...plainObjects,
      }),
    },
    { requiredKeys: [], ...plainObjects },
  );
  return {
    schema: fc.oneof({ depthSize: "small" }, tie("ref"), tie("node")),
    ref: fc.record(
      { $ref: fc.constantFrom(...REFS), nullable: fc.boolean(), description: fc.string({ maxLength: 4 }) },
      { requiredKeys: ["$ref"], ...plainObjects },
    ),
    // Sometimes additionalProperties repeats a pattern's schema (the library then sets it to false).
    node: fc.tuple(record, fc.boolean()).map(([schema, repeat]) => {
      const patterns = Object.values((schema["x-patternProperties"] ?? {}) as Node);
      return repeat && patterns.length > 0
        ? { ...schema, additionalProperties: structuredClone(patterns[0]) }
        : schema;
    }),
  };
});

function expectSameAsLibrary(schema: Node): void {
  const before = structuredClone(schema);
  const ours = convertOas30Schema(schema);
  const theirs = libraryConvert30(schema);
  expect(ours).toStrictEqual(theirs);
  expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs)); // key order too
  expect(schema).toStrictEqual(before); // the input is not modified
}

describe("OAS 3.0 Schema Object → JSON Schema 2020-12", () => {
  it("converts the OAS 3.0 keywords as users rely on", () => {
    expect(convertOas30Schema({ type: "string", nullable: true, enum: ["a"], example: "a" })).toEqual({
      type: ["string", "null"],
      enum: ["a", null],
    });
    expect(convertOas30Schema({ nullable: true, allOf: [{ $ref: "#/components/schemas/Pet" }] })).toEqual({
      anyOf: [{ allOf: [{ $ref: "#/components/schemas/Pet" }] }, { type: "null" }],
    });
    expect(
      convertOas30Schema({ type: "integer", format: "int32", minimum: 0, exclusiveMinimum: true }),
    ).toEqual({ type: "integer", format: "int32", exclusiveMinimum: 0, maximum: 2 ** 31 - 1 });
    expect(convertOas30Schema({ type: "number", maximum: 9, exclusiveMaximum: false })).toEqual({
      type: "number",
      maximum: 9,
    });
    expect(convertOas30Schema({ type: "string", format: "byte", pattern: "^x" })).toEqual({
      type: "string",
      format: "byte",
      pattern: "^[\\w\\d+\\/=]*$",
    });
    expect(
      convertOas30Schema({
        type: "object",
        required: ["id", "gone"],
        properties: { id: { type: "string", readOnly: true, deprecated: true } },
        discriminator: { propertyName: "id" },
        "x-unit": "kg",
      }),
    ).toEqual({ type: "object", required: ["id"], properties: { id: { type: "string" } }, "x-unit": "kg" });
  });

  it("gives the library's output, key order included, for generated OAS 3.0 schemas", () => {
    fc.assert(fc.property(oas30Node, expectSameAsLibrary), { numRuns: 1_000 });
  });

  it("gives the library's output for every schema in GitHub's REST description", () => {
    const document = JSON.parse(
      readFileSync(join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8"),
    ) as Node;
    const schemas: Node[] = Object.values((document.components as Node).schemas as Node) as Node[];
    const collect = (value: unknown): void => {
      if (value === null || typeof value !== "object") return;
      for (const [key, child] of Object.entries(value)) {
        if (key === "schema" && child !== null && typeof child === "object") schemas.push(child as Node);
        else collect(child);
      }
    };
    collect(document.paths);
    collect(document.components);
    expect(schemas.length).toBeGreaterThan(2_500);
    for (const schema of schemas) expectSameAsLibrary(schema);
  });
});

describe("differences from the library", () => {
  const OUTSIDE_MAPS = ["patternProperties", "$defs", "definitions", "dependentSchemas"];
  const OUTSIDE_SINGLE = ["if", "then", "else", "contains", "propertyNames", "additionalItems"];
  const OUTSIDE_ALL = [...OUTSIDE_MAPS, "prefixItems", ...OUTSIDE_SINGLE, "unevaluatedProperties"];

  it("converts subschemas under JSON Schema keywords outside OAS 3.0 ($defs, if, prefixItems, …); the library leaves them as written", () => {
    const nested = { type: "string", nullable: true, example: "x" };
    expect(libraryConvert30({ $defs: { a: nested } })).toEqual({ $defs: { a: nested } });
    expect(convertOas30Schema({ $defs: { a: nested } })).toEqual({
      $defs: { a: { type: ["string", "null"] } },
    });
    fc.assert(
      fc.property(oas30Node, fc.constantFrom(...OUTSIDE_ALL), (schema, keyword) => {
        const [placed, expected] = OUTSIDE_MAPS.includes(keyword)
          ? [{ a: schema }, { a: libraryConvert30(schema) }]
          : keyword === "prefixItems"
            ? [[schema], [libraryConvert30(schema)]]
            : [schema, libraryConvert30(schema)];
        expect(convertOas30Schema({ type: "object", [keyword]: placed })[keyword]).toStrictEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("converts x-patternProperties' schemas (the library copies them as written), then compares them with additionalProperties", () => {
    const nested = { type: "integer", format: "int32", nullable: true };
    const input = { additionalProperties: nested, "x-patternProperties": { "^a": nested } };
    expect(libraryConvert30(input)).toEqual({
      additionalProperties: {
        type: ["integer", "null"],
        format: "int32",
        minimum: -(2 ** 31),
        maximum: 2 ** 31 - 1,
      },
      patternProperties: { "^a": nested },
    });
    expect(convertOas30Schema(input)).toEqual({
      additionalProperties: false,
      patternProperties: { "^a": libraryConvert30(nested) },
    });
    fc.assert(
      fc.property(oas30Node, (schema) => {
        const converted = convertOas30Schema({ "x-patternProperties": { "^a": schema } });
        expect(converted).toStrictEqual({ patternProperties: { "^a": libraryConvert30(schema) } });
      }),
      { numRuns: 200 },
    );
  });

  it("drops a required name without a property even when it names an Object.prototype member", () => {
    const input = { type: "object", required: ["constructor", "id"], properties: { id: {} } };
    expect(libraryConvert30(input).required).toEqual(["constructor", "id"]);
    expect(convertOas30Schema(input).required).toEqual(["id"]);
  });

  it("keeps a property named __proto__ (the library's assignment sets its map's prototype instead)", () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Node;
    expect(Object.hasOwn(libraryConvert30(input), "properties")).toBe(false);
    const properties = convertOas30Schema(input).properties as Node;
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "string" });
  });

  it("treats a format named like an Object.prototype member as unknown (the library throws a TypeError)", () => {
    for (const format of ["valueOf", "hasOwnProperty", "__proto__"]) {
      expect(() => libraryConvert30({ type: "string", format })).toThrow(TypeError);
      expect(convertOas30Schema({ type: "string", format })).toEqual({ type: "string", format });
    }
  });

  it('ignores a format that is not a string (the library reads ["int32"] as int32)', () => {
    const input = { type: "integer", format: ["int32"] };
    expect(libraryConvert30(input)).toEqual({ ...input, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 });
    expect(convertOas30Schema(input)).toEqual(input);
  });

  it("leaves an array found where one schema belongs as written (the compiler's old passes walked into it)", () => {
    const input = { allOf: [[{ nullable: true, minimum: 1, exclusiveMinimum: true }]] };
    expect(libraryConvert30(input)).toEqual({
      allOf: [[{ anyOf: [{ exclusiveMinimum: 1 }, { type: "null" }] }]],
    });
    expect(convertOas30Schema(input)).toEqual(input);
  });
});
