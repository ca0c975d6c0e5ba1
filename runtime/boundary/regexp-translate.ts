/**
 * Translation of an ECMA-262 `u`-mode pattern to RE2 syntax with the same meaning, from the pattern's
 * parsed AST (@eslint-community/regexpp) rather than escape by escape (docs/runtime/execution-boundary.md,
 * "Patterns"). Every character set is computed as explicit code-point ranges where ECMA-262 and RE2
 * disagree or spell it differently — `.`, `\s`, `\S`, `\d`, `\w` and their negations, inside and outside
 * classes — so `[\S]` means exactly what it means to JavaScript (not RE2's ASCII `\S`). Unicode property
 * escapes pass through to RE2's own tables (general categories and scripts). Backreferences, lookaround
 * and repetitions RE2 cannot run throw Unsupported: nothing is dropped or approximated.
 */
import { createRequire } from "node:module";
import type { AST } from "@eslint-community/regexpp";

type Range = readonly [number, number];

/** A construct with no linear-time RE2 equivalent. */
export class Unsupported extends Error {}

const MAX_CODE_POINT = 0x10ffff;
/** RE2's largest repetition count. */
const MAX_REPEAT = 1000;

/** ECMA-262 WhiteSpace and LineTerminator (what `\s` matches). */
const SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** ECMA-262 LineTerminator: what `.` does not match without the `s` flag. */
const LINE_TERMINATOR: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

type Parser = {
  parsePattern(source: string, start: number, end: number, flags: { unicode: boolean }): AST.Pattern;
};
let parser: Parser | undefined;

/** RE2 syntax for a pattern already known to be valid ECMA-262 in `u` mode; throws Unsupported. */
export function translateToRe2(pattern: string): string {
  if (parser === undefined) {
    const { RegExpParser } = createRequire(import.meta.url)("@eslint-community/regexpp") as {
      RegExpParser: new (options: { ecmaVersion: number }) => Parser;
    };
    parser = new RegExpParser({ ecmaVersion: 2025 });
  }
  const ast = parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
  return alternatives(ast.alternatives);
}

function alternatives(list: readonly AST.Alternative[]): string {
  return list.map((alternative) => alternative.elements.map(element).join("")).join("|");
}

function element(node: AST.Element): string {
  switch (node.type) {
    case "Character":
      return codePoint(node.value);
    case "CharacterSet":
      return characterSet(node);
    case "CharacterClass":
      return characterClass(node);
    case "Group":
      if (node.modifiers !== null) throw new Unsupported("a modifiers group");
      return `(?:${alternatives(node.alternatives)})`;
    case "CapturingGroup":
      // Captures do not change whether a string matches; named or not, the group is plain.
      return `(?:${alternatives(node.alternatives)})`;
    case "Quantifier":
      return quantifier(node);
    case "Assertion":
      return assertion(node);
    case "Backreference":
      throw new Unsupported("a backreference");
    default:
      throw new Unsupported(`the construct ${(node as { raw: string }).raw}`);
  }
}

function quantifier(node: AST.Quantifier): string {
  const { min, max } = node;
  if (min > MAX_REPEAT || (Number.isFinite(max) && max > MAX_REPEAT))
    throw new Unsupported(`a repetition count over ${MAX_REPEAT}`);
  const count = max === min ? `{${min}}` : Number.isFinite(max) ? `{${min},${max}}` : `{${min},}`;
  return `(?:${element(node.element)})${count}${node.greedy ? "" : "?"}`;
}

function assertion(node: AST.Assertion): string {
  switch (node.kind) {
    case "start":
      return "^";
    case "end":
      return "$";
    case "word":
      // ECMA-262 word boundaries use the ASCII word characters, as RE2's do.
      return node.negate ? "\\B" : "\\b";
    default:
      throw new Unsupported("lookaround");
  }
}

function characterSet(node: AST.CharacterSet): string {
  if (node.kind === "property") return property(node);
  return rangesText(setRanges(node));
}

/** Code-point ranges of `.`, `\d`, `\s`, `\w` and their negations. */
function setRanges(node: Exclude<AST.CharacterSet, AST.UnicodePropertyCharacterSet>): Range[] {
  if (node.kind === "any") return complement(LINE_TERMINATOR);
  const base = node.kind === "digit" ? DIGIT : node.kind === "space" ? SPACE : WORD;
  return node.negate ? complement(base) : [...base];
}

function property(node: AST.UnicodePropertyCharacterSet): string {
  if (node.strings) throw new Unsupported("a property of strings");
  const key = node.key;
  let name: string;
  if (key === "General_Category" || key === "gc" || key === "Script" || key === "sc") name = node.value!;
  else if (node.value === null) name = key;
  else throw new Unsupported(`the property ${key}`);
  return `\\${node.negate ? "P" : "p"}{${name}}`;
}

function characterClass(node: AST.CharacterClass): string {
  if (node.unicodeSets) throw new Unsupported("a v-mode class");
  const ranges: Range[] = [];
  const properties: string[] = [];
  for (const item of node.elements) {
    if (item.type === "Character") ranges.push([item.value, item.value]);
    else if (item.type === "CharacterClassRange") ranges.push([item.min.value, item.max.value]);
    else if (item.type === "CharacterSet" && item.kind === "property") properties.push(property(item));
    else if (item.type === "CharacterSet") ranges.push(...setRanges(item));
    else throw new Unsupported("a nested class");
  }
  if (properties.length === 0) return rangesText(node.negate ? complement(ranges) : ranges);
  // Properties cannot be listed as ranges: RE2 unions them with the ranges inside one class.
  const inner = normalize(ranges).map(rangeText).join("") + properties.join("");
  return `[${node.negate ? "^" : ""}${inner}]`;
}

function rangesText(ranges: readonly Range[]): string {
  const sorted = normalize(ranges);
  if (sorted.length === 0) return `[^${codePoint(0)}-${codePoint(MAX_CODE_POINT)}]`;
  if (sorted.length === 1 && sorted[0]![0] === sorted[0]![1]) return codePoint(sorted[0]![0]);
  return `[${sorted.map(rangeText).join("")}]`;
}

function rangeText([low, high]: Range): string {
  return low === high ? codePoint(low) : `${codePoint(low)}-${codePoint(high)}`;
}

/** Sorted, merged ranges. */
function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [low, high] of normalize(ranges)) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function codePoint(value: number): string {
  return `\\x{${value.toString(16).toUpperCase()}}`;
}
