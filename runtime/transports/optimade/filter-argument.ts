/**
 * Local validation of an OPTIMADE `filter` argument before any request (OPTIMADE v1.2 "API Filtering
 * Format Specification", "Handling unknown property names"): the text must follow the filter
 * grammar, and every property it names must be declared by the endpoint, be a relationship to a
 * served entry type, or carry a database-provider-specific prefix (which the provider resolves).
 */
import type { ErrorDetailsOf } from "../../errors/errors.js";
import type { FieldSpec, ToolSpec } from "../../model/specs.js";
import type { Operand, PropertyRef } from "./filter/ast.js";
import { caretFrame, FilterQueryError } from "./filter/errors.js";
import { type FilterNode, parseFilter } from "./filter/parser.js";

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
export function checkFilterArgument(text: string, declared: ReadonlySet<string>, route: string): FilterNode {
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
  return node;
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
