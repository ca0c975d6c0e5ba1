/**
 * The known reasons the bindings' types and json-schema-to-typescript's differ, each with a rewrite of
 * the schemas (applied to both sides before either emitter runs) that takes the construct away. A
 * pair's reasons are found by rewriting, never by looking at its schema: with every rewrite applied
 * the two types must agree, and a reason is listed when leaving its rewrite out makes them differ.
 */
import type { JsonSchema } from "../../../../runtime/model/specs.js";
import { isNode, type SchemaNode } from "./schemas.js";

export interface Reason {
  readonly id: string;
  /** Whose behaviour it is: a choice of the bindings, json-schema-to-typescript's, or a defect of ours. */
  readonly kind: "bindings-choice" | "json-schema-to-typescript" | "bindings-defect";
  /** What differs and why; for a choice, why the bindings keep it. */
  readonly explanation: string;
  readonly rewrite: (node: SchemaNode) => SchemaNode;
}

const COMPOSITION = ["allOf", "anyOf", "oneOf"];
const OBJECT_SHAPE = ["properties", "patternProperties", "additionalProperties"];
/** Keywords either emitter turns into a type; a schema with none of them accepts any JSON value. */
const TYPING = new Set([
  "type",
  "enum",
  "const",
  ...OBJECT_SHAPE,
  "items",
  "prefixItems",
  "additionalItems",
  ...COMPOSITION,
  "$ref",
  "discriminator",
]);

function without(node: SchemaNode, keys: readonly string[]): SchemaNode {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)));
}

function allows(node: SchemaNode, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

export const REASONS: readonly Reason[] = [
  {
    id: "discriminated-union",
    kind: "bindings-choice",
    explanation:
      '`oneOf`/`anyOf` with an OpenAPI `discriminator`: the compiler dispatches validation on the discriminator property (`if`/`then`/`else`, the branches as written in `else`) and the bindings type each mapped branch intersected with its discriminator value (`(Dog & { kind: "dog" })`), a union TypeScript narrows on; json-schema-to-typescript knows no discriminator and types the plain union. Ours is the narrower and the one a caller can switch on.',
    rewrite: (node) => {
      const alternative = node.else;
      if (node.discriminator === undefined || !isNode(alternative)) return node;
      return { ...without(node, ["discriminator", "if", "then", "else"]), ...alternative };
    },
  },
  {
    id: "array-length",
    kind: "bindings-choice",
    explanation:
      "json-schema-to-typescript turns `minItems`/`maxItems` into tuple types (`[T, ...T[]]`, or unions of tuples up to 20 items); the bindings type every array as `T[]`, so ours is wider. Lengths stay checked where they matter, by the JSON Schema validation at the execution boundary, and tuple unions would make large types for no safety at a call site.",
    rewrite: (node) => without(node, ["minItems", "maxItems"]),
  },
  {
    id: "object-next-to-composition",
    kind: "bindings-choice",
    explanation:
      '`type: "object"` without properties next to `allOf`/`anyOf`/`oneOf`: the bindings intersect the composition with that keyword\'s own type, an open object `{ [k: string]: unknown }`; json-schema-to-typescript keeps only the composition. Both accept the same JSON values, but TypeScript does not let a declared interface without an index signature (a referenced definition) be assigned to the intersection, so ours counts as narrower.',
    rewrite: (node) =>
      node.type === "object" &&
      COMPOSITION.some((key) => Array.isArray(node[key])) &&
      !OBJECT_SHAPE.some((key) => key in node)
        ? without(node, ["type"])
        : node,
  },
  {
    id: "object-without-properties",
    kind: "bindings-choice",
    explanation:
      '`type: "object"` with no properties and no `additionalProperties`: the bindings type it as JSON Schema means it, any object (`{ [k: string]: unknown }`); json-schema-to-typescript, told that an object without `additionalProperties` is closed (the bindings\' rule for objects that declare properties), emits `{}`, which TypeScript reads as any non-null value, strings included. Ours is the narrower and the accurate one.',
    rewrite: (node) =>
      allows(node, "object") && ![...OBJECT_SHAPE, ...COMPOSITION].some((key) => key in node)
        ? { ...node, additionalProperties: {} }
        : node,
  },
  {
    id: "untyped-schema",
    kind: "json-schema-to-typescript",
    explanation:
      "A schema without a typing keyword (only annotations such as `description`, or constraints neither emitter types, such as `required` or `format`) accepts any JSON value. The bindings type it `unknown`; json-schema-to-typescript types it as an object map, which also turns `anyOf` branches that only list `required` properties into objects intersected with the rest (dropping `null` from `type: [object, null]`). Ours is the wider and the accurate one.",
    rewrite: (node) =>
      Object.keys(node).length > 0 && !Object.keys(node).some((key) => TYPING.has(key)) ? {} : node,
  },
];

/** The rewrite of every reason in `reasons`, in their order, on one schema node. */
export function rewriteWith(reasons: readonly Reason[]): (node: SchemaNode) => JsonSchema {
  return (node) => reasons.reduce((current, reason) => reason.rewrite(current), node) as JsonSchema;
}
