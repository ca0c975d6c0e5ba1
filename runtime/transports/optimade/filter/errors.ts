/**
 * Refusals of OPTIMADE filters: syntax errors (the text does not follow the filter grammar) and
 * query errors (the filter parses but cannot be served: unknown property, bad timestamp, type
 * mismatch). Each carries the HTTP status the OPTIMADE specification prescribes for the case.
 */
import { SchemaRouterError } from "../../../errors/errors.js";

/** Codes of filter refusals (part of the public API). */
export const FILTER_ERROR_CODES = {
  INVALID_FILTER: "The filter does not follow the OPTIMADE filter grammar (HTTP 400).",
  UNKNOWN_FILTER_PROPERTY: "The filter names a property the provider does not declare (HTTP 400).",
  INVALID_FILTER_VALUE: "A filter value cannot be interpreted, e.g. a malformed timestamp (HTTP 400).",
  UNSUPPORTED_FILTER:
    "The filter compares values of different types or uses an unsupported construct (HTTP 501).",
} as const;

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

export type FilterSyntaxDetails = {
  /** Offset (UTF-16 code units) of the offending character or token. */
  readonly position: number;
  readonly line: number;
  readonly column: number;
  /** What was found there, e.g. `keyword "IS"`, `end of filter`. */
  readonly found: string;
  /** What the grammar allows there. */
  readonly expected: readonly string[];
};

/** The filter text does not follow the OPTIMADE filter grammar. */
export class FilterSyntaxError extends SchemaRouterError {
  declare readonly code: "INVALID_FILTER";
  declare readonly details: FilterSyntaxDetails;

  constructor(text: string, position: number, found: string, expected: readonly string[], hint?: string) {
    const { line, column } = lineAndColumn(text, position);
    const wanted = expected.length === 0 ? "" : `expected ${joinAlternatives(expected)}, `;
    const message =
      `Invalid OPTIMADE filter at line ${line}, column ${column}: ${wanted}found ${found}.` +
      (hint === undefined ? "" : ` ${hint}`) +
      `\n${caretFrame(text, position)}\nCorrect the filter at the caret (see the OPTIMADE filter grammar).`;
    super("INVALID_FILTER", message, { position, line, column, found, expected: [...expected] });
  }
}

export type FilterQueryDetails = {
  /** The HTTP status an OPTIMADE server answers with for this refusal. */
  readonly status: 400 | 501;
  readonly position?: number;
  readonly property?: string;
  /** The construct refused, e.g. `"CONTAINS" on a float property`. */
  readonly construct?: string;
};

/** The filter parses but cannot be evaluated as written. */
export class FilterQueryError extends SchemaRouterError {
  declare readonly code: Exclude<FilterErrorCode, "INVALID_FILTER">;
  declare readonly details: FilterQueryDetails;
  readonly status: 400 | 501;

  constructor(
    code: Exclude<FilterErrorCode, "INVALID_FILTER">,
    message: string,
    details: FilterQueryDetails,
  ) {
    super(code, message, details);
    this.status = details.status;
  }
}

function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
