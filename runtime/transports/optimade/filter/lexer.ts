/**
 * Hand-written lexer for the OPTIMADE filter language (OPTIMADE v1.2, "Lexical Tokens" and the
 * `(* TOKENS *)` part of "The Filter Language EBNF Grammar"). Whitespace (space, tab, newline,
 * carriage return, vertical tab, form feed) separates tokens and is otherwise ignored, so
 * `chemical_formulaCONTAINS"Al"ANDnelements=2` lexes like its spaced form: keywords are upper case
 * and identifiers lower case, so a run of upper-case letters splits into keywords unambiguously.
 */
import type { ComparisonOperator } from "./ast.js";
import { FilterSyntaxError } from "./errors.js";

export const FILTER_KEYWORDS = [
  "AND",
  "OR",
  "NOT",
  "IS",
  "KNOWN",
  "UNKNOWN",
  "CONTAINS",
  "STARTS",
  "ENDS",
  "WITH",
  "LENGTH",
  "HAS",
  "ALL",
  "ONLY",
  "ANY",
  "TRUE",
  "FALSE",
] as const;

export type FilterKeyword = (typeof FILTER_KEYWORDS)[number];

export type FilterPunctuator = "(" | ")" | "." | "," | ":";

interface TokenBase {
  readonly start: number;
  readonly end: number;
}

export type FilterToken =
  | (TokenBase & { readonly kind: "identifier"; readonly text: string })
  | (TokenBase & { readonly kind: "keyword"; readonly keyword: FilterKeyword })
  | (TokenBase & { readonly kind: "string"; readonly value: string })
  | (TokenBase & { readonly kind: "number"; readonly raw: string; readonly value: number })
  | (TokenBase & { readonly kind: "operator"; readonly op: ComparisonOperator })
  | (TokenBase & { readonly kind: "punctuator"; readonly char: FilterPunctuator })
  | (TokenBase & { readonly kind: "end" });

/** Keywords longest first; no keyword is a prefix of another, so a greedy split is the only split. */
const KEYWORDS_LONGEST_FIRST: readonly FilterKeyword[] = [...FILTER_KEYWORDS].sort(
  (a, b) => b.length - a.length,
);

const isSpace = (char: string | undefined): boolean =>
  char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\v" || char === "\f";
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= "0" && char <= "9";
const isLower = (char: string | undefined): boolean =>
  char !== undefined && ((char >= "a" && char <= "z") || char === "_");
const isUpper = (char: string | undefined): boolean => char !== undefined && char >= "A" && char <= "Z";

/** A human-readable name of a token for error messages. */
export function describeToken(token: FilterToken): string {
  switch (token.kind) {
    case "identifier":
      return `property name "${token.text}"`;
    case "keyword":
      return `keyword "${token.keyword}"`;
    case "string":
      return `string ${JSON.stringify(token.value)}`;
    case "number":
      return `number ${token.raw}`;
    case "operator":
      return `"${token.op}"`;
    case "punctuator":
      return `"${token.char}"`;
    case "end":
      return "end of filter";
  }
}

/** Pull lexer: tokens are produced on demand, so the earliest error in the text is the one reported. */
export class FilterLexer {
  readonly text: string;
  private offset = 0;
  private readonly pending: FilterToken[] = [];

  constructor(text: string) {
    this.text = text;
  }

  next(): FilterToken {
    const queued = this.pending.shift();
    if (queued !== undefined) return queued;
    const { text } = this;
    while (isSpace(text[this.offset])) this.offset++;
    const start = this.offset;
    const char = text[start];
    if (char === undefined) return { kind: "end", start, end: start };
    if (isLower(char)) return this.identifier(start);
    if (isUpper(char)) return this.keywords(start);
    if (char === '"') return this.string(start);
    if (isDigit(char) || char === "+" || char === "-" || (char === "." && isDigit(text[start + 1]))) {
      return this.number(start);
    }
    if (char === "(" || char === ")" || char === "." || char === "," || char === ":") {
      this.offset++;
      return { kind: "punctuator", char, start, end: this.offset };
    }
    if (char === "=") {
      this.offset++;
      return { kind: "operator", op: "=", start, end: this.offset };
    }
    if (char === "!") {
      if (text[start + 1] !== "=") this.fail(start + 1, describeChar(text, start + 1), ['"="'], 'Use "!=".');
      this.offset += 2;
      return { kind: "operator", op: "!=", start, end: this.offset };
    }
    if (char === "<" || char === ">") {
      const withEquals = text[start + 1] === "=";
      this.offset += withEquals ? 2 : 1;
      const op: ComparisonOperator = char === "<" ? (withEquals ? "<=" : "<") : withEquals ? ">=" : ">";
      return { kind: "operator", op, start, end: this.offset };
    }
    const hint =
      char === "'"
        ? "Strings are enclosed in double quotes."
        : "This character is only allowed inside a double-quoted string.";
    return this.fail(start, describeChar(text, start), [], hint);
  }

  private identifier(start: number): FilterToken {
    let end = start + 1;
    while (isLower(this.text[end]) || isDigit(this.text[end])) end++;
    this.offset = end;
    return { kind: "identifier", text: this.text.slice(start, end), start, end };
  }

  private keywords(start: number): FilterToken {
    let runEnd = start;
    while (isUpper(this.text[runEnd])) runEnd++;
    let at = start;
    while (at < runEnd) {
      const keyword = KEYWORDS_LONGEST_FIRST.find((candidate) => this.text.startsWith(candidate, at));
      if (keyword === undefined) {
        if (this.pending.length > 0) {
          // Hand out the keywords before the bad word first; the next call reports it.
          this.offset = at;
          return this.pending.shift()!;
        }
        let wordEnd = at;
        while (/[A-Za-z0-9_]/.test(this.text[wordEnd] ?? "")) wordEnd++;
        return this.fail(
          at,
          `"${this.text.slice(at, wordEnd)}"`,
          [],
          "Operators are the upper-case keywords AND, OR, NOT, IS, KNOWN, UNKNOWN, CONTAINS, STARTS, ENDS, WITH, LENGTH, HAS, ALL, ANY, ONLY, TRUE, FALSE; property names are lower case.",
        );
      }
      this.pending.push({ kind: "keyword", keyword, start: at, end: at + keyword.length });
      at += keyword.length;
    }
    this.offset = runEnd;
    return this.pending.shift()!;
  }

  private string(start: number): FilterToken {
    const { text } = this;
    let value = "";
    let at = start + 1;
    for (;;) {
      const char = text[at];
      if (char === undefined) {
        return this.fail(
          at,
          "end of filter",
          ['"\\""'],
          `The string opened at offset ${start} is not closed.`,
        );
      }
      if (char === '"') break;
      if (char === "\\") {
        const escaped = text[at + 1];
        if (escaped !== '"' && escaped !== "\\") {
          return this.fail(
            at,
            `"\\${escaped ?? ""}"`,
            ['"\\""', '"\\\\"'],
            "Inside a string only a double quote or a backslash may follow a backslash; write a literal backslash as \\\\.",
          );
        }
        value += escaped;
        at += 2;
        continue;
      }
      const code = char.charCodeAt(0);
      if ((code < 0x20 && !isSpace(char)) || code === 0x7f) {
        return this.fail(at, describeChar(text, at), [], "Control characters are not allowed in strings.");
      }
      value += char;
      at++;
    }
    this.offset = at + 1;
    return { kind: "string", value, start, end: this.offset };
  }

  private number(start: number): FilterToken {
    const { text } = this;
    let at = start;
    if (text[at] === "+" || text[at] === "-") at++;
    const digitsFrom = (from: number): number => {
      let end = from;
      while (isDigit(text[end])) end++;
      return end;
    };
    const intEnd = digitsFrom(at);
    if (intEnd > at) {
      at = intEnd;
      if (text[at] === ".") at = digitsFrom(at + 1);
    } else if (text[at] === "." && isDigit(text[at + 1])) {
      at = digitsFrom(at + 1);
    } else {
      return this.fail(at, describeChar(text, at), ["digits"], "A sign must be followed by a number.");
    }
    if (text[at] === "e" || text[at] === "E") {
      let exponent = at + 1;
      if (text[exponent] === "+" || text[exponent] === "-") exponent++;
      if (!isDigit(text[exponent])) {
        return this.fail(exponent, describeChar(text, exponent), ["exponent digits"]);
      }
      at = digitsFrom(exponent);
    }
    this.offset = at;
    const raw = text.slice(start, at);
    return { kind: "number", raw, value: Number(raw), start, end: at };
  }

  private fail(position: number, found: string, expected: readonly string[], hint?: string): never {
    throw new FilterSyntaxError(this.text, position, found, expected, hint);
  }
}

function describeChar(text: string, position: number): string {
  const char = text[position];
  if (char === undefined) return "end of filter";
  const code = char.charCodeAt(0);
  if (code < 0x20 || code === 0x7f)
    return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `character ${JSON.stringify(char)}`;
}

/** All tokens of `text` up to and including the `end` token; throws FilterSyntaxError on a lexical error. */
export function tokenizeFilter(text: string): FilterToken[] {
  const lexer = new FilterLexer(text);
  const tokens: FilterToken[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === "end") return tokens;
  }
}
