/**
 * Walking JSON Schema (2020-12, as artifacts store it) through its subschema keywords only, so values
 * of `enum`, `const`, `default` or `examples` (data, which may look like schemas) are never rewritten.
 */
import type { JsonSchema } from "../../../../runtime/model/specs.js";

export type SchemaNode = Readonly<Record<string, unknown>>;

/** Keywords whose value is one subschema. */
const ONE = new Set([
  "additionalProperties",
  "items",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);

export function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A copy of `schema` in which every object subschema has been passed through `visit` after its own
 * subschemas were (bottom-up). Boolean schemas are kept as they are.
 */
export function mapSchema(schema: JsonSchema, visit: (node: SchemaNode) => JsonSchema): JsonSchema {
  if (!isNode(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.has(key) && (typeof value === "boolean" || isNode(value)))
      out[key] = mapSchema(value as JsonSchema, visit);
    else if (LIST.has(key) && Array.isArray(value))
      out[key] = value.map((member) => mapSchema(member as JsonSchema, visit));
    else if (MAP.has(key) && isNode(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, mapSchema(member as JsonSchema, visit)]),
      );
    else out[key] = value;
  }
  return visit(out);
}
