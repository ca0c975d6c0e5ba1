/**
 * JSON Schema (2020-12, as the compiler stores it) to TypeScript type text, in one pass over the
 * schema, without copying it. Named `$defs` become references to their declared types. Object types
 * without `additionalProperties` are closed; maps get `[k: string]: T | undefined` index signatures;
 * `allOf` is an intersection, `anyOf`/`oneOf` a union, `enum`/`const` literal unions. Keywords that
 * do not change the shape of a value (`not`, `if`, `minItems`, formats, bounds, …) are not typed.
 */
import type { JsonSchema } from "schemarouter/internal";

type Node = Readonly<Record<string, unknown>>;

export interface TypeContext {
  /** The declared type name of a `#/$defs/<name>` reference (undefined: not declared). */
  readonly refName: (ref: string) => string | undefined;
}

const DEF_PREFIX = "#/$defs/";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const DESCRIPTIVE = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "x-unit",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** `export interface …` for a closed object shape, `export type … =` for everything else. */
export function declaration(name: string, schema: JsonSchema, context: TypeContext): string {
  const doc = docComment(schema, "");
  if (isNode(schema) && isPlainObjectShape(schema))
    return `${doc}export interface ${name} ${objectBody(schema, context, "")}\n`;
  return `${doc}export type ${name} = ${typeText(schema, context, "")};\n`;
}

/** The TypeScript type of `schema`; `indent` is the indentation of the line it starts on. */
export function typeText(schema: JsonSchema, context: TypeContext, indent: string): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  if (!isNode(schema)) return "unknown";
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const name = ref.startsWith(DEF_PREFIX)
      ? context.refName(decodeToken(ref.slice(DEF_PREFIX.length)))
      : undefined;
    // A $ref with sibling constraints is the intersection of both; the siblings are typed below.
    const target = name ?? "unknown";
    const rest = withoutRef(schema);
    return rest === undefined ? target : intersect([target, typeText(rest as JsonSchema, context, indent)]);
  }
  const parts: string[] = [];
  const base = baseType(schema, context, indent);
  if (base !== undefined) parts.push(base);
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf as JsonSchema[]) parts.push(typeText(member, context, indent));
  const discriminated = discriminatedUnion(schema, context, indent);
  if (discriminated !== undefined) parts.push(discriminated);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0)
      parts.push(union((members as JsonSchema[]).map((member) => typeText(member, context, indent))));
  }
  if (parts.length === 0) return "unknown";
  return intersect(parts);
}

/**
 * The union a compiled discriminator selects from (docs/sources/openapi-bodies.md): each mapped
 * definition intersected with its discriminator value, e.g. `(Dog & { kind: "dog" })`.
 */
function discriminatedUnion(schema: Node, context: TypeContext, indent: string): string | undefined {
  const discriminator = schema.discriminator;
  if (
    !isNode(discriminator) ||
    typeof discriminator.propertyName !== "string" ||
    !isNode(discriminator.mapping)
  )
    return undefined;
  const entries = Object.entries(discriminator.mapping);
  if (
    entries.length === 0 ||
    !entries.every(([, ref]) => typeof ref === "string" && ref.startsWith(DEF_PREFIX))
  )
    return undefined;
  const property = discriminator.propertyName;
  const required = discriminator.propertyRequired === true ? [property] : [];
  return union(
    entries.map(([value, ref]) =>
      intersect([
        typeText({ $ref: ref as string }, context, indent),
        objectBody(
          { type: "object", properties: { [property]: { const: value } }, required },
          context,
          indent,
        ),
      ]),
    ),
  );
}

/** The type from the schema's own keywords (enum/const/type/properties/items), or undefined. */
function baseType(schema: Node, context: TypeContext, indent: string): string | undefined {
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const type = schema.type;
  const types = Array.isArray(type) ? (type as unknown[]) : typeof type === "string" ? [type] : undefined;
  if (types !== undefined)
    return union(types.map((name) => primitive(String(name), schema, context, indent)));
  if (hasObjectKeywords(schema)) return objectBody(schema, context, indent);
  if ("items" in schema || "prefixItems" in schema) return arrayType(schema, context, indent);
  return undefined;
}

function primitive(name: string, schema: Node, context: TypeContext, indent: string): string {
  switch (name) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "object":
      return objectBody(schema, context, indent);
    case "array":
      return arrayType(schema, context, indent);
    default:
      return "unknown";
  }
}

/**
 * Keywords that give an untyped schema an object shape. `additionalProperties: true` (or `{}`) is the
 * default and constrains nothing, so on its own it does not make a value an object.
 */
function hasObjectKeywords(schema: Node): boolean {
  return (
    "properties" in schema ||
    "patternProperties" in schema ||
    ("additionalProperties" in schema && !isUnconstrained(schema.additionalProperties))
  );
}

function isUnconstrained(value: unknown): boolean {
  return value === true || (isNode(value) && Object.keys(value).length === 0);
}

/** Only a closed or open object shape (no union, intersection or literal): declared as an interface. */
function isPlainObjectShape(schema: Node): boolean {
  if ("const" in schema || "enum" in schema || "$ref" in schema || "tsType" in schema) return false;
  if (Array.isArray(schema.allOf) || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return false;
  return schema.type === "object" || (schema.type === undefined && hasObjectKeywords(schema));
}

function objectBody(schema: Node, context: TypeContext, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  const properties = isNode(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const memberTypes: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const text = typeText(property as JsonSchema, context, inner);
    memberTypes.push(text);
    lines.push(
      `${docComment(property as JsonSchema, inner)}${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${text};`,
    );
  }
  const extra: string[] = [];
  if (isNode(schema.patternProperties))
    for (const pattern of Object.values(schema.patternProperties))
      extra.push(typeText(pattern as JsonSchema, context, inner));
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== false)
    extra.push(typeText(additional as JsonSchema, context, inner));
  // An object type with no declared property is a map of unknown values unless closed explicitly.
  if (extra.length === 0 && lines.length === 0 && additional !== false) extra.push("unknown");
  if (extra.length > 0) {
    // Declared properties must fit the index signature, so it covers their types too.
    const values = [...new Set([...extra, ...(extra.includes("unknown") ? [] : memberTypes)])];
    lines.push(`${inner}[k: string]: ${values.includes("unknown") ? "unknown" : union(values)} | undefined;`);
  }
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent}}`;
}

function arrayType(schema: Node, context: TypeContext, indent: string): string {
  const prefix = Array.isArray(schema.prefixItems)
    ? (schema.prefixItems as JsonSchema[])
    : Array.isArray(schema.items)
      ? (schema.items as JsonSchema[])
      : undefined;
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  if (prefix === undefined) {
    if (rest === undefined || rest === true) return "unknown[]";
    return `${element(typeText(rest as JsonSchema, context, indent))}[]`;
  }
  const members = prefix.map((item) => typeText(item, context, indent));
  // Tuple members are optional: JSON Schema does not require prefix items to be present.
  const head = members.map((member) => `${element(member)}?`);
  if (rest === false) return `[${head.join(", ")}]`;
  const tail =
    rest === undefined || rest === true ? "unknown" : typeText(rest as JsonSchema, context, indent);
  return `[${[...head, `...${element(tail)}[]`].join(", ")}]`;
}

function literal(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
  return "unknown";
}

function union(members: readonly string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  const kept = unique.filter((member) => member !== "never");
  if (kept.length === 0) return "never";
  return kept.length === 1 ? kept[0]! : `(${kept.join(" | ")})`;
}

function intersect(members: readonly string[]): string {
  const kept = [...new Set(members)].filter((member) => member !== "unknown");
  if (kept.length === 0) return "unknown";
  return kept.length === 1 ? kept[0]! : `(${kept.join(" & ")})`;
}

/** Parenthesizes a type used as an array element when it is not a single term. */
function element(type: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$.]*$/.test(type) || type.startsWith("(") || type.startsWith("{")
    ? type
    : `(${type})`;
}

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function docComment(schema: JsonSchema, indent: string): string {
  if (!isNode(schema)) return "";
  const lines: string[] = [];
  if (typeof schema.description === "string" && schema.description.trim() !== "")
    lines.push(...schema.description.replace(/\*\//g, "*\\/").split(/\r?\n/));
  if (schema.deprecated === true) lines.push("@deprecated");
  if (lines.length === 0) return "";
  const body = lines.map((line) => (line.trim() === "" ? `${indent} *` : `${indent} * ${line.trimEnd()}`));
  return `${indent}/**\n${body.join("\n")}\n${indent} */\n`;
}

/** The schema without `$ref` when other type-relevant keywords remain; undefined otherwise. */
function withoutRef(schema: Node): Node | undefined {
  const rest: Record<string, unknown> = {};
  let typed = false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref") continue;
    rest[key] = value;
    if (!DESCRIPTIVE.has(key)) typed = true;
  }
  return typed ? rest : undefined;
}

/** True when the schema constrains nothing that typing can express (only descriptive keywords). */
export function isDescriptiveOnly(schema: JsonSchema): boolean {
  return isNode(schema) && Object.keys(schema).every((key) => DESCRIPTIVE.has(key) || key.startsWith("x-"));
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
