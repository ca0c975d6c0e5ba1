/**
 * The query options of an entity-set listing as typed parameters (OData URL Conventions v4.01 §5.1
 * "System Query Options"): a structured `filter` (per filterable property, the comparison operators
 * its type supports — no free-text expressions), `orderby` restricted to sortable properties,
 * `top`, `skip` and `count`. `$select` is never a parameter: the trusted server projection sets it.
 */
import type { JsonObject, JsonSchema, ODataTypedName, ParameterSpec } from "schemarouter/internal";
import { inputSchemaOf } from "../input-schema.js";
import type { CsdlModel } from "./csdl.js";
import { LITERAL_TYPES, primitiveOf } from "./edm-types.js";
import type { KeptProperty } from "./structured-types.js";

/** Largest `top` a call may ask for; pages beyond it follow `@odata.nextLink` within local limits. */
export const MAX_TOP = 10_000;

const ORDERED = new Set([
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
  "Edm.String",
]);

export function inputOf(parameters: ParameterSpec[]): {
  parameters: ParameterSpec[];
  inputSchema: JsonSchema;
} {
  return { parameters, inputSchema: inputSchemaOf(parameters) };
}

/** The filterable properties: single-valued, primitive (or enumeration) properties with a literal form. */
export function filterableOf(model: CsdlModel, kept: readonly KeptProperty[]): ODataTypedName[] {
  const out: ODataTypedName[] = [];
  for (const { property } of kept) {
    if (property.collection) continue;
    const primitive = primitiveOf(model, property.type);
    if (primitive !== undefined && LITERAL_TYPES.has(primitive))
      out.push({ name: property.name, type: primitive });
    else if (primitive === undefined && model.enums.has(property.type))
      out.push({ name: property.name, type: property.type });
  }
  return out;
}

function operatorsOf(type: string, value: JsonSchema, nullable: boolean): Record<string, JsonSchema> {
  const single: JsonSchema = nullable ? { anyOf: [value, { type: "null" }] } : value;
  const operators: Record<string, JsonSchema> = {
    eq: single,
    ne: single,
    in: { type: "array", items: value, minItems: 1, maxItems: 100 },
  };
  if (ORDERED.has(type)) for (const name of ["gt", "ge", "lt", "le"]) operators[name] = value;
  if (type === "Edm.String")
    for (const name of ["contains", "startswith", "endswith"]) operators[name] = { type: "string" };
  return operators;
}

/** The list parameters of an entity set whose kept properties are `kept`. */
export function listParameters(
  kept: readonly KeptProperty[],
  filterable: readonly ODataTypedName[],
): ParameterSpec[] {
  const query = (name: string, schema: JsonSchema, description: string): ParameterSpec => ({
    name,
    location: "query",
    wireName: `$${name}`,
    required: false,
    schema,
    description,
  });
  const byName = new Map(kept.map((entry) => [entry.property.name, entry]));
  const filterProperties: Record<string, JsonSchema> = {};
  for (const { name, type } of filterable) {
    const entry = byName.get(name)!;
    const value = plainValue(entry.schema);
    filterProperties[name] = {
      type: "object",
      properties: operatorsOf(type, value, entry.property.nullable),
      additionalProperties: false,
      minProperties: 1,
    };
  }
  const sortable = filterable.filter(
    ({ type }) => ORDERED.has(type) || type === "Edm.Boolean" || type === "Edm.Guid",
  );
  const parameters: ParameterSpec[] = [];
  if (filterable.length > 0)
    parameters.push(
      query(
        "filter",
        { type: "object", properties: filterProperties, additionalProperties: false },
        'Structured filter: per property, operators and typed values, all joined with "and", e.g. {"stock":{"gt":10},"title":{"contains":"Wuthering"}}. Built into $filter with OData literal escaping; no free-text expressions.',
      ),
    );
  if (sortable.length > 0)
    parameters.push(
      query(
        "orderby",
        {
          type: "array",
          items: { enum: sortable.flatMap(({ name }) => [name, `${name} asc`, `${name} desc`]) },
          uniqueItems: true,
          minItems: 1,
          maxItems: sortable.length,
        },
        'Sort order: property names, each optionally followed by " asc" or " desc".',
      ),
    );
  parameters.push(
    query("top", { type: "integer", minimum: 0, maximum: MAX_TOP }, "Return at most this many entities."),
    query("skip", { type: "integer", minimum: 0 }, "Skip this many entities first."),
    query("count", { type: "boolean" }, "Also return the total number of matching entities (@odata.count)."),
  );
  return parameters;
}

/** The non-null value schema of a property schema (nullability is the operator's business). */
function plainValue(schema: JsonSchema): JsonSchema {
  if (typeof schema === "boolean") return schema;
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((type) => type !== "null");
    return { ...schema, type: types.length === 1 ? types[0]! : types };
  }
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const rest = anyOf.filter(
      (member) => !(typeof member === "object" && member !== null && (member as JsonObject).type === "null"),
    );
    if (rest.length === 1) {
      const { anyOf: _dropped, ...others } = schema;
      return { ...others, ...(rest[0] as JsonObject) };
    }
  }
  return schema;
}
