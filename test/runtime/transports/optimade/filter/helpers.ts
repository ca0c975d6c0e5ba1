/** Assertions shared by the OPTIMADE filter tests: the AST without spans, and the syntax error a text raises. */
import { expect } from "vitest";
import { SchemaRouterError } from "../../../../../runtime/errors/errors.js";
import { FilterSyntaxError } from "../../../../../runtime/transports/optimade/filter/errors.js";
import { parseFilter } from "../../../../../runtime/transports/optimade/filter/parser.js";

/** The AST without spans, for structural comparison. */
export function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== "span")
      .map(([key, value]) => [key, shape(value)]),
  );
}

export function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FilterSyntaxError);
    expect(error).toBeInstanceOf(SchemaRouterError);
    expect((error as FilterSyntaxError).code).toBe("INVALID_FILTER");
    return error as FilterSyntaxError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}
