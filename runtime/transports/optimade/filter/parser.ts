/**
 * Recursive-descent parser for the OPTIMADE filter language (OPTIMADE v1.2, "The Filter Language
 * EBNF Grammar"), including the OPTIONAL constructs: constant-first and property-vs-property
 * comparisons, operators inside HAS value lists, HAS ONLY, correlated lists (`a:b HAS 1:2`),
 * `LENGTH op value` and nested property names. Precedence: comparisons, then NOT, AND, OR.
 */
import type {
  ComparisonOperator,
  Constant,
  FilterNode,
  FuzzyOperator,
  HasOperator,
  Operand,
  PropertyRef,
  Span,
  ValueTest,
} from "./ast.js";
import { FilterSyntaxError } from "./errors.js";
import { describeToken, type FilterKeyword, FilterLexer, type FilterToken } from "./lexer.js";

export type { FilterNode } from "./ast.js";
export { propertiesOf } from "./ast.js";
export { FilterSyntaxError } from "./errors.js";

/** Parenthesis nesting limit: deeper filters are refused instead of exhausting the stack. */
export const MAX_FILTER_NESTING = 128;

const COMPARISON = "a comparison operator (=, !=, <, <=, >, >=)";
const PROPERTY = "a property name";
const STRING = "a string";
const NUMBER = "a number";

/** Parses an OPTIMADE filter into its AST; throws FilterSyntaxError (code INVALID_FILTER). */
export function parseFilter(text: string): FilterNode {
  return new FilterParser(text).parse();
}

class FilterParser {
  private readonly lexer: FilterLexer;
  private token: FilterToken;
  private lastEnd = 0;
  private depth = 0;
  /** Alternatives tested against the current token; reported when it matches none. */
  private readonly expected = new Set<string>();

  constructor(private readonly text: string) {
    this.lexer = new FilterLexer(text);
    this.token = this.lexer.next();
  }

  parse(): FilterNode {
    const node = this.expression();
    this.expected.add("end of filter");
    if (this.token.kind !== "end") this.fail(this.trailingHint());
    return node;
  }

  // Expression = ExpressionClause, [ OR, Expression ] ;
  private expression(): FilterNode {
    const start = this.token.start;
    const operands = [this.clause()];
    while (this.isKeyword("OR")) {
      this.advance();
      operands.push(this.clause());
    }
    return operands.length === 1 ? operands[0]! : { kind: "or", operands, span: this.span(start) };
  }

  // ExpressionClause = ExpressionPhrase, [ AND, ExpressionClause ] ;
  private clause(): FilterNode {
    const start = this.token.start;
    const operands = [this.phrase()];
    while (this.isKeyword("AND")) {
      this.advance();
      operands.push(this.phrase());
    }
    return operands.length === 1 ? operands[0]! : { kind: "and", operands, span: this.span(start) };
  }

  // ExpressionPhrase = [ NOT ], ( Comparison | OpeningBrace, Expression, ClosingBrace ) ;
  private phrase(): FilterNode {
    const start = this.token.start;
    const negated = this.isKeyword("NOT");
    if (negated) this.advance();
    let inner: FilterNode;
    if (this.isPunctuator("(")) {
      if (this.depth >= MAX_FILTER_NESTING) {
        this.fail(`Parentheses are nested deeper than ${MAX_FILTER_NESTING} levels; simplify the filter.`);
      }
      this.advance();
      this.depth++;
      inner = this.expression();
      this.depth--;
      this.expect(this.isPunctuator(")"));
    } else {
      inner = this.comparison(negated);
    }
    return negated ? { kind: "not", operand: inner, span: this.span(start) } : inner;
  }

  // Comparison = ConstantFirstComparison | PropertyFirstComparison ;
  private comparison(afterNot: boolean): FilterNode {
    const start = this.token.start;
    if (this.isIdentifier()) return this.propertyFirst();
    const isOrdered = this.isString() || this.isNumber();
    const isUnordered = this.isKeyword("TRUE") || this.isKeyword("FALSE");
    if (!isOrdered && !isUnordered) {
      this.fail(
        afterNot && this.isTokenKeyword("NOT") ? "NOT cannot follow NOT; write NOT (NOT …)." : undefined,
      );
    }
    // ConstantFirstComparison = ( OrderedConstant, ValueOpRhs | UnorderedConstant, ValueEqRhs ) ;
    const left = this.constant();
    const op = this.operator(isOrdered ? "any" : "equality");
    const right = op === "=" || op === "!=" ? this.value() : this.orderedValue();
    return { kind: "compare", left, op, right, span: this.span(start) };
  }

  // PropertyFirstComparison = Property, [ ValueOpRhs | KnownOpRhs | FuzzyStringOpRhs | SetOpRhs | SetZipOpRhs | LengthOpRhs ] ;
  private propertyFirst(): FilterNode {
    const start = this.token.start;
    const property = this.property();
    if (this.isOperatorToken()) {
      const op = this.operator("any");
      const right = op === "=" || op === "!=" ? this.value() : this.orderedValue();
      return { kind: "compare", left: property, op, right, span: this.span(start) };
    }
    if (this.isKeyword("IS")) {
      this.advance();
      const known = this.isKeyword("KNOWN");
      if (!known && !this.isKeyword("UNKNOWN")) this.fail();
      this.advance();
      return { kind: "known", property, op: known ? "IS KNOWN" : "IS UNKNOWN", span: this.span(start) };
    }
    const fuzzy = this.fuzzyOperator();
    if (fuzzy !== undefined) {
      return { kind: "fuzzy", property, op: fuzzy, value: this.fuzzyValue(fuzzy), span: this.span(start) };
    }
    if (this.isKeyword("HAS")) {
      this.advance();
      const op = this.hasQuantifier();
      const values = op === "HAS" ? [[this.valueTest()]] : this.list(() => [this.valueTest()]);
      return { kind: "has", properties: [property], op, values, span: this.span(start) };
    }
    if (this.isPunctuator(":")) return this.correlated(start, property);
    if (this.isKeyword("LENGTH")) {
      this.advance();
      const op = this.isOperatorToken() ? this.operator("any") : "=";
      return { kind: "length", property, op, value: this.value(), span: this.span(start) };
    }
    return { kind: "property", property, span: this.span(start) };
  }

  // SetZipOpRhs = PropertyZipAddon, HAS, ( ValueZip | ONLY, ValueZipList | ALL, ValueZipList | ANY, ValueZipList ) ;
  private correlated(start: number, first: PropertyRef): FilterNode {
    const properties = [first];
    while (this.isPunctuator(":")) {
      this.advance();
      properties.push(this.property());
    }
    this.expect(this.isKeyword("HAS"));
    const op = this.hasQuantifier();
    const zip = (): ValueTest[] => this.valueZip(properties.length);
    const values = op === "HAS" ? [zip()] : this.list(zip);
    return { kind: "has", properties, op, values, span: this.span(start) };
  }

  // ValueZip = ValueListEntry, Colon, ValueListEntry, { Colon, ValueListEntry } ; (one per property)
  private valueZip(arity: number): ValueTest[] {
    const tests = [this.valueTest()];
    while (tests.length < arity) {
      this.expect(
        this.isPunctuator(":"),
        `${arity} properties are correlated, so each value tuple needs ${arity} values separated by ":".`,
      );
      tests.push(this.valueTest());
    }
    if (this.isTokenPunctuator(":")) {
      this.fail(`${arity} properties are correlated, so each value tuple has exactly ${arity} values.`);
    }
    return tests;
  }

  private hasQuantifier(): HasOperator {
    for (const quantifier of ["ALL", "ANY", "ONLY"] as const) {
      if (this.isKeyword(quantifier)) {
        this.advance();
        return `HAS ${quantifier}`;
      }
    }
    return "HAS";
  }

  private list<T>(item: () => T): T[] {
    const items = [item()];
    while (this.isPunctuator(",")) {
      this.advance();
      items.push(item());
    }
    return items;
  }

  // ValueListEntry = ( Value | ValueEqRhs | ValueRelCompRhs | FuzzyStringOpRhs ) ;
  private valueTest(): ValueTest {
    const start = this.token.start;
    if (this.isOperatorToken()) {
      const op = this.operator("any");
      const value = op === "=" || op === "!=" ? this.value() : this.orderedValue();
      return { kind: "compare", op, value, span: this.span(start) };
    }
    const fuzzy = this.fuzzyOperator();
    if (fuzzy !== undefined)
      return { kind: "fuzzy", op: fuzzy, value: this.fuzzyValue(fuzzy), span: this.span(start) };
    return { kind: "compare", op: "=", value: this.value(), span: this.span(start) };
  }

  // FuzzyStringOpRhs = CONTAINS, Value | STARTS, [ WITH ], Value | ENDS, [ WITH ], Value ;
  private fuzzyOperator(): FuzzyOperator | undefined {
    if (this.isKeyword("CONTAINS")) {
      this.advance();
      return "CONTAINS";
    }
    for (const keyword of ["STARTS", "ENDS"] as const) {
      if (this.isKeyword(keyword)) {
        this.advance();
        if (this.isKeyword("WITH")) this.advance();
        return `${keyword} WITH`;
      }
    }
    return undefined;
  }

  /** The substring operand: a string, or (OPTIONAL feature) a property; never a number or boolean. */
  private fuzzyValue(op: FuzzyOperator): Operand {
    if (this.isString() || this.isIdentifier()) return this.value();
    this.fail(`${op} matches substrings, so its operand is a double-quoted string (or a property).`);
  }

  // Value = ( UnorderedConstant | OrderedValue ) ;
  private value(): Operand {
    if (this.isIdentifier()) return this.property();
    if (this.isString() || this.isNumber() || this.isKeyword("TRUE") || this.isKeyword("FALSE")) {
      return this.constant();
    }
    this.fail();
  }

  // OrderedValue = ( OrderedConstant | Property ) ;
  private orderedValue(): Operand {
    if (this.isIdentifier()) return this.property();
    if (this.isString() || this.isNumber()) return this.constant();
    const boolean = this.isTokenKeyword("TRUE") || this.isTokenKeyword("FALSE");
    this.fail(boolean ? "TRUE and FALSE can only be compared with = or !=." : undefined);
  }

  /** The current string, number, TRUE or FALSE token (the caller has checked which). */
  private constant(): Constant {
    const token = this.advance();
    const span = { start: token.start, end: token.end };
    if (token.kind === "string") return { kind: "string", value: token.value, span };
    if (token.kind === "number") return { kind: "number", value: token.value, raw: token.raw, span };
    if (token.kind === "keyword") return { kind: "boolean", value: token.keyword === "TRUE", span };
    throw new Error(`unreachable: constant() at ${describeToken(token)}`);
  }

  // Property = Identifier, { Dot, Identifier } ;
  private property(): PropertyRef {
    const start = this.token.start;
    const path = [this.identifierText()];
    while (this.isPunctuator(".")) {
      this.advance();
      path.push(this.identifierText());
    }
    return { kind: "property", path, name: path.join("."), span: this.span(start) };
  }

  private identifierText(): string {
    const token = this.token;
    if (token.kind !== "identifier") {
      this.expected.add(PROPERTY);
      this.fail();
    }
    this.advance();
    return token.text;
  }

  private operator(allowed: "any" | "equality"): ComparisonOperator {
    const token = this.token;
    if (token.kind === "operator" && (allowed === "any" || token.op === "=" || token.op === "!=")) {
      this.advance();
      return token.op;
    }
    this.expected.add(allowed === "any" ? COMPARISON : '"=" or "!="');
    this.fail(allowed === "equality" ? "TRUE and FALSE can only be compared with = or !=." : undefined);
  }

  private isOperatorToken(): boolean {
    this.expected.add(COMPARISON);
    return this.token.kind === "operator";
  }

  private isKeyword(keyword: FilterKeyword): boolean {
    this.expected.add(keyword);
    return this.isTokenKeyword(keyword);
  }

  private isTokenKeyword(keyword: FilterKeyword): boolean {
    return this.token.kind === "keyword" && this.token.keyword === keyword;
  }

  private isPunctuator(char: string): boolean {
    this.expected.add(`"${char}"`);
    return this.isTokenPunctuator(char);
  }

  private isTokenPunctuator(char: string): boolean {
    return this.token.kind === "punctuator" && this.token.char === char;
  }

  private isIdentifier(): boolean {
    this.expected.add(PROPERTY);
    return this.token.kind === "identifier";
  }

  private isString(): boolean {
    this.expected.add(STRING);
    return this.token.kind === "string";
  }

  private isNumber(): boolean {
    this.expected.add(NUMBER);
    return this.token.kind === "number";
  }

  private advance(): FilterToken {
    const token = this.token;
    this.lastEnd = token.end;
    this.token = this.lexer.next();
    this.expected.clear();
    return token;
  }

  private expect(matched: boolean, hint?: string): void {
    if (!matched) this.fail(hint);
    this.advance();
  }

  private span(start: number): Span {
    return { start, end: this.lastEnd };
  }

  private trailingHint(): string | undefined {
    const token = this.token;
    if (token.kind === "keyword" && (token.keyword === "KNOWN" || token.keyword === "UNKNOWN")) {
      return `Write "IS ${token.keyword}".`;
    }
    if (token.kind === "identifier" && ["and", "or", "not"].includes(token.text)) {
      return `Keywords are case-sensitive: write "${token.text.toUpperCase()}".`;
    }
    if (token.kind === "punctuator" && token.char === ":") {
      return "Correlated values need one property per value: list1:list2 HAS value1:value2.";
    }
    if (token.kind === "punctuator" && token.char === ",") {
      return "A list of values needs HAS ALL, HAS ANY or HAS ONLY.";
    }
    return undefined;
  }

  private fail(hint?: string): never {
    const token = this.token;
    throw new FilterSyntaxError(this.text, token.start, describeToken(token), [...this.expected], hint);
  }
}
