/**
 * Refusals of OPTIMADE filters: syntax errors (the text does not follow the filter grammar) and
 * query errors (the filter parses but cannot be served: unknown property, bad timestamp, type
 * mismatch). Each carries the HTTP status the OPTIMADE specification prescribes for the case.
 */
import {
  type ErrorCodeOf,
  type ErrorDetailsOf,
  SchemaRouterError,
  SUBCLASS,
} from "../../../errors/errors.js";
import { ERRORS } from "../../../errors/registry.js";
import { meaningsOf } from "../../../errors/table.js";

/** Codes of filter refusals (part of the public API), from the error registry. */
export const FILTER_ERROR_CODES = meaningsOf(ERRORS, "FilterSyntaxError", "FilterQueryError");

export type FilterErrorCode = keyof typeof FILTER_ERROR_CODES;

/** Where an offset falls in the filter text, 1-based. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < position && index < text.length; index++) {
    if (text[index] === "\n") {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

/** The line of `text` containing `position`, with a caret under it (control characters shown as spaces). */
export function caretFrame(text: string, position: number): string {
  const lineStart = text.lastIndexOf("\n", Math.max(0, position - 1)) + 1;
  const newline = text.indexOf("\n", lineStart);
  const lineEnd = newline === -1 ? text.length : newline;
  const visible = (segment: string): string =>
    [...segment].map((char) => (char.charCodeAt(0) < 0x20 || char === "\u007f" ? " " : char)).join("");
  const line = visible(text.slice(lineStart, lineEnd));
  const pad = " ".repeat(Math.max(0, position - lineStart));
  return `  ${line}\n  ${pad}^`;
}

export type FilterSyntaxDetails = ErrorDetailsOf<"INVALID_FILTER">;

/** The filter text does not follow the OPTIMADE filter grammar. */
export class FilterSyntaxError extends SchemaRouterError<"INVALID_FILTER"> {
  constructor(text: string, position: number, found: string, expected: readonly string[], hint?: string) {
    const { line, column } = lineAndColumn(text, position);
    const wanted = expected.length === 0 ? "" : `expected ${joinAlternatives(expected)}, `;
    const message =
      `Invalid OPTIMADE filter at line ${line}, column ${column}: ${wanted}found ${found}.` +
      (hint === undefined ? "" : ` ${hint}`) +
      `\n${caretFrame(text, position)}\nCorrect the filter at the caret (see the OPTIMADE filter grammar).`;
    const details = { position, line, column, found, expected: [...expected] };
    super("INVALID_FILTER", message, details, undefined, SUBCLASS);
  }
}

type FilterQueryCode = ErrorCodeOf<"FilterQueryError">;

/** The details of the filter's query refusals (`status` is the HTTP status an OPTIMADE server answers with). */
export type FilterQueryDetails = ErrorDetailsOf<FilterQueryCode>;

/** The filter parses but cannot be evaluated as written. */
export class FilterQueryError<C extends FilterQueryCode = FilterQueryCode> extends SchemaRouterError<C> {
  readonly status: 400 | 501;

  constructor(code: C, message: string, details: NoInfer<ErrorDetailsOf<C>>) {
    super(code, message, details, undefined, SUBCLASS);
    this.status = details.status;
  }
}

function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
