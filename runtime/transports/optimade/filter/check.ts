/**
 * Checks a parsed filter against the declared properties of an entry type before it is served, with
 * the statuses the OPTIMADE spec prescribes: an unknown property without a prefix, or with the
 * provider's own prefix, is a 400 ("Handling unknown property names"); one with another provider's
 * prefix is treated as unknown (a warning when the prefix is not recognized); comparisons of values
 * of different types, string constants compared with each other and numbers outside the float64
 * range are 501; a string that is not an RFC 3339 timestamp compared with a timestamp is a 400.
 */
import type { FilterNode, Operand, PropertyRef, Span, ValueTest } from "./ast.js";
import { caretFrame, FilterQueryError } from "./errors.js";
import { parseRfc3339 } from "./time.js";
import { type FilterPropertyType, type FilterPropertyTypes, resolvePropertyType } from "./types.js";

export interface FilterSchema {
  /** Declared properties of the entry type (relationships such as `references` included). */
  readonly properties: FilterPropertyTypes;
  /** The provider's own database-specific prefix, without underscores (e.g. `exmpl`). */
  readonly providerPrefix: string;
  /** Prefixes of other providers the server recognizes: their properties are unknown without a warning. */
  readonly knownPrefixes?: readonly string[];
}

export interface FilterWarning {
  readonly property: string;
  readonly prefix: string;
  readonly detail: string;
}

export interface CheckFilterOptions {
  /** The filter text, to show the offending position in error messages. */
  readonly source?: string;
}

/** What a value is, for type matching. `undefined` means "not known here": no type check. */
type ValueKind = "number" | "string" | "timestamp" | "boolean" | "list" | "dictionary" | undefined;

interface Shape {
  readonly kind: ValueKind;
  /** Item type when the property is a list or a flattened path. */
  readonly item: FilterPropertyType | undefined;
  readonly list: boolean;
  readonly flattened: boolean;
}

function kindOfType(type: FilterPropertyType | undefined): ValueKind {
  switch (type?.type) {
    case "integer":
    case "float":
      return "number";
    case "string":
    case "timestamp":
    case "boolean":
    case "list":
    case "dictionary":
      return type.type;
    default:
      return undefined;
  }
}

/**
 * Refuses what an OPTIMADE server must refuse and returns warnings for properties treated as
 * unknown. Throws FilterQueryError (UNKNOWN_FILTER_PROPERTY, INVALID_FILTER_VALUE: 400;
 * UNSUPPORTED_FILTER: 501).
 */
export function checkFilter(
  node: FilterNode,
  schema: FilterSchema,
  options: CheckFilterOptions = {},
): { warnings: FilterWarning[] } {
  const warnings = new Map<string, FilterWarning>();
  const at = (span: Span): string =>
    options.source === undefined ? "" : `\n${caretFrame(options.source, span.start)}`;
  const unsupported = (span: Span, construct: string, advice: string): never => {
    throw new FilterQueryError(
      "UNSUPPORTED_FILTER",
      `Filter not supported: ${construct}. ${advice}${at(span)}`,
      {
        status: 501,
        position: span.start,
        construct,
      },
    );
  };

  const shapeOf = (property: PropertyRef): Shape => {
    const resolved = resolvePropertyType(schema.properties, property.path);
    if (!resolved.declared) noteUndeclared(property);
    const { type, flattened } = resolved;
    if (flattened) return { kind: kindOfType(type), item: type, list: true, flattened };
    return { kind: kindOfType(type), item: type?.items, list: type?.type === "list", flattened };
  };

  const noteUndeclared = (property: PropertyRef): void => {
    const name = property.path[0] ?? property.name;
    const prefix = name.startsWith("_") ? (name.slice(1).split("_")[0] ?? "") : undefined;
    if (prefix === undefined || prefix === schema.providerPrefix) {
      const declared = Object.keys(schema.properties).sort();
      throw new FilterQueryError(
        "UNKNOWN_FILTER_PROPERTY",
        `Unknown property "${name}" in filter: this entry type declares ${declared.join(", ")}. ` +
          `Use a declared property (see /info/<entry_type>).${at(property.span)}`,
        { status: 400, position: property.span.start, property: name },
      );
    }
    if (!(schema.knownPrefixes ?? []).includes(prefix) && !warnings.has(name)) {
      warnings.set(name, {
        property: name,
        prefix,
        detail: `The prefix "_${prefix}_" of "${name}" is not recognized; the property was treated as unknown (null).`,
      });
    }
  };

  /** Kind of one operand compared as a single value: a property's (item) kind, or the constant's. */
  const operandKind = (operand: Operand): ValueKind => {
    if (operand.kind !== "property") return operand.kind;
    const shape = shapeOf(operand);
    if (shape.list && !shape.flattened) {
      unsupported(
        operand.span,
        `comparing the list property "${operand.name}" with a single value`,
        "Use HAS, HAS ALL, HAS ANY, HAS ONLY or LENGTH.",
      );
    }
    if (shape.kind === "dictionary") {
      unsupported(
        operand.span,
        `comparing the dictionary property "${operand.name}"`,
        "Compare one of its keys, e.g. name.key.",
      );
    }
    return shape.flattened ? kindOfType(shape.item) : shape.kind;
  };

  const matchKinds = (
    left: ValueKind,
    right: ValueKind,
    op: string,
    rightOperand: Operand,
    span: Span,
  ): void => {
    if (left === undefined || right === undefined) return;
    if (left === "timestamp" || right === "timestamp") {
      const other = left === "timestamp" ? right : left;
      if (other !== "timestamp" && other !== "string") {
        unsupported(
          span,
          `comparing a timestamp with a ${other}`,
          'Compare timestamps with RFC 3339 strings, e.g. "2024-01-31T12:00:00Z".',
        );
      }
      if (rightOperand.kind === "string" && parseRfc3339(rightOperand.value) === undefined) {
        throw new FilterQueryError(
          "INVALID_FILTER_VALUE",
          `The value ${JSON.stringify(rightOperand.value)} is compared with a timestamp but is not an RFC 3339 date-time; write it like "2024-01-31T12:00:00Z".${at(rightOperand.span)}`,
          { status: 400, position: rightOperand.span.start },
        );
      }
      return;
    }
    if (left !== right)
      unsupported(
        span,
        `comparing a ${left} with a ${right}`,
        "Compare values of the same type (the filter language has no type conversion).",
      );
    if (left === "boolean" && op !== "=" && op !== "!=")
      unsupported(span, `"${op}" on booleans`, "Booleans support only = and !=.");
  };

  const checkTest = (test: ValueTest, item: FilterPropertyType | undefined): void => {
    const itemKind = kindOfType(item);
    const valueKind = operandKind(test.value);
    if (test.kind === "fuzzy") {
      if (itemKind !== undefined && itemKind !== "string")
        unsupported(
          test.span,
          `${test.op} on ${itemKind} items`,
          "Substring operators apply to strings only.",
        );
      if (valueKind !== undefined && valueKind !== "string")
        unsupported(test.value.span, `${test.op} with a ${valueKind} operand`, "Use a string.");
      return;
    }
    matchKinds(itemKind, valueKind, test.op, test.value, test.span);
  };

  const visit = (current: FilterNode): void => {
    switch (current.kind) {
      case "or":
      case "and":
        for (const operand of current.operands) visit(operand);
        return;
      case "not":
        visit(current.operand);
        return;
      case "compare": {
        const left = operandKind(current.left);
        const right = operandKind(current.right);
        if (current.left.kind === "string" && current.right.kind === "string") {
          unsupported(
            current.span,
            "comparing two string constants",
            "Compare a property with a value instead.",
          );
        }
        const [constantSide, otherKind, propertyKind] =
          current.left.kind === "property" ? [current.right, right, left] : [current.left, left, right];
        matchKinds(propertyKind, otherKind, current.op, constantSide, current.span);
        return;
      }
      case "fuzzy": {
        const kind = operandKind(current.property);
        if (kind !== undefined && kind !== "string")
          unsupported(
            current.span,
            `${current.op} on a ${kind} property`,
            "Substring operators apply to string properties only.",
          );
        const valueKind = operandKind(current.value);
        if (valueKind !== undefined && valueKind !== "string")
          unsupported(current.value.span, `${current.op} with a ${valueKind} operand`, "Use a string.");
        return;
      }
      case "length": {
        const shape = shapeOf(current.property);
        if (shape.kind !== undefined && !shape.list)
          unsupported(
            current.span,
            `LENGTH of a ${shape.kind} property`,
            "LENGTH applies to list properties only.",
          );
        const valueKind = operandKind(current.value);
        if (valueKind !== undefined && valueKind !== "number")
          unsupported(
            current.value.span,
            `LENGTH compared with a ${valueKind}`,
            "Compare LENGTH with an integer.",
          );
        return;
      }
      case "has":
        current.properties.forEach((property, index) => {
          const shape = shapeOf(property);
          if (shape.kind !== undefined && !shape.list)
            unsupported(
              property.span,
              `HAS on the ${shape.kind} property "${property.name}"`,
              "HAS applies to list properties only.",
            );
          for (const tuple of current.values) {
            const test = tuple[index];
            if (test !== undefined) checkTest(test, shape.item);
          }
        });
        return;
      case "known":
      case "property":
        shapeOf(current.property);
        return;
    }
  };

  visit(node);
  visitNumbers(node, (operand) => {
    if (
      !Number.isFinite(operand.value) ||
      (operand.value === 0 && /[1-9]/.test(operand.raw.split(/[eE]/)[0] ?? ""))
    ) {
      unsupported(
        operand.span,
        `the number ${operand.raw} outside the float64 range`,
        "Use numbers whose magnitude is 0 or between about 5e-324 and 1.8e308.",
      );
    }
  });
  return { warnings: [...warnings.values()] };
}

function visitNumbers(
  node: FilterNode,
  onNumber: (operand: Extract<Operand, { kind: "number" }>) => void,
): void {
  const operand = (value: Operand): void => {
    if (value.kind === "number") onNumber(value);
  };
  switch (node.kind) {
    case "or":
    case "and":
      for (const child of node.operands) visitNumbers(child, onNumber);
      return;
    case "not":
      visitNumbers(node.operand, onNumber);
      return;
    case "compare":
      operand(node.left);
      operand(node.right);
      return;
    case "fuzzy":
    case "length":
      operand(node.value);
      return;
    case "has":
      for (const tuple of node.values) for (const test of tuple) operand(test.value);
      return;
    case "known":
    case "property":
      return;
  }
}
