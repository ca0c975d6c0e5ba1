/**
 * Every refusal is a SchemaRouterError with a stable string `code` (part of the public API) and
 * structured `details`. Messages say what to do next. Codes, the class that carries each and the
 * shape of its details come from one table (./registry.ts; docs/reference/error-codes.md), so an
 * unknown code or reason does not compile, and a class takes only its own codes.
 */
import { type ERROR_CLASSES, ERRORS } from "./registry.js";
import { type CodesOf, type DetailsIn, meaningsOf } from "./table.js";

export type ErrorCode = keyof typeof ERRORS;
export type ErrorClassName = keyof typeof ERROR_CLASSES;
/** The codes class K carries. */
export type ErrorCodeOf<K extends ErrorClassName> = CodesOf<typeof ERRORS, K>;
/** The `details` of code C (of several codes: see DetailsIn). */
export type ErrorDetailsOf<C extends ErrorCode> = DetailsIn<typeof ERRORS, C>;
/** Details as a class outside this table sees them (the compiler's classes narrow them again). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** Code → meaning, in table order. Run events without payloads quote the meaning. */
export const ERROR_CODES: Readonly<Record<ErrorCode, string>> = meaningsOf(ERRORS);

/** What every error class accepts besides its details. */
export interface CauseOptions {
  readonly cause?: unknown;
}

/** `details` may be left out when the code has no required member. */
export type DetailsArgs<D, O = CauseOptions> = {} extends D
  ? [details?: D | undefined, options?: O | undefined]
  : [details: D, options?: O | undefined];

/** What a subclass passes last to its parent's constructor: it takes any code of its own table. */
export const SUBCLASS: unique symbol = Symbol("schemarouter.error-subclass");

type DetailsFor<C extends string> = [C] extends [ErrorCode] ? ErrorDetailsOf<C> : ErrorDetails;

/**
 * The root of every error class. `C` is the code (one or several), `D` its details; a class of another
 * table (the compiler's) passes its own details type.
 */
export class SchemaRouterError<C extends string = ErrorCode, D extends object = DetailsFor<C>> extends Error {
  readonly code: C;
  readonly details: D;

  constructor(
    code: C extends ErrorCodeOf<"SchemaRouterError"> ? C : ErrorCodeOf<"SchemaRouterError">,
    message: string,
    ...rest: NoInfer<DetailsArgs<D>>
  );
  constructor(
    code: C,
    message: string,
    details: NoInfer<D> | undefined,
    options: CauseOptions | undefined,
    subclass: typeof SUBCLASS,
  );
  constructor(code: C, message: string, details?: object, options?: CauseOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.details = (details ?? {}) as D;
  }
}

/** A SchemaRouterError of exactly one code: narrowing on `code` narrows `details`. */
export type AnySchemaRouterError = { [C in ErrorCode]: SchemaRouterError<C> }[ErrorCode];

export function isSchemaRouterError(value: unknown): value is AnySchemaRouterError {
  return value instanceof SchemaRouterError;
}

type LoadCode = ErrorCodeOf<"LoadError">;

/** The artifacts or the lockfile cannot be trusted: nothing is loaded. */
export class LoadError<C extends LoadCode = LoadCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}

type CallRefusedCode = ErrorCodeOf<"CallRefusedError">;

/** The executor refused a call before any transport ran. */
export class CallRefusedError<C extends CallRefusedCode = CallRefusedCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}

export interface InvocationErrorOptions extends CauseOptions {
  readonly retryable?: boolean;
}

type InvocationCode =
  | ErrorCodeOf<"InvocationError">
  | ErrorCodeOf<"InvocationUnavailableError">
  | ErrorCodeOf<"NonRetryableInvocationError">;

/** The transport ran and failed, or its output was refused. */
export class InvocationError<C extends InvocationCode = InvocationCode> extends SchemaRouterError<C> {
  /** Whether a retry could succeed (transient failure); the executor still decides. */
  readonly retryable: boolean;

  constructor(
    code: C extends ErrorCodeOf<"InvocationError"> ? C : ErrorCodeOf<"InvocationError">,
    message: string,
    ...rest: NoInfer<DetailsArgs<ErrorDetailsOf<C>, InvocationErrorOptions>>
  );
  constructor(
    code: C,
    message: string,
    details: NoInfer<ErrorDetailsOf<C>> | undefined,
    options: InvocationErrorOptions | undefined,
    subclass: typeof SUBCLASS,
  );
  constructor(code: C, message: string, details?: ErrorDetailsOf<C>, options?: InvocationErrorOptions) {
    super(code, message, details, options, SUBCLASS);
    this.retryable = options?.retryable ?? false;
  }
}

/** The access path is unavailable (timeout, connection failure, crashed process, 429/5xx exhausted). */
export class InvocationUnavailableError extends InvocationError<"INVOCATION_UNAVAILABLE"> {
  constructor(
    message: string,
    details?: ErrorDetailsOf<"INVOCATION_UNAVAILABLE">,
    options?: InvocationErrorOptions,
  ) {
    super("INVOCATION_UNAVAILABLE", message, details, { retryable: true, ...options }, SUBCLASS);
  }
}

/** A trusted invoker can throw this to keep the retry loop out. */
export class NonRetryableInvocationError extends InvocationError<"TOOL_ERROR"> {
  constructor(message: string, details?: ErrorDetailsOf<"TOOL_ERROR">, options?: CauseOptions) {
    super("TOOL_ERROR", message, details, { ...options, retryable: false }, SUBCLASS);
  }
}
