/**
 * Content Descriptor Objects (OpenRPC 1.3 "Content Descriptor Object"; docs/sources/openrpc.md
 * "Params" and "Result"): a param becomes a ParameterSpec (`argument`, its schema converted to
 * 2020-12 with shared `$defs`); the result becomes the output schema `{ result }` and its fields.
 */
import type { FieldSpec, JsonObject, JsonSchema, ParameterSpec } from "schemarouter/internal";
import { decodePointerToken } from "schemarouter/internal";
import type { SchemaConverter } from "../openapi/schema-object.js";
import { draft07ToJsonSchema2020 } from "./draft07-schema.js";

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Names JavaScript objects reserve: never a parameter or field key. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(["__proto__", "prototype", "constructor"]);

/** The descriptor's schema, converted (a missing schema accepts anything). */
export function descriptorSchema(converter: SchemaConverter, descriptor: Node, pointer: string): JsonSchema {
  if (!Object.hasOwn(descriptor, "schema")) return {};
  return converter.convert(draft07ToJsonSchema2020(descriptor.schema), `${pointer}/schema`);
}

export function parameterOf(converter: SchemaConverter, descriptor: Node, pointer: string): ParameterSpec {
  const name = descriptor.name as string;
  const description =
    typeof descriptor.description === "string" && descriptor.description !== ""
      ? descriptor.description
      : typeof descriptor.summary === "string" && descriptor.summary !== ""
        ? descriptor.summary
        : undefined;
  return {
    name,
    location: "argument",
    required: descriptor.required === true,
    schema: descriptorSchema(converter, descriptor, pointer),
    ...(description !== undefined ? { description } : {}),
  };
}

/** The raw output of every OpenRPC endpoint: the JSON-RPC `result`, under `result`. */
export function outputSchemaOf(result: JsonSchema): JsonObject {
  return { type: "object", required: ["result"], properties: { result: result as JsonObject } };
}

/** The definition a `#/$defs/<name>` schema names, followed a few times; the schema itself otherwise. */
function dereference(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 8 && isNode(current) && typeof current.$ref === "string"; hops++) {
    const match = /^#\/\$defs\/(.+)$/.exec(current.$ref);
    const name = match?.[1] === undefined ? undefined : decodePointerToken(match[1]);
    if (name === undefined || !Object.hasOwn(defs, name)) return current;
    current = defs[name] as JsonSchema;
  }
  return current;
}

function datatypeOf(schema: JsonSchema): string | undefined {
  if (!isNode(schema)) return undefined;
  const types =
    typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const named = types.filter((type): type is string => typeof type === "string" && type !== "null");
  return named.length > 0 ? named.join("|") : undefined;
}

/** `schema` as declared (maybe a `$defs` reference); its facts come from `resolved`. */
function fieldOf(
  id: string,
  path: readonly string[],
  schema: JsonSchema,
  resolved: JsonSchema,
  wildcard: boolean,
): FieldSpec {
  const datatype = datatypeOf(resolved);
  const description =
    isNode(resolved) && typeof resolved.description === "string" ? resolved.description : undefined;
  const unit = isNode(resolved) && typeof resolved["x-unit"] === "string" ? resolved["x-unit"] : undefined;
  return {
    id,
    path: [...path],
    ...(wildcard ? { resultPath: [...path] } : {}),
    schema,
    ...(datatype !== undefined ? { datatype } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(unit !== undefined ? { unit } : {}),
  };
}

/**
 * Fields of a result: one per top-level property of an object result (`<name>`), one per property of
 * the items of an array-of-objects result (`[].<name>`), else the whole value as `result`.
 */
export function resultFields(result: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): FieldSpec[] {
  const resolved = dereference(result, defs);
  const propertiesOf = (schema: JsonSchema): [string, JsonSchema][] => {
    if (!isNode(schema) || !isNode(schema.properties)) return [];
    return Object.entries(schema.properties as Record<string, JsonSchema>).filter(
      ([name]) => !RESERVED_NAMES.has(name) && name !== "*" && name !== "",
    );
  };
  const own = propertiesOf(resolved);
  if (own.length > 0)
    return own.map(([name, schema]) =>
      fieldOf(name, ["result", name], schema, dereference(schema, defs), false),
    );
  if (isNode(resolved) && resolved.items !== undefined && !Array.isArray(resolved.items)) {
    const items = dereference(resolved.items as JsonSchema, defs);
    const itemProperties = propertiesOf(items);
    if (itemProperties.length > 0)
      return itemProperties.map(([name, schema]) =>
        fieldOf(`[].${name}`, ["result", "*", name], schema, dereference(schema, defs), true),
      );
  }
  return [fieldOf("result", ["result"], result, resolved, false)];
}
