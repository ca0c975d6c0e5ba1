/**
 * The keywords whose values are subschemas (JSON Schema 2020-12 Core §10, plus draft-04's
 * `definitions`/`additionalItems` that documents still carry). Spec: OpenAPI 3.0.3 §4.7.24 (its
 * subset: allOf, oneOf, anyOf, not, items, properties, additionalProperties).
 */

/** Keywords holding a map of name → subschema. */
export const SUBSCHEMA_MAPS: readonly string[] = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];

/** Keywords holding a list of subschemas. */
export const SUBSCHEMA_LISTS: readonly string[] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/** Keywords holding one subschema. */
export const SUBSCHEMA_SINGLE: readonly string[] = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];
