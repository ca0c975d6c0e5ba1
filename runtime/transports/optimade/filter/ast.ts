/**
 * The typed AST of an OPTIMADE filter (OPTIMADE v1.2 "API Filtering Format Specification" and its
 * appendix "The Filter Language EBNF Grammar"). Plain, immutable data; every node carries the
 * character span it was parsed from so later checks can point at the offending text.
 */

/** Half-open range of UTF-16 code-unit offsets into the filter text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A property name, possibly nested (`identifier1.identifier2`). */
export interface PropertyRef {
  readonly kind: "property";
  /** The identifiers in order; at least one. */
  readonly path: readonly string[];
  /** The identifiers joined with `.`. */
  readonly name: string;
  readonly span: Span;
}

export interface StringLiteral {
  readonly kind: "string";
  /** The value with the `\"` and `\\` escapes reversed. */
  readonly value: string;
  readonly span: Span;
}

export interface NumberLiteral {
  readonly kind: "number";
  /** The parsed value; can be `Infinity` or `0` for numbers outside the float64 range. */
  readonly value: number;
  /** The number exactly as written (e.g. `+.1e8`, `1.`). */
  readonly raw: string;
  readonly span: Span;
}

export interface BooleanLiteral {
  readonly kind: "boolean";
  readonly value: boolean;
  readonly span: Span;
}

export type Constant = StringLiteral | NumberLiteral | BooleanLiteral;

/** What can stand on either side of a comparison. */
export type Operand = Constant | PropertyRef;

export type ComparisonOperator = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type FuzzyOperator = "CONTAINS" | "STARTS WITH" | "ENDS WITH";

export type HasOperator = "HAS" | "HAS ALL" | "HAS ANY" | "HAS ONLY";

export type KnownOperator = "IS KNOWN" | "IS UNKNOWN";

/**
 * One test applied to one list item (a `ValueListEntry` of the grammar). A bare value means
 * `= value`; `HAS < 3` and `HAS CONTAINS "x"` are the operator forms.
 */
export type ValueTest =
  | {
      readonly kind: "compare";
      readonly op: ComparisonOperator;
      readonly value: Operand;
      readonly span: Span;
    }
  | { readonly kind: "fuzzy"; readonly op: FuzzyOperator; readonly value: Operand; readonly span: Span };

/** `a OR b OR c` (unparenthesized chains are flattened; parentheses nest). At least two operands. */
export interface OrNode {
  readonly kind: "or";
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

/** `a AND b AND c`, flattened like `or`. At least two operands. */
export interface AndNode {
  readonly kind: "and";
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

export interface NotNode {
  readonly kind: "not";
  readonly operand: FilterNode;
  readonly span: Span;
}

/** `property op value`, `constant op property` (reversed form) or `value op value`. */
export interface CompareNode {
  readonly kind: "compare";
  readonly left: Operand;
  readonly op: ComparisonOperator;
  readonly right: Operand;
  readonly span: Span;
}

/** `property CONTAINS x`, `property STARTS [WITH] x`, `property ENDS [WITH] x`. */
export interface FuzzyNode {
  readonly kind: "fuzzy";
  readonly property: PropertyRef;
  readonly op: FuzzyOperator;
  readonly value: Operand;
  readonly span: Span;
}

/** `property IS KNOWN` / `property IS UNKNOWN`. */
export interface KnownNode {
  readonly kind: "known";
  readonly property: PropertyRef;
  readonly op: KnownOperator;
  readonly span: Span;
}

/** `property LENGTH [op] value`; `op` is `=` when omitted. */
export interface LengthNode {
  readonly kind: "length";
  readonly property: PropertyRef;
  readonly op: ComparisonOperator;
  readonly value: Operand;
  readonly span: Span;
}

/**
 * `list HAS …`, and the correlated form `list1:list2 HAS v1:v2, …`. `properties` has one entry for
 * the plain form; every tuple in `values` has exactly `properties.length` tests. `HAS` has exactly
 * one tuple.
 */
export interface HasNode {
  readonly kind: "has";
  readonly properties: readonly PropertyRef[];
  readonly op: HasOperator;
  readonly values: readonly (readonly ValueTest[])[];
  readonly span: Span;
}

/** A property on its own: `TRUE` for a boolean property, `IS KNOWN` for any other. */
export interface PropertyNode {
  readonly kind: "property";
  readonly property: PropertyRef;
  readonly span: Span;
}

export type FilterNode =
  | OrNode
  | AndNode
  | NotNode
  | CompareNode
  | FuzzyNode
  | KnownNode
  | LengthNode
  | HasNode
  | PropertyNode;

export type FilterNodeKind = FilterNode["kind"];

/** Every property referenced by the filter, by dotted name, in order of first appearance. */
export function propertiesOf(node: FilterNode): string[] {
  const seen = new Set<string>();
  const visitOperand = (operand: Operand): void => {
    if (operand.kind === "property") seen.add(operand.name);
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
      case "compare":
        visitOperand(current.left);
        visitOperand(current.right);
        return;
      case "fuzzy":
      case "length":
        seen.add(current.property.name);
        visitOperand(current.value);
        return;
      case "known":
      case "property":
        seen.add(current.property.name);
        return;
      case "has":
        for (const property of current.properties) seen.add(property.name);
        for (const tuple of current.values) for (const test of tuple) visitOperand(test.value);
        return;
    }
  };
  visit(node);
  return [...seen];
}
