/**
 * Typed run lifecycle events (RunEvent), their hand-written structural validation, and the typed
 * TraceError every trace refusal throws (docs/trust-model.md §20 and §23).
 */
import {
  type DetailsArgs,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  SchemaRouterError,
  SUBCLASS,
} from "../errors/errors.js";

export const RUN_EVENT_TYPES = [
  "run.start",
  "plan.end",
  "tool.start",
  "tool.end",
  "tool.error",
  "tool.fallback",
  "run.end",
  "run.error",
] as const;

export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

/** The event types that end a run: nothing may follow them. */
export const TERMINAL_EVENT_TYPES: readonly RunEventType[] = ["run.end", "run.error"];

/** The envelope every event carries. */
export interface RunEventEnvelope<T extends RunEventType> {
  readonly runId: string;
  /** 0, 1, 2, … contiguous per run. */
  readonly sequence: number;
  /** ISO 8601 UTC with millisecond precision, exactly as `Date.prototype.toISOString()` writes it. */
  readonly timestamp: string;
  readonly type: T;
}

export interface RunEventPayloads {
  readonly "run.start": {
    readonly tags: readonly string[];
    readonly metadata: Readonly<Record<string, string>>;
  };
  readonly "plan.end": { readonly calls: number };
  readonly "tool.start": {
    readonly callIndex: number;
    readonly tool: string;
    readonly endpoint: string;
    readonly endpointFingerprint: string;
    readonly toolFingerprint: string;
    /** JSON arguments; stored redacted unless the store includes payloads. */
    readonly arguments?: unknown;
    /** 1-based attempt number of this logical call. */
    readonly attempt: number;
  };
  readonly "tool.end": {
    readonly callIndex: number;
    readonly tool: string;
    readonly endpoint: string;
    readonly attempts: number;
    readonly durationMs: number;
    readonly fields: readonly string[];
    /** JSON result; stored redacted unless the store includes payloads. */
    readonly result?: unknown;
  };
  readonly "tool.error": {
    readonly callIndex: number;
    readonly tool: string;
    readonly endpoint: string;
    readonly code: string;
    readonly message: string;
    readonly attempts: number;
  };
  readonly "tool.fallback": {
    readonly callIndex: number;
    readonly fromTool: string;
    readonly fromEndpoint: string;
    readonly toTool: string;
    readonly toEndpoint: string;
    readonly reason: string;
  };
  readonly "run.end": { readonly calls: number; readonly durationMs: number };
  readonly "run.error": { readonly code: string; readonly message: string };
}

/** The event(s) of the given type(s); distributes over a union of types. */
export type RunEventOf<T extends RunEventType> = T extends RunEventType
  ? RunEventEnvelope<T> & RunEventPayloads[T]
  : never;
export type RunEvent = { [T in RunEventType]: RunEventOf<T> }[RunEventType];

export type TraceErrorCode = ErrorCodeOf<"TraceError">;

/** A run event or a trace was refused (invalid event, broken ordering, damaged or foreign store). */
export class TraceError<C extends TraceErrorCode = TraceErrorCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}

export function isTerminal(event: RunEvent): boolean {
  return isTerminalType(event.type);
}

export function isTerminalType(type: string): boolean {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(type);
}

/** Returns a problem description, or undefined when the value is acceptable. */
type Check = (value: unknown) => string | undefined;
interface Rule {
  readonly check: Check;
  readonly optional?: true;
}
/** One rule per key of P, `optional: true` exactly on P's optional keys (checked by the compiler). */
type Shape<P> = {
  readonly [K in keyof P]-?: {} extends Pick<P, K>
    ? Rule & { readonly optional: true }
    : Rule & { readonly optional?: never };
};

const MAX_NAME = 512;
const MAX_TEXT = 65_536;
const MAX_JSON_DEPTH = 128;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

const text: Check = (v) =>
  typeof v !== "string"
    ? "must be a string"
    : v.length > MAX_TEXT
      ? `must be at most ${MAX_TEXT} chars`
      : undefined;
const name: Check = (v) =>
  typeof v !== "string" || v.length === 0 || v.length > MAX_NAME
    ? `must be a non-empty string of at most ${MAX_NAME} chars`
    : undefined;
const integer =
  (min: number): Check =>
  (v) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= min ? undefined : `must be an integer >= ${min}`;
const duration: Check = (v) =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? undefined : "must be a finite number >= 0";
const fingerprint: Check = (v) =>
  typeof v === "string" && FINGERPRINT.test(v) ? undefined : "must be a fingerprint `sha256:<64 hex>`";
const code: Check = (v) =>
  typeof v === "string" && CODE.test(v)
    ? undefined
    : "must be an error code like `TOOL_ERROR` ([A-Z][A-Z0-9_]*)";
const names: Check = (v) => {
  if (!Array.isArray(v)) return "must be an array of strings";
  const bad = v.findIndex((item) => name(item) !== undefined);
  return bad === -1 ? undefined : `[${bad}] must be a non-empty string of at most ${MAX_NAME} chars`;
};
const stringRecord: Check = (v) => {
  if (!isPlainObject(v)) return "must be an object of strings";
  const bad = Object.keys(v).find(
    (key) => typeof v[key] !== "string" || (v[key] as string).length > MAX_TEXT,
  );
  return bad === undefined ? undefined : `.${bad} must be a string of at most ${MAX_TEXT} chars`;
};
const json: Check = (v) => jsonProblem(v, 0);

const CALL = { callIndex: { check: integer(0) }, tool: { check: name }, endpoint: { check: name } } as const;

const PAYLOAD_SHAPES: { readonly [T in RunEventType]: Shape<RunEventPayloads[T]> } = {
  "run.start": { tags: { check: names }, metadata: { check: stringRecord } },
  "plan.end": { calls: { check: integer(0) } },
  "tool.start": {
    ...CALL,
    endpointFingerprint: { check: fingerprint },
    toolFingerprint: { check: fingerprint },
    arguments: { check: json, optional: true },
    attempt: { check: integer(1) },
  },
  "tool.end": {
    ...CALL,
    attempts: { check: integer(1) },
    durationMs: { check: duration },
    fields: { check: names },
    result: { check: json, optional: true },
  },
  "tool.error": { ...CALL, code: { check: code }, message: { check: text }, attempts: { check: integer(0) } },
  "tool.fallback": {
    callIndex: { check: integer(0) },
    fromTool: { check: name },
    fromEndpoint: { check: name },
    toTool: { check: name },
    toEndpoint: { check: name },
    reason: { check: text },
  },
  "run.end": { calls: { check: integer(0) }, durationMs: { check: duration } },
  "run.error": { code: { check: code }, message: { check: text } },
};

const ENVELOPE: Shape<RunEventEnvelope<RunEventType>> = {
  runId: { check: name },
  sequence: { check: integer(0) },
  timestamp: {
    check: (v) =>
      typeof v === "string" && TIMESTAMP.test(v) && isCanonicalInstant(v)
        ? undefined
        : "must be an ISO 8601 UTC timestamp as Date#toISOString() writes it (e.g. 2025-01-01T00:00:00.000Z)",
  },
  type: { check: (v) => (isRunEventType(v) ? undefined : `must be one of ${RUN_EVENT_TYPES.join(", ")}`) },
};

/**
 * Checks that `value` is exactly a RunEvent: known type, every required key with the right type, no
 * extra keys, JSON-only payloads. Returns a detached deep copy; throws `INVALID_RUN_EVENT` otherwise.
 */
export function validateRunEvent(value: unknown): RunEvent {
  if (!isPlainObject(value)) throw invalid("$", "must be a plain object");
  const typeProblem = ENVELOPE.type.check(value.type);
  if (typeProblem !== undefined) throw invalid("$.type", typeProblem);
  const shape: Readonly<Record<string, Rule>> = {
    ...ENVELOPE,
    ...PAYLOAD_SHAPES[value.type as RunEventType],
  };
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(shape, key))
      throw invalid(`$.${key}`, `is not a key of a ${String(value.type)} event`);
  }
  for (const [key, rule] of Object.entries(shape)) {
    if (!Object.hasOwn(value, key)) {
      if (rule.optional) continue;
      throw invalid(`$.${key}`, "is required");
    }
    if (value[key] === undefined) throw invalid(`$.${key}`, "is undefined; omit the key instead");
    const problem = rule.check(value[key]);
    if (problem !== undefined) throw invalid(`$.${key}`, problem);
  }
  return JSON.parse(JSON.stringify(value)) as RunEvent;
}

export function isRunEventType(value: unknown): value is RunEventType {
  return typeof value === "string" && (RUN_EVENT_TYPES as readonly string[]).includes(value);
}

function isCanonicalInstant(timestamp: string): boolean {
  const time = Date.parse(timestamp);
  return Number.isFinite(time) && new Date(time).toISOString() === timestamp;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function jsonProblem(value: unknown, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `must be JSON nested at most ${MAX_JSON_DEPTH} levels (or is cyclic)`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : "must be JSON (finite numbers only)";
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) return "must be JSON (no sparse arrays)";
      const problem = jsonProblem(value[index], depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value))
    return "must be JSON (plain objects, arrays, strings, finite numbers, booleans, null)";
  for (const item of Object.values(value)) {
    if (item === undefined) return "must be JSON (no undefined properties)";
    const problem = jsonProblem(item, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function invalid(path: string, problem: string): TraceError {
  return new TraceError(
    "INVALID_RUN_EVENT",
    `Invalid RunEvent: ${path} ${problem}. Build events with the documented RunEvent shape (no extra keys).`,
    { path, problem },
  );
}
