/**
 * The OAS 3.0 → JSON Schema conversion the compiler used before compiler/sources/openapi/oas30-schema.ts:
 * @openapi-contrib/openapi-schema-to-json-schema 5.1.0 (`fromSchema`) with a pre-pass wrapping untyped
 * `nullable` and a post-pass turning boolean bounds numeric, kept verbatim as the differential oracle.
 */
import { fromSchema } from "@openapi-contrib/openapi-schema-to-json-schema";
import {
  SUBSCHEMA_LISTS,
  SUBSCHEMA_MAPS,
  SUBSCHEMA_SINGLE,
} from "../../compiler/sources/openapi/schema-keywords.js";

type Node = Record<string, unknown>;

export function libraryConvert30(schema: Node): Node {
  const prepared = mapSchemaTree(structuredClone(schema), wrapUntypedNullable) as Node;
  const converted = fromSchema(prepared, {
    cloneSchema: false,
    strictMode: false,
    supportPatternProperties: true,
  }) as Node;
  delete converted.$schema;
  return mapSchemaTree(converted, fixDraft4Bounds) as Node;
}

function mapSchemaTree(node: unknown, visit: (schema: Node) => Node): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSchemaTree(item, visit));
  if (node === null || typeof node !== "object") return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    if (
      SUBSCHEMA_MAPS.includes(key) &&
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value)
    ) {
      const map: Node = {};
      for (const [name, child] of Object.entries(value as Node)) map[name] = mapSchemaTree(child, visit);
      out[key] = map;
    } else if (SUBSCHEMA_LISTS.includes(key) || SUBSCHEMA_SINGLE.includes(key)) {
      out[key] = mapSchemaTree(value, visit);
    } else {
      out[key] = value;
    }
  }
  return visit(out);
}

function wrapUntypedNullable(schema: Node): Node {
  if (schema.nullable !== true || schema.type !== undefined) return schema;
  const { nullable: _nullable, ...rest } = schema;
  return { anyOf: [rest, { type: "null" }] };
}

function fixDraft4Bounds(schema: Node): Node {
  const out: Node = { ...schema };
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
  return out;
}
