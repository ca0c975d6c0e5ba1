/**
 * Builds the GraphQL operation text of one call (docs/sources/graphql.md "Queries the runtime
 * sends"): the locked root field, one variable per argument the call passes (values never enter the
 * text), and a selection set of exactly the planned fields, the identifier fields of every object
 * they reach, and `__typename` at interface and union positions. Every name is checked against the
 * GraphQL name grammar and every variable type against the type grammar before it is written.
 */
import { CallRefusedError } from "../../errors/errors.js";
import type { FieldSpec, GraphqlExecution } from "../../model/specs.js";

/** GraphQL "Names" (spec §2.1.9). */
export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Bounds of one built selection set (the compiler's bounds are lower; these refuse a tampered contract). */
export interface SelectionBounds {
  readonly maxDepth: number;
  readonly maxSelections: number;
}

export const DEFAULT_SELECTION_BOUNDS: SelectionBounds = { maxDepth: 12, maxSelections: 2000 };

export interface BuiltQuery {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

interface Node {
  readonly children: Map<string, Node>;
}

/** The operation text and variables for `args` and the selected fields. */
export function buildQuery(
  execution: GraphqlExecution,
  selected: readonly FieldSpec[],
  identifiers: readonly FieldSpec[],
  args: Readonly<Record<string, unknown>>,
  route: string,
  bounds: SelectionBounds = DEFAULT_SELECTION_BOUNDS,
): BuiltQuery {
  name(execution.field, route);
  const declarations: string[] = [];
  const passed: string[] = [];
  const variables: Record<string, unknown> = {};
  for (const argument of Object.keys(execution.variables).sort()) {
    if (args[argument] === undefined) continue;
    name(argument, route);
    declarations.push(`$${argument}: ${variableType(execution.variables[argument]!, route)}`);
    passed.push(`${argument}: $${argument}`);
    variables[argument] = args[argument];
  }
  for (const argument of Object.keys(args)) {
    if (args[argument] !== undefined && !Object.hasOwn(execution.variables, argument))
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: "${argument}" is not an argument of the GraphQL field ${execution.field}; pass declared arguments only.`,
        { route, argument, reason: "graphql-contract" },
      );
  }
  const root: Node = { children: new Map() };
  let count = 0;
  const insert = (field: FieldSpec): void => {
    const segments = positionOf(field, execution.field, route);
    if (segments.length > bounds.maxDepth) tooBig(route, `deeper than ${bounds.maxDepth} levels`);
    let node = root;
    for (const segment of segments) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment, child);
        count += 1;
        if (count > bounds.maxSelections) tooBig(route, `more than ${bounds.maxSelections} fields`);
      }
      node = child;
    }
  };
  for (const field of selected) insert(field);
  // Identifiers of every object position the planned fields reach (docs/sources/graphql.md).
  for (const field of identifiers) {
    const segments = positionOf(field, execution.field, route);
    if (hasPosition(root, segments.slice(0, -1))) insert(field);
  }
  const selection = render(root, "", execution, route);
  const header = declarations.length > 0 ? `(${declarations.join(", ")})` : "";
  const call = passed.length > 0 ? `(${passed.join(", ")})` : "";
  return {
    query: `${execution.operation} SchemaRouterCall${header} { ${execution.field}${call}${selection} }`,
    variables,
  };
}

/** The field names below the root of a field's path (`*` steps are list items, not fields). */
function positionOf(field: FieldSpec, rootField: string, route: string): string[] {
  const [first, ...rest] = field.path;
  if (first !== rootField) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: field "${field.id}" does not start at the root field ${rootField}; re-run \`schemarouter compile\`.`,
      { route, reason: "graphql-contract" },
    );
  }
  const segments = rest.filter((segment) => segment !== "*");
  for (const segment of segments) name(segment, route);
  return segments;
}

function hasPosition(root: Node, segments: readonly string[]): boolean {
  let node: Node | undefined = root;
  for (const segment of segments) {
    node = node.children.get(segment);
    if (node === undefined) return false;
  }
  return true;
}

function render(node: Node, position: string, execution: GraphqlExecution, route: string): string {
  if (node.children.size === 0) return "";
  const { abstract, unions } = execution.selection;
  const parts: string[] = abstract.includes(position) ? ["__typename"] : [];
  const union = Object.hasOwn(unions, position) ? unions[position] : undefined;
  const byType = new Map<string, string[]>();
  for (const [child, grandchild] of node.children) {
    const text = `${child}${render(grandchild, position === "" ? child : `${position}.${child}`, execution, route)}`;
    if (union === undefined) {
      parts.push(text);
      continue;
    }
    const types = Object.hasOwn(union, child) ? union[child]! : [];
    if (types.length === 0) {
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: the union at "${position}" declares no member type for "${child}"; re-run \`schemarouter compile\`.`,
        { route, reason: "graphql-contract" },
      );
    }
    for (const type of types) {
      name(type, route);
      const list = byType.get(type) ?? [];
      list.push(text);
      byType.set(type, list);
    }
  }
  for (const type of [...byType.keys()].sort())
    parts.push(`... on ${type} { ${byType.get(type)!.join(" ")} }`);
  return ` { ${parts.join(" ")} }`;
}

function name(value: string, route: string): string {
  if (!GRAPHQL_NAME.test(value)) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: ${JSON.stringify(value.slice(0, 60))} is not a GraphQL name; the contract was not written by \`schemarouter compile\`.`,
      { route, reason: "graphql-name" },
    );
  }
  return value;
}

/** A GraphQL type reference (spec §2.11): a name, or `[Type]`, each optionally followed by `!`. */
function variableType(text: string, route: string): string {
  let at = 0;
  const parse = (): boolean => {
    if (text[at] === "[") {
      at += 1;
      if (!parse() || text[at] !== "]") return false;
      at += 1;
    } else {
      const match = /^[_A-Za-z][_0-9A-Za-z]*/.exec(text.slice(at));
      if (match === null) return false;
      at += match[0].length;
    }
    if (text[at] === "!") at += 1;
    return true;
  };
  if (text.length > 200 || !parse() || at !== text.length) {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: ${JSON.stringify(text.slice(0, 60))} is not a GraphQL type reference; the contract was not written by \`schemarouter compile\`.`,
      { route, reason: "graphql-name" },
    );
  }
  return text;
}

function tooBig(route: string, what: string): never {
  throw new CallRefusedError(
    "TRANSPORT_REFUSED",
    `${route}: the selection set would be ${what}; select fewer fields.`,
    { route, reason: "graphql-selection" },
  );
}
