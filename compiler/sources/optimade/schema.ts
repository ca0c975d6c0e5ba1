/**
 * One level of an OPTIMADE v1.2 property definition as JSON Schema (OPTIMADE v1.2 "Property
 * Definition keys from JSON Schema"): the JSON `type` list, the allowed validation keywords, nested
 * `items` and `properties`, and `x-optimade-type` kept as an annotation at every level. Keys outside
 * the format go to the compatibility report.
 */

import type { CompatibilityIssue, JsonObject, JsonValue } from "schemarouter/internal";
import { encodePointerToken } from "schemarouter/internal";

type Definition = Readonly<Record<string, unknown>>;
type Report = (issue: CompatibilityIssue) => void;

/** OPTIMADE data types and their JSON types ("JSON Response Schema: Common Fields"). */
export const JSON_TYPE_OF: Readonly<Record<string, string>> = {
  string: "string",
  integer: "integer",
  float: "number",
  boolean: "boolean",
  timestamp: "string",
  list: "array",
  dictionary: "object",
};
const JSON_TYPES = new Set(["string", "integer", "number", "boolean", "array", "object", "null"]);
/** JSON Schema validation keywords of the OPTIMADE subset, copied as declared. */
const VALIDATION = [
  "enum",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "dependentRequired",
] as const;
const FORMATS = new Set(["date-time", "date", "time", "duration", "email", "uri", "iri"]);
/** Keys understood (or deliberately descriptive) in the v1.2 format. */
const V12_KEYS = new Set<string>([
  ...VALIDATION,
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "examples",
  "deprecated",
  "type",
  "items",
  "properties",
  "required",
  "format",
  "sortable",
  "x-optimade-type",
  "x-optimade-unit",
  "x-optimade-unit-definitions",
  "x-optimade-dimensions",
  "x-optimade-definition",
  "x-optimade-property",
  "x-optimade-implementation",
  "x-optimade-requirements",
]);
/** One level of a v1.2 definition as JSON Schema (recursing into `items` and `properties`). */
export function convertLevel(
  name: string,
  definition: Definition,
  pointer: string,
  nullable: boolean,
  report: Report,
): JsonObject {
  const out: Record<string, JsonValue> = {};
  const partial = (at: string, construct: string, message: string) =>
    report({ pointer: at, construct, level: "partial", message: `property "${name}": ${message}` });
  const xtype = definition["x-optimade-type"];
  if (typeof xtype === "string") {
    out["x-optimade-type"] = xtype;
    if (xtype.startsWith("_"))
      partial(
        `${pointer}/x-optimade-type`,
        "namespace-type",
        `"${xtype}" is a namespace-specific type; only its JSON type is checked.`,
      );
    else if (!(xtype in JSON_TYPE_OF))
      partial(
        `${pointer}/x-optimade-type`,
        "unknown-type",
        `"${xtype}" is not an OPTIMADE data type; only its JSON type is checked.`,
      );
  } else {
    partial(pointer, "missing-optimade-type", "a level without x-optimade-type; its JSON type is used.");
  }
  const declared =
    typeof definition.type === "string"
      ? [definition.type]
      : Array.isArray(definition.type)
        ? definition.type
        : undefined;
  if (
    declared !== undefined &&
    declared.length > 0 &&
    declared.every((type) => typeof type === "string" && JSON_TYPES.has(type))
  ) {
    out.type = declared.length === 1 ? (declared[0] as string) : (declared as string[]);
  } else if (typeof xtype === "string" && JSON_TYPE_OF[xtype] !== undefined) {
    const jsonType = JSON_TYPE_OF[xtype] as string;
    out.type = nullable ? [jsonType, "null"] : jsonType;
    partial(
      `${pointer}/type`,
      "missing-type",
      `no valid JSON "type"; derived "${jsonType}" from x-optimade-type.`,
    );
  } else {
    partial(`${pointer}/type`, "untyped-property", "no usable type; any JSON value is accepted.");
  }
  for (const key of ["title", "description"] as const)
    if (typeof definition[key] === "string") out[key] = definition[key] as string;
  if (typeof definition.deprecated === "boolean") out.deprecated = definition.deprecated;
  for (const key of VALIDATION) if (definition[key] !== undefined) out[key] = definition[key] as JsonValue;
  if (typeof definition.format === "string") {
    if (FORMATS.has(definition.format)) out.format = definition.format;
    else partial(`${pointer}/format`, "unknown-format", `format "${definition.format}" is not checked.`);
  }
  if (isRecord(definition.items))
    out.items = convertLevel(name, definition.items, `${pointer}/items`, false, report);
  else if (out.type === "array" || (Array.isArray(out.type) && out.type.includes("array")))
    partial(pointer, "missing-items", "a list without an items definition; its items are not typed.");
  if (isRecord(definition.properties)) {
    const properties: Record<string, JsonValue> = {};
    for (const [key, inner] of Object.entries(definition.properties).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      const at = `${pointer}/properties/${encodePointerToken(key)}`;
      properties[key] = isRecord(inner) ? convertLevel(name, inner, at, false, report) : {};
    }
    out.properties = properties;
  }
  if (Array.isArray(definition.required) && definition.required.every((key) => typeof key === "string"))
    out.required = definition.required as string[];
  const dimensions = definition["x-optimade-dimensions"];
  if (
    isRecord(dimensions) &&
    Array.isArray(dimensions.compactable) &&
    dimensions.compactable.some((value) => value !== "no")
  ) {
    partial(
      `${pointer}/x-optimade-dimensions/compactable`,
      "compact-list",
      "the provider may send compact lists, which are not expanded; such values fail output validation.",
    );
  }
  for (const key of Object.keys(definition).sort()) {
    if (!V12_KEYS.has(key))
      partial(
        `${pointer}/${encodePointerToken(key)}`,
        "unknown-keyword",
        `"${key}" is not part of the OPTIMADE property definition format; it is ignored.`,
      );
  }
  return out;
}

function isRecord(value: unknown): value is Definition {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
