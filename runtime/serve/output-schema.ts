/**
 * The `outputSchema` of a served tool (docs/serve.md, "What a client sees"): the shape of the
 * projected result, not of the raw response. Projection keeps the declared object shape of each
 * selected field's result path and walks `*` arrays record by record
 * (docs/runtime/field-projection.md), so the schema is built from the selected fields: objects and
 * arrays along their result paths, and at each leaf the locked schema of the raw value at its source
 * path. Nothing is required (a missing optional value stays missing), a leaf whose raw schema cannot
 * be followed plainly (compositions, foreign references) or whose value is unit-normalized is left
 * open, so the schema never refuses a result the boundary produced. MCP wants an object at the root:
 * any other result is wrapped as `{ "result": … }`.
 */
import { modelSchemaNode } from "../agents/model-schema.js";
import { WILDCARD } from "../boundary/projection.js";
import { type FieldSpec, type JsonSchema, type JsonValue, resultPathOf } from "../model/specs.js";

export interface ServedOutput {
  /** A JSON Schema whose root is `type: "object"`. */
  readonly schema: Readonly<Record<string, JsonValue>>;
  /** True when results are sent as `{ result: data }`. */
  readonly wrapped: boolean;
}

type Node =
  | { readonly kind: "object"; readonly properties: Map<string, Node> }
  | { kind: "array"; items: Node | undefined }
  | { readonly kind: "leaf"; readonly schema: JsonSchema };

type SchemaObject = Readonly<Record<string, JsonValue>>;

/**
 * `effective` is the endpoint's self-contained locked output schema; `fields` the selection the tool
 * returns; `declaresFields` whether the endpoint declares any field (without any, the whole validated
 * raw output is returned).
 */
export function servedOutputSchema(
  effective: JsonSchema,
  fields: readonly FieldSpec[],
  declaresFields: boolean,
): ServedOutput {
  const defs = defsOf(effective);
  let shape: JsonSchema;
  if (!declaresFields) shape = effective;
  else {
    const root: Node = { kind: "object", properties: new Map() };
    let top: Node = root;
    for (const field of fields) top = insert(top, resultPathOf(field), leafOf(effective, field, defs));
    shape = render(top);
    const used = referencedDefs(shape, defs);
    if (used.length > 0 && typeof shape === "object") {
      shape = { ...shape, $defs: Object.fromEntries(used.map((name) => [name, defs[name]!])) };
    }
  }
  const rendered = modelSchemaNode(shape);
  if (isObjectRooted(shape, defs) && typeof rendered === "object" && rendered !== null) {
    return { schema: rendered as SchemaObject, wrapped: false };
  }
  const { $defs, ...inner } =
    typeof rendered === "object" && rendered !== null ? (rendered as SchemaObject) : {};
  const result = typeof rendered === "boolean" ? rendered : inner;
  return {
    schema: Object.freeze({
      type: "object",
      properties: { result },
      required: ["result"],
      ...($defs !== undefined ? { $defs } : {}),
    }),
    wrapped: true,
  };
}

function defsOf(schema: JsonSchema): Readonly<Record<string, JsonSchema>> {
  if (typeof schema !== "object") return {};
  const defs = schema.$defs;
  return defs !== null && typeof defs === "object" && !Array.isArray(defs)
    ? (defs as Record<string, JsonSchema>)
    : {};
}

/** Adds one field's leaf at its result path; returns the (possibly new) top node. */
function insert(top: Node, path: readonly string[], leaf: JsonSchema): Node {
  if (path.length === 0) return { kind: "leaf", schema: leaf };
  const [head, ...rest] = path as [string, ...string[]];
  if (head === WILDCARD) {
    const array: Node = top.kind === "array" ? top : { kind: "array", items: undefined };
    if (array.kind === "array")
      array.items = insert(array.items ?? { kind: "object", properties: new Map() }, rest, leaf);
    return array;
  }
  const object: Node = top.kind === "object" ? top : { kind: "object", properties: new Map() };
  if (object.kind === "object") {
    const child = object.properties.get(head) ?? { kind: "object", properties: new Map() };
    object.properties.set(head, insert(child, rest, leaf));
  }
  return object;
}

function render(node: Node): JsonSchema {
  if (node.kind === "leaf") return node.schema;
  if (node.kind === "array") return { type: "array", ...(node.items ? { items: render(node.items) } : {}) };
  const properties: Record<string, JsonValue> = {};
  for (const [name, child] of node.properties) properties[name] = render(child);
  return { type: "object", properties };
}

/** The locked schema of a field's raw value, or `{}` (any) when it cannot be followed plainly. */
function leafOf(effective: JsonSchema, field: FieldSpec, defs: Readonly<Record<string, JsonSchema>>) {
  if (field.normalization !== undefined) return {};
  let current: JsonSchema | undefined = effective;
  for (const segment of field.path) {
    current = resolve(current, defs);
    if (current === undefined || typeof current !== "object") return {};
    const next: JsonValue | undefined =
      segment === WILDCARD ? current.items : objectOf(current.properties)?.[segment];
    if (next === undefined || next === null || (typeof next !== "object" && typeof next !== "boolean"))
      return {};
    current = next as JsonSchema;
  }
  return current ?? {};
}

function objectOf(value: JsonValue | undefined): Readonly<Record<string, JsonValue>> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, JsonValue>)
    : undefined;
}

/** Follows local `#/$defs/<name>` references (a bounded number of hops). */
function resolve(schema: JsonSchema | undefined, defs: Readonly<Record<string, JsonSchema>>) {
  let current = schema;
  for (let hops = 0; hops < 32 && typeof current === "object" && typeof current.$ref === "string"; hops++) {
    const name = /^#\/\$defs\/([^/]+)$/.exec(current.$ref)?.[1];
    if (name === undefined || !Object.hasOwn(defs, name)) return undefined;
    current = defs[name];
  }
  return current;
}

function isObjectRooted(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): boolean {
  const root = resolve(schema, defs);
  return typeof root === "object" && root.type === "object";
}

/** Names of the definitions `schema` refers to, transitively, in a stable order. */
function referencedDefs(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): string[] {
  const found = new Set<string>();
  const visit = (node: JsonValue): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const name = /^#\/\$defs\/([^/]+)$/.exec(value)?.[1];
        if (name !== undefined && Object.hasOwn(defs, name) && !found.has(name)) {
          found.add(name);
          visit(defs[name]!);
        }
      } else visit(value);
    }
  };
  visit(schema);
  return [...found].sort();
}
