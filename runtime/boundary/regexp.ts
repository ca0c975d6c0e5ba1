/**
 * Linear-time regular expressions for JSON Schema `pattern` and `patternProperties`
 * (docs/runtime/execution-boundary.md step 5, docs/sources/openapi.md). Remote schemas choose the
 * patterns, and a backtracking engine can spend exponential time on one like `^(a+)+$`, synchronously,
 * where no wall-clock budget can stop it. Patterns therefore run on RE2 (re2js, pure JavaScript, linear
 * in the input). A pattern that is not valid ECMA-262 (`u` mode) or that RE2 cannot run
 * (backreferences, lookaround) is refused when the validator is compiled (UnsupportedPatternError): it
 * is never matched by backtracking, and never silently ignored.
 *
 * ECMA-262 meanings RE2 spells differently are translated first: `.` excludes \r, U+2028 and U+2029
 * too, and `\s` / `\S` are Unicode white space. (`\S` inside a class keeps RE2's ASCII meaning.)
 */
import { createRequire } from "node:module";
import { SchemaRouterError, SUBCLASS } from "../errors/errors.js";

type Re2Module = typeof import("re2js");

/** ECMA-262 WhiteSpace and LineTerminator code points (what `\s` matches in JavaScript). */
const WHITE_SPACE =
  "\\t\\n\\x{B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const NOT_LINE_TERMINATOR = "[^\\n\\r\\x{2028}\\x{2029}]";
const ANYTHING = "[\\x{0}-\\x{10FFFF}]";
const NOTHING = "[^\\x{0}-\\x{10FFFF}]";
const MAX_SHOWN = 200;

/** A schema pattern the linear-time engine cannot run; validators using it are refused. */
export class UnsupportedPatternError extends SchemaRouterError<"UNSUPPORTED_PATTERN"> {
  constructor(
    readonly pattern: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    const shown = pattern.length > MAX_SHOWN ? `${pattern.slice(0, MAX_SHOWN)}…` : pattern;
    super(
      "UNSUPPORTED_PATTERN",
      `JSON Schema pattern ${JSON.stringify(shown)} is refused: ${problem}. Patterns run on a linear-time engine (RE2), which has no backreferences or lookaround; declare the schema without it (e.g. in a trusted overlay) or recompile the source.`,
      { reason: "unsupported-pattern", pattern: shown, problem },
      options,
      SUBCLASS,
    );
  }
}

/** What Ajv calls on a compiled pattern. `toString` is Ajv's cache key, unique per pattern. */
export interface PatternMatcher {
  test(text: string): boolean;
  toString(): string;
}

/** Compiles a JSON Schema pattern for linear-time matching; throws UnsupportedPatternError. */
export function compilePattern(pattern: string): PatternMatcher {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    throw new UnsupportedPatternError(pattern, "it is not a valid ECMA-262 regular expression", {
      cause: error,
    });
  }
  const { RE2JS } = createRequire(import.meta.url)("re2js") as Re2Module;
  let compiled: ReturnType<typeof RE2JS.compile>;
  try {
    compiled = RE2JS.compile(toRe2(pattern));
  } catch (error) {
    const what = error instanceof Unsupported ? error.message : "a construct";
    throw new UnsupportedPatternError(
      pattern,
      `it uses ${what} RE2 cannot run in linear time${error instanceof Unsupported ? "" : ` (${error instanceof Error ? error.message : String(error)})`}`,
      { cause: error },
    );
  }
  const key = `re2:${JSON.stringify(pattern)}`;
  return { test: (text: string) => compiled.test(text), toString: () => key };
}

/** Why `pattern` cannot be used, or undefined when it can (for compile-time compatibility reports). */
export function patternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return error.problem;
    throw error;
  }
}

/**
 * Ajv's `code.regExp` option: every `pattern` / `patternProperties` goes through compilePattern.
 * (`code` names the engine in Ajv's standalone code generation, which SchemaRouter does not use.)
 */
export const linearRegExp: ((pattern: string, flags: string) => PatternMatcher) & { code: string } =
  Object.assign((pattern: string, _flags: string) => compilePattern(pattern), {
    code: "schemarouterLinearRegExp",
  });

/** A construct the translation refuses (RE2 has no linear-time equivalent). */
class Unsupported extends Error {}

const CLASS_ESCAPES = new Set(["d", "D", "w", "W"]);
const CONTROL: Readonly<Record<string, string>> = {
  f: "\\f",
  n: "\\n",
  r: "\\r",
  t: "\\t",
  v: "\\x{B}",
  "0": "\\x{0}",
};

/**
 * Translates an ECMA-262 `u`-mode pattern (already known to be valid) to RE2 syntax with the same
 * meaning, escape by escape: `.` and `\s` / `\S` get their ECMA-262 sets, `\u` / `\x` / `\c` escapes
 * become `\x{…}` code points (surrogate pairs joined), named groups become `(?P<name>…)`, and
 * backreferences and lookaround throw Unsupported. Nothing is dropped or guessed.
 */
function toRe2(pattern: string): string {
  let out = "";
  let inClass = false;
  let i = 0;
  const hexAt = (from: number, length: number): number | undefined => {
    const text = pattern.slice(from, from + length);
    return text.length === length && /^[0-9a-fA-F]+$/.test(text) ? Number.parseInt(text, 16) : undefined;
  };
  const codePoint = (value: number) => `\\x{${value.toString(16).toUpperCase()}}`;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      i += 2;
      if (next === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (next === "S") out += inClass ? "\\S" : `[^${WHITE_SPACE}]`;
      else if (CLASS_ESCAPES.has(next)) out += `\\${next}`;
      else if (next === "b") out += inClass ? codePoint(8) : "\\b";
      else if (next === "B") out += "\\B";
      else if (Object.hasOwn(CONTROL, next)) out += CONTROL[next];
      else if (next === "c") {
        out += codePoint(pattern.charCodeAt(i) % 32);
        i++;
      } else if (next === "x") {
        out += codePoint(hexAt(i, 2)!);
        i += 2;
      } else if (next === "u" && pattern[i] === "{") {
        const end = pattern.indexOf("}", i);
        out += codePoint(Number.parseInt(pattern.slice(i + 1, end), 16));
        i = end + 1;
      } else if (next === "u") {
        let value = hexAt(i, 4)!;
        i += 4;
        const low = pattern.startsWith("\\u", i) ? hexAt(i + 2, 4) : undefined;
        if (value >= 0xd800 && value <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
          value = 0x10000 + ((value - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
        out += codePoint(value);
      } else if (next === "p" || next === "P") {
        const end = pattern.indexOf("}", i);
        out += `\\${next}${pattern.slice(i, end + 1)}`;
        i = end + 1;
      } else if (next === "k" || /^[1-9]$/.test(next)) {
        throw new Unsupported("a backreference");
      } else if (/^[\^$\\.*+?()[\]{}|/-]$/.test(next)) out += `\\${next}`;
      else throw new Unsupported(`the escape \\${next}`);
      continue;
    }
    i++;
    if (inClass) {
      if (char === "]") inClass = false;
      // A `[` inside a class is literal in ECMA-262 but may start `[:alpha:]` in RE2.
      out += char === "[" ? "\\[" : char;
      continue;
    }
    if (char === "[") {
      // `[]` never matches and `[^]` matches anything in ECMA-262; RE2 reads a leading `]` as a member.
      if (pattern[i] === "]") {
        out += NOTHING;
        i++;
      } else if (pattern.startsWith("^]", i)) {
        out += ANYTHING;
        i += 2;
      } else {
        inClass = true;
        out += "[";
        if (pattern[i] === "^") {
          out += "^";
          i++;
        }
      }
      continue;
    }
    if (char === "(" && pattern[i] === "?") {
      const kind = pattern.slice(i + 1, i + 3);
      if (kind.startsWith("=") || kind.startsWith("!") || kind === "<=" || kind === "<!")
        throw new Unsupported("lookaround");
      if (kind.startsWith("<")) {
        out += "(?P<";
        i += 2;
        continue;
      }
    }
    out += char === "." ? NOT_LINE_TERMINATOR : char;
  }
  return out;
}
