/**
 * Linear-time regular expressions for JSON Schema `pattern` and `patternProperties`
 * (docs/runtime/execution-boundary.md step 5, "Patterns"). Remote schemas choose the patterns, and a
 * backtracking engine can spend exponential time on one like `^(a+)+$`, synchronously, where no
 * wall-clock budget can stop it. Patterns therefore run on RE2 (re2js, pure JavaScript, linear in the
 * input), translated from their parsed AST with ECMA-262 meanings kept (regexp-translate.ts). A pattern
 * that is not valid ECMA-262 (`u` mode) or that RE2 cannot run (backreferences, lookaround) is refused
 * when the validator is compiled (UnsupportedPatternError): never matched by backtracking, never ignored.
 */
import { createRequire } from "node:module";
import { SchemaRouterError, SUBCLASS } from "../errors/errors.js";
import { translateToRe2, Unsupported } from "./regexp-translate.js";

type Re2Module = typeof import("re2js");

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
    compiled = RE2JS.compile(translateToRe2(pattern));
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
