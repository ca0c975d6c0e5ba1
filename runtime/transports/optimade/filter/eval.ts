/**
 * Evaluates a parsed OPTIMADE filter against one entry (its `id`, `type` and attributes), with the
 * semantics of the spec's "The Filter Language Syntax": numbers, strings (lexicographic) and
 * timestamps (temporal, when declared) compare with `= != < <= > >=`; a comparison involving an
 * unknown (`null` or absent) value never matches, only `IS UNKNOWN` / `NOT … IS KNOWN` do; HAS,
 * HAS ALL/ANY/ONLY (also correlated `a:b HAS x:y`) test list items; LENGTH counts them; a nested
 * name through a list of dictionaries is the flattened list of the inner values (a comparison on it
 * matches when one item does). Comparing values of different types throws UNSUPPORTED_FILTER (501).
 */
import type {
  ComparisonOperator,
  FilterNode,
  FuzzyOperator,
  Operand,
  PropertyRef,
  ValueTest,
} from "./ast.js";
import { FilterQueryError } from "./errors.js";
import { parseRfc3339 } from "./time.js";
import { type FilterPropertyTypes, resolvePropertyType } from "./types.js";

export interface EvaluateFilterOptions {
  /** Declared property types: properties of type `timestamp` are compared as points in time. */
  readonly properties?: FilterPropertyTypes;
}

type Resolved =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "flattened"; readonly values: readonly unknown[] };

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isUnknown = (value: unknown): boolean => value === null || value === undefined;

function spread(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The value of a (nested) property of `entry`; a path through a list yields a flattened list. */
function resolve(entry: Readonly<Record<string, unknown>>, path: readonly string[]): Resolved {
  let current: unknown = entry;
  let flattened: unknown[] | undefined;
  for (const segment of path) {
    const at = (item: unknown): unknown => (isRecord(item) ? item[segment] : undefined);
    if (flattened !== undefined) flattened = flattened.flatMap((item) => spread(at(item)));
    else if (Array.isArray(current)) flattened = current.flatMap((item) => spread(at(item)));
    else current = at(current);
  }
  return flattened === undefined
    ? { kind: "value", value: current }
    : { kind: "flattened", values: flattened };
}

function unsupported(construct: string, advice: string, position?: number): never {
  throw new FilterQueryError("UNSUPPORTED_FILTER", `Filter not supported: ${construct}. ${advice}`, {
    status: 501,
    construct,
    ...(position === undefined ? {} : { position }),
  });
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? "list" : value === null ? "null" : typeof value;
}

class Evaluator {
  constructor(
    private readonly entry: Readonly<Record<string, unknown>>,
    private readonly types: FilterPropertyTypes,
  ) {}

  evaluate(node: FilterNode): boolean {
    switch (node.kind) {
      case "or":
        return node.operands.some((operand) => this.evaluate(operand));
      case "and":
        return node.operands.every((operand) => this.evaluate(operand));
      case "not":
        return !this.evaluate(node.operand);
      case "compare": {
        if (node.left.kind === "string" && node.right.kind === "string") {
          unsupported(
            "comparing two string constants",
            "Compare a property with a value instead.",
            node.span.start,
          );
        }
        const timestamp = this.isTimestamp(node.left) || this.isTimestamp(node.right);
        const left = this.candidates(node.left);
        const right = this.candidates(node.right);
        return left.some((a) => right.some((b) => compare(a, node.op, b, timestamp, node.span.start)));
      }
      case "fuzzy": {
        const values = this.candidates(node.value);
        return this.candidates(node.property).some((a) =>
          values.some((b) => fuzzy(a, node.op, b, node.span.start)),
        );
      }
      case "known": {
        const known = this.isKnown(node.property);
        return node.op === "IS KNOWN" ? known : !known;
      }
      case "property": {
        const resolved = resolve(this.entry, node.property.path);
        const values = resolved.kind === "flattened" ? resolved.values : [resolved.value];
        return values.some((value) => (typeof value === "boolean" ? value : !isUnknown(value)));
      }
      case "length": {
        const list = this.list(node.property);
        if (list === undefined) return false;
        return this.candidates(node.value).some((b) =>
          compare(list.length, node.op, b, false, node.span.start),
        );
      }
      case "has":
        return this.has(node.properties, node.op, node.values);
    }
  }

  private has(
    properties: readonly PropertyRef[],
    op: "HAS" | "HAS ALL" | "HAS ANY" | "HAS ONLY",
    tuples: readonly (readonly ValueTest[])[],
  ): boolean {
    const lists: (readonly unknown[])[] = [];
    for (const property of properties) {
      const list = this.list(property);
      if (list === undefined) return false;
      lists.push(list);
    }
    const timestamps = properties.map((property) => this.isTimestamp(property));
    const positions = Math.max(...lists.map((list) => list.length));
    const matchesAt = (tuple: readonly ValueTest[], index: number): boolean =>
      tuple.every((test, k) => this.test(test, lists[k]?.[index], timestamps[k] ?? false));
    const anyPosition = (tuple: readonly ValueTest[]): boolean => {
      for (let index = 0; index < positions; index++) if (matchesAt(tuple, index)) return true;
      return false;
    };
    switch (op) {
      case "HAS":
      case "HAS ANY":
        return tuples.some(anyPosition);
      case "HAS ALL":
        return tuples.every(anyPosition);
      case "HAS ONLY":
        for (let index = 0; index < positions; index++) {
          if (!tuples.some((tuple) => matchesAt(tuple, index))) return false;
        }
        return true;
    }
  }

  private test(test: ValueTest, item: unknown, timestamp: boolean): boolean {
    if (isUnknown(item)) return false;
    const values = this.candidates(test.value);
    if (test.kind === "fuzzy") return values.some((b) => fuzzy(item, test.op, b, test.span.start));
    return values.some((b) => compare(item, test.op, b, timestamp, test.span.start));
  }

  /** The known values an operand stands for: one for a constant or scalar, the items of a flattened list. */
  private candidates(operand: Operand): readonly unknown[] {
    if (operand.kind !== "property") return [operand.value];
    const resolved = resolve(this.entry, operand.path);
    if (resolved.kind === "flattened") return resolved.values.filter((value) => !isUnknown(value));
    if (isUnknown(resolved.value)) return [];
    if (Array.isArray(resolved.value)) {
      unsupported(
        `comparing the list property "${operand.name}" with a single value`,
        "Use HAS, HAS ALL, HAS ANY, HAS ONLY or LENGTH.",
        operand.span.start,
      );
    }
    return [resolved.value];
  }

  /** The items of a list property (or flattened path); `undefined` when unknown. */
  private list(property: PropertyRef): readonly unknown[] | undefined {
    const resolved = resolve(this.entry, property.path);
    if (resolved.kind === "flattened") return resolved.values;
    if (isUnknown(resolved.value)) return undefined;
    if (!Array.isArray(resolved.value)) {
      unsupported(
        `a list operator on "${property.name}", which is a ${typeName(resolved.value)}`,
        "HAS and LENGTH apply to list properties only.",
        property.span.start,
      );
    }
    return resolved.value;
  }

  private isKnown(property: PropertyRef): boolean {
    const resolved = resolve(this.entry, property.path);
    if (resolved.kind === "flattened") return resolved.values.some((value) => !isUnknown(value));
    return !isUnknown(resolved.value);
  }

  private isTimestamp(operand: Operand): boolean {
    if (operand.kind !== "property") return false;
    const resolved = resolvePropertyType(this.types, operand.path);
    let type = resolved.type;
    while (type?.type === "list") type = type.items;
    return type?.type === "timestamp";
  }
}

function compare(
  a: unknown,
  op: ComparisonOperator,
  b: unknown,
  timestamp: boolean,
  position: number,
): boolean {
  let left = a;
  let right = b;
  if (timestamp && typeof a === "string" && typeof b === "string") {
    left = parseRfc3339(a);
    right = parseRfc3339(b);
    if (left === undefined || right === undefined) {
      const bad = left === undefined ? a : b;
      throw new FilterQueryError(
        "INVALID_FILTER_VALUE",
        `The value ${JSON.stringify(bad)} is compared with a timestamp but is not an RFC 3339 date-time; write it like "2024-01-31T12:00:00Z".`,
        { status: 400, position },
      );
    }
  }
  const kind = typeof left;
  if (kind !== typeof right || (kind !== "number" && kind !== "string" && kind !== "boolean")) {
    unsupported(
      `comparing a ${typeName(a)} with a ${typeName(b)}`,
      "Compare values of the same type (the filter language has no type conversion).",
      position,
    );
  }
  if (kind === "boolean" && op !== "=" && op !== "!=") {
    unsupported(`"${op}" on booleans`, "Booleans support only = and !=.", position);
  }
  const l = left as number | string;
  const r = right as number | string;
  switch (op) {
    case "=":
      return l === r;
    case "!=":
      return l !== r;
    case "<":
      return l < r;
    case "<=":
      return l <= r;
    case ">":
      return l > r;
    case ">=":
      return l >= r;
  }
}

function fuzzy(a: unknown, op: FuzzyOperator, b: unknown, position: number): boolean {
  if (typeof a !== "string" || typeof b !== "string") {
    unsupported(
      `${op} on a ${typeName(a)} with a ${typeName(b)}`,
      "Substring operators apply to strings only.",
      position,
    );
  }
  if (op === "CONTAINS") return a.includes(b);
  return op === "STARTS WITH" ? a.startsWith(b) : a.endsWith(b);
}

/**
 * Whether `entry` (a flat record of `id`, `type` and the attributes) matches `node`. Throws
 * FilterQueryError UNSUPPORTED_FILTER (501) for type mismatches and INVALID_FILTER_VALUE (400)
 * for a timestamp comparison with a string that is not RFC 3339.
 */
export function evaluateFilter(
  node: FilterNode,
  entry: Readonly<Record<string, unknown>>,
  options: EvaluateFilterOptions = {},
): boolean {
  return new Evaluator(entry, options.properties ?? {}).evaluate(node);
}
