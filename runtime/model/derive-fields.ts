/**
 * Derives declared output fields from an output JSON Schema: one field per top-level property of an
 * object output, or per item property (`*` path) of an array-of-objects output. Nested fields come
 * only from trusted overlays.
 */
import { decodePointerToken } from "./json-pointer.js";
import type { FieldSpec, JsonSchema } from "./specs.js";

type SchemaObject = { readonly [key: string]: unknown };

export interface DerivedFields {
  readonly fields: FieldSpec[];
  /** True when properties came from an `allOf` merge (reported as partial by the compiler). */
  readonly usedComposition: boolean;
}

export function deriveFields(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): DerivedFields {
  const root = resolveRef(schema, defs);
  if (root === undefined) return { fields: [], usedComposition: false };
  if (isArraySchema(root)) {
    const items = resolveRef(root.items as JsonSchema, defs);
    if (items === undefined) return { fields: [], usedComposition: false };
    const { properties, usedComposition } = collectProperties(items, defs);
    return {
      fields: properties.map(([name, prop]) => makeField(`[].${name}`, ["*", name], prop)),
      usedComposition,
    };
  }
  const { properties, usedComposition } = collectProperties(root, defs);
  return { fields: properties.map(([name, prop]) => makeField(name, [name], prop)), usedComposition };
}

function makeField(id: string, path: string[], schema: JsonSchema): FieldSpec {
  const object = typeof schema === "object" ? (schema as SchemaObject) : {};
  const datatype = datatypeOf(object);
  const description = typeof object.description === "string" ? object.description : undefined;
  const unit = typeof object["x-unit"] === "string" ? object["x-unit"] : undefined;
  return {
    id,
    path,
    ...(path.includes("*") ? { resultPath: path } : {}),
    schema,
    ...(datatype !== undefined ? { datatype } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(unit !== undefined ? { unit } : {}),
  };
}

function datatypeOf(schema: SchemaObject): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t): t is string => typeof t === "string" && t !== "null");
    return types.length === 1 ? types[0] : types.join("|") || undefined;
  }
  if (typeof schema.$ref === "string") return "object";
  return undefined;
}

function collectProperties(
  schema: SchemaObject,
  defs: Readonly<Record<string, JsonSchema>>,
  seen: Set<SchemaObject> = new Set(),
): { properties: [string, JsonSchema][]; usedComposition: boolean } {
  if (seen.has(schema)) return { properties: [], usedComposition: false };
  seen.add(schema);
  const out = new Map<string, JsonSchema>();
  let usedComposition = false;
  if (schema.properties !== null && typeof schema.properties === "object") {
    for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonSchema>))
      out.set(name, prop);
  }
  if (Array.isArray(schema.allOf)) {
    usedComposition = true;
    for (const branch of schema.allOf as JsonSchema[]) {
      const resolved = resolveRef(branch, defs);
      if (resolved === undefined) continue;
      for (const [name, prop] of collectProperties(resolved, defs, seen).properties)
        if (!out.has(name)) out.set(name, prop);
    }
  }
  return { properties: [...out.entries()], usedComposition };
}

function isArraySchema(schema: SchemaObject): boolean {
  return (
    (schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array"))) &&
    schema.items !== undefined
  );
}

/** Follows `#/$defs/...` references (bounded) to a schema object. */
export function resolveRef(
  schema: JsonSchema | undefined,
  defs: Readonly<Record<string, JsonSchema>>,
): SchemaObject | undefined {
  let current: JsonSchema | undefined = schema;
  for (let hops = 0; hops < 32; hops++) {
    if (current === undefined || typeof current === "boolean") return undefined;
    const ref = (current as SchemaObject).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return current as SchemaObject;
    current = defs[decodePointerToken(ref.slice("#/$defs/".length))];
  }
  return undefined;
}
