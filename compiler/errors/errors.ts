/**
 * Build-time errors name who is to blame: the config file, a source (with its name and cause), or
 * the compile step itself. Each carries a stable `code` of the compiler's table (./registry.ts;
 * docs/reference/error-codes.md), and only the codes its row names.
 */
import {
  type CodesOf,
  type DetailsArgs,
  type DetailsIn,
  meaningsOf,
  SchemaRouterError,
  SUBCLASS,
} from "schemarouter/internal";
import { COMPILER_ERRORS } from "./registry.js";

export type CompilerErrorCode = keyof typeof COMPILER_ERRORS;
export type CompilerErrorDetailsOf<C extends CompilerErrorCode> = DetailsIn<typeof COMPILER_ERRORS, C>;

/** Code → meaning, in table order. */
export const COMPILER_ERROR_CODES: Readonly<Record<CompilerErrorCode, string>> = meaningsOf(COMPILER_ERRORS);

type ConfigCode = CodesOf<typeof COMPILER_ERRORS, "ConfigError">;
type SourceCode = CodesOf<typeof COMPILER_ERRORS, "SourceError">;
type CompileCode = CodesOf<typeof COMPILER_ERRORS, "CompileError">;

export class ConfigError<C extends ConfigCode = ConfigCode> extends SchemaRouterError<
  C,
  CompilerErrorDetailsOf<C>
> {
  constructor(
    code: C,
    message: string,
    ...[details, options]: NoInfer<DetailsArgs<CompilerErrorDetailsOf<C>>>
  ) {
    super(code, message, details, options, SUBCLASS);
  }
}

export class SourceError<C extends SourceCode = SourceCode> extends SchemaRouterError<
  C,
  CompilerErrorDetailsOf<C>
> {
  readonly source: string;
  constructor(
    source: string,
    code: C,
    message: string,
    ...[details, options]: NoInfer<DetailsArgs<Omit<CompilerErrorDetailsOf<C>, "source">>>
  ) {
    // The details a source error is built with, plus the source it names: its row's shape.
    const named = { source, ...details } as CompilerErrorDetailsOf<C>;
    super(code, `source "${source}": ${message}`, named, options, SUBCLASS);
    this.source = source;
  }
}

export class CompileError<C extends CompileCode = CompileCode> extends SchemaRouterError<
  C,
  CompilerErrorDetailsOf<C>
> {
  constructor(
    code: C,
    message: string,
    ...[details, options]: NoInfer<DetailsArgs<CompilerErrorDetailsOf<C>>>
  ) {
    super(code, message, details, options, SUBCLASS);
  }
}

/** A compiler error of exactly one code: narrowing on `code` narrows `details`. */
export type AnyCompilerError = {
  [C in CompilerErrorCode]: SchemaRouterError<C, CompilerErrorDetailsOf<C>>;
}[CompilerErrorCode];

/** Whether `value` is one of the compiler's errors (ConfigError, SourceError, CompileError). */
export function isCompilerError(value: unknown): value is AnyCompilerError {
  return value instanceof ConfigError || value instanceof SourceError || value instanceof CompileError;
}
