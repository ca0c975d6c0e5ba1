/**
 * TypeScript types of one source's shared definitions and endpoint inputs/outputs, generated with
 * json-schema-to-typescript in a single pass (each shared definition becomes one named type).
 */
import { compile } from "json-schema-to-typescript";
import type { JsonSchema } from "../../runtime/model.js";
import { NameAllocator, pascalCase } from "./names.js";

type Node = Record<string, unknown>;

export interface EndpointTypeRequest {
  readonly input: JsonSchema;
  readonly output: JsonSchema;
  readonly inputName: string;
  readonly outputName: string;
}

const ROOT = "SchemaRouterTypesRoot";
const SUBSCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
const SUBSCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SUBSCHEMA_SINGLE = new Set([
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
]);

export async function emitTypes(
  defs: Readonly<Record<string, JsonSchema>>,
  endpoints: readonly EndpointTypeRequest[],
): Promise<string> {
  const allocator = new NameAllocator([ROOT, ...endpoints.flatMap((e) => [e.inputName, e.outputName])]);
  const typeNames = new Map<string, string>();
  for (const name of Object.keys(defs).sort())
    typeNames.set(name, allocator.take(pascalCase(name) || "Schema"));
  const $defs: Record<string, JsonSchema> = {};
  for (const [name, typeName] of typeNames) $defs[name] = titled(defs[name]!, typeName, typeNames);
  endpoints.forEach((endpoint, index) => {
    $defs[`__schemarouter_input_${index}`] = titled(endpoint.input, endpoint.inputName, typeNames);
    $defs[`__schemarouter_output_${index}`] = titled(endpoint.output, endpoint.outputName, typeNames);
  });
  const root = { title: ROOT, type: "object", additionalProperties: false, properties: {}, $defs };
  const text = await compile(root as never, ROOT, {
    bannerComment: "",
    format: false,
    unreachableDefinitions: true,
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    unknownAny: true,
  });
  return text
    .replace(new RegExp(`export interface ${ROOT} \\{\\s*\\}\\n?`), "")
    .replace(
      /\/\*\*\n \* This interface was referenced by `SchemaRouterTypesRoot`'s JSON-Schema\n \* via the `definition` "[^"]*"\.\n \*\/\n/g,
      "",
    );
}

/**
 * Gives a root schema its generated type name, strips nested titles (so inline types stay inline) and
 * turns `$ref`s to shared definitions into references to their named types.
 */
function titled(schema: JsonSchema, title: string, typeNames: ReadonlyMap<string, string>): JsonSchema {
  if (typeof schema === "boolean" || isEmpty(schema))
    return { title, tsType: schema === false ? "never" : "unknown" };
  const stripped = prepare(schema, typeNames) as Node;
  return { ...stripped, title };
}

function isEmpty(schema: Node): boolean {
  return Object.keys(schema).every((key) =>
    ["description", "title", "$comment", "examples", "x-unit"].includes(key),
  );
}

function prepare(node: unknown, typeNames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => prepare(item, typeNames));
  if (node === null || typeof node !== "object") return node;
  const ref = (node as Node).$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const name = typeNames.get(ref.slice("#/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~"));
    const description = (node as Node).description;
    if (name !== undefined)
      return { tsType: name, ...(typeof description === "string" ? { description } : {}) };
  }
  if (typeof ref === "string") return { tsType: "unknown" };
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === "title") continue;
    if (SUBSCHEMA_MAPS.has(key) && value !== null && typeof value === "object") {
      const map: Node = {};
      for (const [name, child] of Object.entries(value as Node)) map[name] = prepare(child, typeNames);
      out[key] = map;
    } else if (SUBSCHEMA_LISTS.has(key) || SUBSCHEMA_SINGLE.has(key)) {
      out[key] = prepare(value, typeNames);
    } else {
      out[key] = value;
    }
  }
  return out;
}
