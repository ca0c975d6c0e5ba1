/**
 * What a model sees when SchemaRouter refuses or fails a call (docs/agents/README.md, "Refusals"):
 * `{ ok: false, code, retryable, message }`. The message is structural: it is built here from the
 * stable code, the tool's provider-safe name and locally declared facts (parameter names, schema
 * keywords), never from argument values, remote response text or credentials. The full error stays
 * with the application (traces, logs); the model gets only what helps it decide what to do next.
 */
import { ERROR_CODES, InvocationError, isSchemaRouterError } from "../errors/errors.js";

export interface ToolRefusal {
  readonly ok: false;
  readonly code: string;
  /** Whether calling again can succeed: after fixing the arguments, or later for a transient failure. */
  readonly retryable: boolean;
  readonly message: string;
}

export interface ToolSuccess<T = unknown> {
  readonly ok: true;
  readonly data: T;
}

export type ToolOutcome<T = unknown> = ToolSuccess<T> | ToolRefusal;

type Advice = { readonly retryable: boolean | "transient"; readonly next: string };

const FIX_ARGUMENTS: Advice = {
  retryable: true,
  next: "Fix the arguments to match the tool's input schema, then call it again.",
};
const NOT_PERMITTED: Advice = {
  retryable: false,
  next: "Do not retry this call or work around it with another tool; tell the user it is not permitted here.",
};
const CONTRACT_CHANGED: Advice = {
  retryable: false,
  next: "Retrying will not help: the capability changed since this tool was built. Tell the user it needs to be updated.",
};
const UPSTREAM_BROKEN: Advice = {
  retryable: false,
  next: "Retrying will not help: the service answered with data that does not match its locked contract. Tell the user.",
};
const UNAVAILABLE: Advice = {
  retryable: "transient",
  next: "The service could not complete the call; it may work if tried again later.",
};

const ADVICE: Readonly<Record<string, Advice>> = {
  UNKNOWN_TOOL: { retryable: true, next: "Call only the tools you were given, by their exact names." },
  UNKNOWN_ENDPOINT: CONTRACT_CHANGED,
  MISSING_FINGERPRINT: CONTRACT_CHANGED,
  STALE_FINGERPRINT: CONTRACT_CHANGED,
  STALE_TOOL_FINGERPRINT: CONTRACT_CHANGED,
  STALE_BINDING: CONTRACT_CHANGED,
  REMOTE_DRIFT: CONTRACT_CHANGED,
  LOCK_MISMATCH: CONTRACT_CHANGED,
  BINDING_NOT_READY: { retryable: false, next: "This tool is not connected here; tell the user." },
  UNDECLARED_ARGUMENT: FIX_ARGUMENTS,
  MISSING_REQUIRED_ARGUMENT: FIX_ARGUMENTS,
  INPUT_SCHEMA_VIOLATION: FIX_ARGUMENTS,
  UNSUPPORTED_PATTERN: CONTRACT_CHANGED,
  UNDECLARED_FIELD: CONTRACT_CHANGED,
  OVERLAPPING_FIELDS: CONTRACT_CHANGED,
  INVALID_FILTER: FIX_ARGUMENTS,
  INVALID_FILTER_VALUE: FIX_ARGUMENTS,
  UNKNOWN_FILTER_PROPERTY: FIX_ARGUMENTS,
  UNSUPPORTED_FILTER: FIX_ARGUMENTS,
  POLICY_DENIED: NOT_PERMITTED,
  APPROVAL_DENIED: {
    retryable: false,
    next: "The call was not approved. Do not retry it; ask the user how to proceed.",
  },
  BUDGET_EXCEEDED: { retryable: false, next: "The run's budget is used up: make no further tool calls." },
  HOOK_FAILED: NOT_PERMITTED,
  TRANSPORT_REFUSED: NOT_PERMITTED,
  OUTPUT_SCHEMA_VIOLATION: UPSTREAM_BROKEN,
  RESPONSE_NOT_JSON: UPSTREAM_BROKEN,
  UNIT_NORMALIZATION_FAILED: UPSTREAM_BROKEN,
  RESPONSE_TOO_LARGE: {
    retryable: false,
    next: "The answer was larger than allowed here; ask for less (e.g. a smaller page or a narrower query).",
  },
  INVOCATION_UNAVAILABLE: UNAVAILABLE,
  HTTP_STATUS: UNAVAILABLE,
  TOOL_ERROR: UNAVAILABLE,
  RUN_ABORTED: { retryable: false, next: "The run was stopped; make no further tool calls." },
  SERVE_BUSY: { retryable: true, next: "The server is busy; it may work if tried again shortly." },
  ODATA_ERROR: UNAVAILABLE,
  ODATA_ARGUMENT_INVALID: FIX_ARGUMENTS,
};

const DEFAULT_ADVICE: Advice = { retryable: false, next: "Retrying will not help; tell the user." };
const SAFE_TOKEN = /^[A-Za-z0-9_.\-[\]/]{1,64}$/;

/** Facts the message may name: the tool's provider-safe name and its declared parameter names. */
export interface RefusalContext {
  readonly name: string;
  readonly parameters?: ReadonlySet<string>;
}

/** Builds the model-facing refusal for a SchemaRouterError. */
export function refusalOf(error: unknown, context: RefusalContext): ToolRefusal {
  const code = isSchemaRouterError(error) ? error.code : "TOOL_ERROR";
  const advice = (Object.hasOwn(ADVICE, code) ? ADVICE[code] : undefined) ?? DEFAULT_ADVICE;
  const retryable =
    advice.retryable === "transient"
      ? error instanceof InvocationError
        ? error.retryable
        : false
      : advice.retryable;
  const summary = Object.hasOwn(ERROR_CODES, code)
    ? ERROR_CODES[code as keyof typeof ERROR_CODES]
    : "The call failed.";
  const where =
    isSchemaRouterError(error) && ADVICE[code] === FIX_ARGUMENTS ? locate(error.details, context) : "";
  return Object.freeze({
    ok: false,
    code,
    retryable,
    message: `${context.name}: ${summary}${where} ${advice.next}`,
  });
}

/** A refusal made by an adapter itself (e.g. a tool call naming no known tool, or arguments that are not JSON). */
export function adapterRefusal(code: "UNKNOWN_TOOL" | "INPUT_SCHEMA_VIOLATION", name: string): ToolRefusal {
  const advice = ADVICE[code]!;
  const summary =
    code === "UNKNOWN_TOOL" ? "There is no tool of that name." : "The arguments are not a JSON object.";
  return Object.freeze({
    ok: false,
    code,
    retryable: advice.retryable === true,
    message: `${safeToken(name) ?? "(unnamed tool)"}: ${summary} ${advice.next}`,
  });
}

/**
 * The declared parameter an argument refusal is about, or the schema locations and keywords of an
 * input-schema violation (top-level segment limited to declared parameters), when there are any.
 */
function locate(details: Readonly<Record<string, unknown>>, context: RefusalContext): string {
  const declared = context.parameters ?? new Set<string>();
  const argument = details.argument;
  if (typeof argument === "string" && declared.has(argument) && safeToken(argument) !== undefined) {
    return ` Argument: "${argument}".`;
  }
  const violations = details.violations;
  if (!Array.isArray(violations)) return "";
  const places: string[] = [];
  for (const violation of violations.slice(0, 5)) {
    if (violation === null || typeof violation !== "object") continue;
    const { pointer, keyword } = violation as { pointer?: unknown; keyword?: unknown };
    if (typeof pointer !== "string" || typeof keyword !== "string" || safeToken(keyword) === undefined)
      continue;
    const top = pointer.split("/")[1];
    const shown =
      pointer === "" ? "(root)" : top !== undefined && declared.has(top) ? `/${safeToken(top) ?? "…"}` : "/…";
    places.push(`${shown} (${keyword})`);
  }
  return places.length > 0 ? ` At ${places.join(", ")}.` : "";
}

function safeToken(text: string): string | undefined {
  return SAFE_TOKEN.test(text) ? text : undefined;
}

/** The JSON text of an outcome (what string-only tool result channels carry). */
export function outcomeText(outcome: ToolOutcome): string {
  return JSON.stringify(outcome) ?? "null";
}

/** The error a refused call throws inside a framework that reports thrown errors to the model; its message is the refusal as JSON. */
export class AgentToolRefusalError extends Error {
  constructor(readonly refusal: ToolRefusal) {
    super(outcomeText(refusal));
    this.name = "AgentToolRefusalError";
  }
}
