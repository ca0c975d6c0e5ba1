/**
 * How the runtime's ajv (runtime/boundary/validation.ts `createAjv`) treats each JSON Schema keyword,
 * for the compile-time example check's quick path (docs/sources/openapi-overlays.md, "Examples
 * checked at compile"). test/compiler/sources/quick-validation/ajv-keywords.test.ts holds these lists
 * equal to the keywords the ajv instance itself knows, so an ajv upgrade that adds one fails there.
 */

/** Keywords ajv knows and evaluates (its `RULES.all`). */
export const AJV_RULE_KEYWORDS: readonly string[] = [
  "$comment",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "$ref",
  "additionalProperties",
  "allOf",
  "anyOf",
  "const",
  "contains",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "else",
  "enum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "id",
  "if",
  "items",
  "maxContains",
  "maxItems",
  "maxLength",
  "maxProperties",
  "maximum",
  "minContains",
  "minItems",
  "minLength",
  "minProperties",
  "minimum",
  "multipleOf",
  "not",
  "nullable",
  "oneOf",
  "pattern",
  "patternProperties",
  "prefixItems",
  "properties",
  "propertyNames",
  "required",
  "then",
  "type",
  "unevaluatedItems",
  "unevaluatedProperties",
  "uniqueItems",
];

/** Keywords ajv knows but runs no code for (the rest of its `RULES.keywords`). */
export const AJV_SILENT_KEYWORDS: readonly string[] = [
  "$async",
  "$defs",
  "$id",
  "$schema",
  "$vocabulary",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "default",
  "definitions",
  "deprecated",
  "description",
  "examples",
  "readOnly",
  "title",
  "writeOnly",
];

/**
 * The keywords the quick path evaluates itself, exactly as ajv does. A schema using any other keyword
 * ajv knows (and not in IGNORED) is left to ajv.
 */
export const EVALUATED: ReadonlySet<string> = new Set([
  "$ref",
  "additionalProperties",
  "allOf",
  "anyOf",
  "const",
  "else",
  "enum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "if",
  "items",
  "maxItems",
  "maxLength",
  "maxProperties",
  "maximum",
  "minItems",
  "minLength",
  "minProperties",
  "minimum",
  "multipleOf",
  "not",
  "oneOf",
  "pattern",
  "properties",
  "required",
  "then",
  "type",
  "uniqueItems",
]);

/**
 * Keywords ajv knows whose presence changes no result here: annotations, `$comment` (ajv's `$comment`
 * option is off) and `$defs` / `definitions` (compiled only where a `$ref` reaches them).
 */
export const IGNORED: ReadonlySet<string> = new Set([
  "$comment",
  "$defs",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "default",
  "definitions",
  "deprecated",
  "description",
  "examples",
  "readOnly",
  "title",
  "writeOnly",
]);

/**
 * The typed rule groups of ajv's `RULES.rules` (the JSON type each group applies to) and the keywords
 * in each. A keyword of no group (`$ref`, `enum`, `allOf`, …) runs before every group.
 */
export const AJV_TYPED_GROUPS: Readonly<Record<"number" | "string" | "array" | "object", readonly string[]>> =
  {
    number: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf", "format"],
    string: ["maxLength", "minLength", "pattern", "format"],
    array: [
      "maxItems",
      "minItems",
      "prefixItems",
      "items",
      "contains",
      "maxContains",
      "minContains",
      "unevaluatedItems",
      "uniqueItems",
    ],
    object: [
      "maxProperties",
      "minProperties",
      "required",
      "propertyNames",
      "additionalProperties",
      "dependencies",
      "properties",
      "patternProperties",
      "dependentRequired",
      "dependentSchemas",
      "unevaluatedProperties",
    ],
  };

const KNOWN: ReadonlySet<string> = new Set([...AJV_RULE_KEYWORDS, ...AJV_SILENT_KEYWORDS]);

/** Whether ajv knows `keyword` at all (with `strict: false` it ignores every keyword it does not know). */
export function ajvKnows(keyword: string): boolean {
  return KNOWN.has(keyword);
}
