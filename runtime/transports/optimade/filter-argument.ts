/**
 * Local validation of an OPTIMADE `filter` argument before any request (OPTIMADE v1.2 "API Filtering
 * Format Specification", "Handling unknown property names"): the text must follow the filter
 * grammar, and every property it names must be declared by the endpoint, be a relationship to a
 * served entry type, or carry a database-provider-specific prefix (which the provider resolves).
 */
import type { ErrorDetailsOf } from "../../errors/errors.js";
import { decodePointerToken } from "../../model/json-pointer.js";
import type { FieldSpec, JsonSchema, ToolSpec } from "../../model/specs.js";
import type { Operand, PropertyRef } from "./filter/ast.js";
import { checkFilter } from "./filter/check.js";
import { caretFrame, FilterQueryError } from "./filter/errors.js";
import { type FilterNode, parseFilter } from "./filter/parser.js";
import {
  type FilterPropertyType,
  type FilterPropertyTypes,
  filterTypesOfDefinitions,
} from "./filter/types.js";

/** Names a filter may use for an endpoint: its declared top-level properties and the served entry types. */
export function filterableNames(tool: ToolSpec, fields: readonly FieldSpec[]): Set<string> {
  const names = new Set<string>();
  for (const field of fields) {
    const path = field.path[1] === "*" ? field.path.slice(2) : field.path.slice(1);
    if (field.path[0] !== "data") continue;
    if (path.length === 1 && (path[0] === "id" || path[0] === "type")) names.add(path[0]);
    if (path.length === 2 && path[0] === "attributes" && path[1] !== undefined) names.add(path[1]);
  }
  for (const endpoint of tool.endpoints) {
    if (endpoint.execution.kind === "optimade") names.add(endpoint.execution.entryType);
  }
  return names;
}

/**
 * Parses the filter (FilterSyntaxError, code INVALID_FILTER, with a caret at the offending position)
 * and refuses undeclared unprefixed properties (FilterQueryError, code UNKNOWN_FILTER_PROPERTY, with
 * the caret frame also in `details.frame`).
 */
export function checkFilterArgument(
  text: string,
  declared: ReadonlySet<string>,
  route: string,
  types?: FilterPropertyTypes,
): FilterNode {
  const node = parseFilter(text);
  for (const property of propertyRefs(node)) {
    const name = property.path[0] ?? property.name;
    if (declared.has(name) || /^_[a-z0-9]+_/.test(name)) continue;
    // The frame quotes the filter (an argument value): it is in the message for direct callers and
    // in details; run events carry a structural message instead unless the run includes payloads.
    const frame = caretFrame(text, property.span.start);
    const details: ErrorDetailsOf<"UNKNOWN_FILTER_PROPERTY"> = {
      status: 400,
      position: property.span.start,
      property: name,
      frame,
    };
    throw new FilterQueryError(
      "UNKNOWN_FILTER_PROPERTY",
      `${route}: the filter names "${name}", which this endpoint does not declare. Use one of ${[...declared].sort().join(", ")}, or a provider-prefixed property (_prefix_name).\n${frame}`,
      details,
    );
  }
  // Values against the declared types (a string for an integer, a timestamp that is not RFC 3339, …):
  // refused here, so a request the caller built wrongly never reaches the provider, and never counts
  // against its availability. Prefixed properties are the provider's: never refused by this check.
  if (types !== undefined) {
    try {
      checkFilter(
        node,
        { properties: typesFor(node, declared, types), providerPrefix: "" },
        { source: text },
      );
    } catch (error) {
      if (!(error instanceof FilterQueryError) || error.code === "UNKNOWN_FILTER_PROPERTY") throw error;
      throw new FilterQueryError(error.code, `${route}: ${error.message}`, error.details);
    }
  }
  return node;
}

/**
 * The types the typed checker sees: the declared types, and an untyped (never checked) entry for every
 * other name the endpoint allows (relationships to served entry types) and every provider-prefixed
 * property the filter names.
 */
function typesFor(
  node: FilterNode,
  declared: ReadonlySet<string>,
  types: FilterPropertyTypes,
): FilterPropertyTypes {
  const untyped: FilterPropertyType = { type: "_untyped" };
  const out: Record<string, FilterPropertyType> = {};
  for (const name of declared) out[name] = untyped;
  for (const property of propertyRefs(node)) out[property.path[0] ?? property.name] ??= untyped;
  return { ...out, ...types };
}

/**
 * The filter types of an entry endpoint's properties, read off its locked output schema (the
 * `x-optimade-type` each compiled property carries, OPTIMADE v1.2 "Property Definitions"): the
 * `attributes` of one entry, plus `id` and `type`. Undefined when the schema does not have that shape.
 */
export function filterTypesOfOutput(schema: JsonSchema | undefined): FilterPropertyTypes | undefined {
  if (schema === undefined || typeof schema === "boolean") return undefined;
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const resolve = (value: unknown): Record<string, unknown> | undefined => {
    let current = value;
    for (let hops = 0; hops < 8 && isObject(current) && typeof current.$ref === "string"; hops++) {
      const ref = current.$ref;
      current = ref.startsWith("#/$defs/")
        ? defs[decodePointerToken(ref.slice("#/$defs/".length))]
        : undefined;
    }
    return isObject(current) ? current : undefined;
  };
  const member = (value: Record<string, unknown> | undefined, name: string) =>
    isObject(value?.properties) ? resolve(value.properties[name]) : undefined;
  const data = member(resolve(schema), "data");
  // A listing's `data` is an array of entries; a single-entry endpoint's is the entry itself.
  const entry = data !== undefined && data.items !== undefined ? resolve(data.items) : data;
  const properties = member(entry, "attributes")?.properties;
  if (!isObject(properties)) return undefined;
  const resolved: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(properties))
    resolved[name] = resolveDeep(definition, resolve);
  return { id: { type: "string" }, type: { type: "string" }, ...filterTypesOfDefinitions(resolved) };
}

/** A property definition with `$ref`s resolved in its `items` and `properties` (a few levels deep). */
function resolveDeep(
  value: unknown,
  resolve: (value: unknown) => Record<string, unknown> | undefined,
  depth = 0,
): unknown {
  const node = resolve(value);
  if (node === undefined || depth > 6) return node;
  const out: Record<string, unknown> = { ...node };
  if (node.items !== undefined) out.items = resolveDeep(node.items, resolve, depth + 1);
  if (isObject(node.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node.properties))
      properties[key] = resolveDeep(inner, resolve, depth + 1);
    out.properties = properties;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every property reference of the filter, in text order. */
function propertyRefs(node: FilterNode): PropertyRef[] {
  const out: PropertyRef[] = [];
  const operand = (value: Operand): void => {
    if (value.kind === "property") out.push(value);
  };
  const visit = (current: FilterNode): void => {
    switch (current.kind) {
      case "or":
      case "and":
        for (const child of current.operands) visit(child);
        return;
      case "not":
        visit(current.operand);
        return;
      case "compare":
        operand(current.left);
        operand(current.right);
        return;
      case "fuzzy":
      case "length":
        out.push(current.property);
        operand(current.value);
        return;
      case "known":
      case "property":
        out.push(current.property);
        return;
      case "has":
        out.push(...current.properties);
        for (const tuple of current.values) for (const test of tuple) operand(test.value);
        return;
    }
  };
  visit(node);
  return out.sort((a, b) => a.span.start - b.span.start);
}
