/**
 * Prints an OPTIMADE filter AST back to filter text. The minimal form adds parentheses only where
 * precedence needs them and re-parses to the same AST; the fully braced form brackets every
 * comparison and NOT, as in the spec's "Precedence" examples.
 */
import type { FilterNode, Operand, ValueTest } from "./ast.js";

export interface FormatFilterOptions {
  /** `minimal` (default): parentheses only where needed; `full`: every comparison and NOT bracketed. */
  readonly braces?: "minimal" | "full";
}

/** Escapes a string value as a filter string token (backslash and double quote). */
export function quoteFilterString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

export function formatOperand(operand: Operand): string {
  switch (operand.kind) {
    case "property":
      return operand.name;
    case "string":
      return quoteFilterString(operand.value);
    case "number":
      return operand.raw;
    case "boolean":
      return operand.value ? "TRUE" : "FALSE";
  }
}

function formatTest(test: ValueTest): string {
  const value = formatOperand(test.value);
  return test.kind === "compare" && test.op === "=" ? value : `${test.op} ${value}`;
}

/** A comparison-level node (anything but AND/OR/NOT) as text, without surrounding parentheses. */
function formatComparison(node: FilterNode): string {
  switch (node.kind) {
    case "compare":
      return `${formatOperand(node.left)} ${node.op} ${formatOperand(node.right)}`;
    case "fuzzy":
      return `${node.property.name} ${node.op} ${formatOperand(node.value)}`;
    case "known":
      return `${node.property.name} ${node.op}`;
    case "length":
      return `${node.property.name} LENGTH ${node.op} ${formatOperand(node.value)}`;
    case "property":
      return node.property.name;
    case "has": {
      const properties = node.properties.map((property) => property.name).join(":");
      const values = node.values.map((tuple) => tuple.map(formatTest).join(":")).join(", ");
      return `${properties} ${node.op} ${values}`;
    }
    case "or":
    case "and":
    case "not":
      throw new Error(`unreachable: ${node.kind} is not a comparison`);
  }
}

const PRECEDENCE = { or: 1, and: 2, not: 3 } as const;

function precedence(node: FilterNode): number {
  return node.kind === "or" || node.kind === "and" || node.kind === "not" ? PRECEDENCE[node.kind] : 4;
}

function minimal(node: FilterNode, parent: number): string {
  let text: string;
  switch (node.kind) {
    case "or":
    case "and": {
      const own = PRECEDENCE[node.kind];
      // Chains are flattened, so a nested node of the same kind came from parentheses: keep them.
      text = node.operands.map((operand) => minimal(operand, own + 0.5)).join(` ${node.kind.toUpperCase()} `);
      break;
    }
    case "not":
      // NOT applies to one comparison or one parenthesized expression only.
      text = `NOT ${minimal(node.operand, precedence(node.operand) === 4 ? 0 : Number.POSITIVE_INFINITY)}`;
      break;
    default:
      text = formatComparison(node);
  }
  return precedence(node) < parent ? `(${text})` : text;
}

function full(node: FilterNode, top: boolean): string {
  switch (node.kind) {
    case "or":
    case "and": {
      const text = node.operands.map((operand) => full(operand, false)).join(` ${node.kind.toUpperCase()} `);
      return top ? text : `(${text})`;
    }
    case "not":
      return `(NOT ${full(node.operand, false)})`;
    default:
      return `(${formatComparison(node)})`;
  }
}

/** Filter text for `node`. */
export function formatFilter(node: FilterNode, options: FormatFilterOptions = {}): string {
  return options.braces === "full" ? full(node, true) : minimal(node, 0);
}
