/**
 * EDM types as JSON Schema (OData JSON Format v4.01 §7 "Structural Property", CSDL §4.4 "Primitive
 * Types"), per docs/sources/odata.md "Types": Edm.Int64 and Edm.Decimal are strings, because every
 * request asks for `IEEE754Compatible=true`; dates, times, durations and GUIDs are pattern-checked
 * strings; enumerations are their member names; structured types are `$defs` references.
 */
import type { JsonSchema } from "schemarouter/internal";
import type { CsdlModel, CsdlProperty } from "./csdl.js";

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  "Edm.Byte": [0, 255],
  "Edm.SByte": [-128, 127],
  "Edm.Int16": [-32768, 32767],
  "Edm.Int32": [-2147483648, 2147483647],
};

/** Primitive types and their JSON Schema; absent ones (streams, geo) are reported by the caller. */
const PRIMITIVES: Readonly<Record<string, JsonSchema>> = {
  "Edm.String": { type: "string" },
  "Edm.Boolean": { type: "boolean" },
  "Edm.Int64": { type: "string", pattern: "^-?[0-9]{1,19}$" },
  "Edm.Decimal": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" },
  "Edm.Double": { anyOf: [{ type: "number" }, { enum: ["INF", "-INF", "NaN"] }] },
  "Edm.Single": { anyOf: [{ type: "number" }, { enum: ["INF", "-INF", "NaN"] }] },
  "Edm.Date": { type: "string", pattern: "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}$" },
  "Edm.DateTimeOffset": {
    type: "string",
    pattern:
      "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})$",
  },
  "Edm.TimeOfDay": { type: "string", pattern: "^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?$" },
  "Edm.Duration": {
    type: "string",
    pattern: "^-?P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?$",
  },
  "Edm.Guid": {
    type: "string",
    pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
  },
  "Edm.Binary": { type: "string", pattern: "^[A-Za-z0-9_=-]*$", contentEncoding: "base64url" },
  "Edm.Untyped": {},
  "Edm.PrimitiveType": {},
};

/** Primitive types an argument can carry in a URL literal (docs/sources/odata.md "Filters"). */
export const LITERAL_TYPES: ReadonlySet<string> = new Set([
  "Edm.String",
  "Edm.Boolean",
  "Edm.Byte",
  "Edm.SByte",
  "Edm.Int16",
  "Edm.Int32",
  "Edm.Int64",
  "Edm.Decimal",
  "Edm.Double",
  "Edm.Single",
  "Edm.Date",
  "Edm.DateTimeOffset",
  "Edm.TimeOfDay",
  "Edm.Duration",
  "Edm.Guid",
]);

/** The $defs name of a structured type. */
export function defName(qualified: string): string {
  return qualified.replace(/[^A-Za-z0-9_.]/g, "_");
}

/** A type the compiler cannot express: the construct named in the compatibility report. */
export class UnsupportedType extends Error {
  constructor(readonly type: string) {
    super(type);
  }
}

/** The primitive type a (possibly aliased) type resolves to, or undefined for structured/enum types. */
export function primitiveOf(model: CsdlModel, type: string): string | undefined {
  const definition = model.typeDefinitions.get(type);
  const resolved = definition === undefined ? type : definition.underlying;
  return resolved.startsWith("Edm.") ? resolved : undefined;
}

/** JSON Schema of a single value of `type` (no nullability, no collection). Throws UnsupportedType. */
export function valueSchema(model: CsdlModel, type: string, maxLength?: number): JsonSchema {
  const primitive = primitiveOf(model, type);
  if (primitive !== undefined) {
    const range = INTEGER_RANGES[primitive];
    if (range !== undefined) return { type: "integer", minimum: range[0], maximum: range[1] };
    const schema = PRIMITIVES[primitive];
    if (schema === undefined) throw new UnsupportedType(primitive);
    if (primitive === "Edm.String" && maxLength !== undefined) return { type: "string", maxLength };
    return schema;
  }
  const enumType = model.enums.get(type);
  if (enumType !== undefined) {
    // Flags enumerations are comma-separated member names (OData JSON §7.1).
    return enumType.flags ? { type: "string" } : { type: "string", enum: [...enumType.members] };
  }
  if (model.structured.has(type)) return { $ref: `#/$defs/${defName(type)}` };
  throw new UnsupportedType(type);
}

/** JSON Schema of a property, parameter or return type: collections and nullability applied. */
export function propertySchema(model: CsdlModel, property: CsdlProperty): JsonSchema {
  const value = valueSchema(model, property.type, property.maxLength);
  const described = (schema: JsonSchema): JsonSchema =>
    property.description === undefined || typeof schema === "boolean"
      ? schema
      : { ...schema, description: property.description };
  if (property.collection) return described({ type: "array", items: value });
  return described(property.nullable ? nullable(value) : value);
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema === "boolean") return schema;
  if (typeof schema.type === "string" && schema.anyOf === undefined && schema.enum === undefined)
    return { ...schema, type: [schema.type, "null"] };
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: "null" }] };
}
