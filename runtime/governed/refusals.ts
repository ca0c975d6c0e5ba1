/**
 * Small constructors for the refusals of governed execution, so every module words them the same way.
 */
import type { PreparedCall } from "../boundary/checks.js";
import type { Executor } from "../boundary/executor.js";
import { UnsupportedPatternError } from "../boundary/regexp.js";
import {
  CallRefusedError,
  type ErrorCode,
  type ErrorDetailsOf,
  InvocationError,
  SchemaRouterError,
} from "../errors/errors.js";
import type { ToolCall } from "../model/specs.js";
import { structuralErrorMessage } from "../traces/redact.js";

/** An execution setting (RunConfig, ExecutionBudget, RetryPolicy, hooks, availability) is invalid. */
export function configInvalid(
  message: string,
  details: ErrorDetailsOf<"RUN_CONFIG_INVALID"> = {},
): SchemaRouterError<"RUN_CONFIG_INVALID"> {
  return new SchemaRouterError("RUN_CONFIG_INVALID", message, details);
}

/** Checks that `options` has only `known` keys (a typo must not silently drop a limit). */
export function assertOptionKeys(owner: string, options: unknown, known: readonly string[]): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw configInvalid(`${owner}: options must be an object.`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw configInvalid(`${owner}: unknown option "${key}". Known options: ${known.join(", ")}.`, {
        option: key,
      });
    }
  }
}

/** A non-negative safe integer option, or undefined when absent. */
export function integerOption(
  owner: string,
  name: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw configInvalid(
      `${owner}: ${name} must be an integer from ${min} to ${max} (got ${String(value)}).`,
      {
        option: name,
      },
    );
  }
  return value;
}

/** A finite number option within [min, max], or undefined when absent. */
export function numberOption(
  owner: string,
  name: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw configInvalid(`${owner}: ${name} must be a number from ${min} to ${max} (got ${String(value)}).`, {
      option: name,
    });
  }
  return value;
}

/** The code of any thrown value, for events: SchemaRouterError codes, TOOL_ERROR otherwise. */
export function codeOf(error: unknown): string {
  return error instanceof SchemaRouterError && /^[A-Z][A-Z0-9_]{0,63}$/.test(error.code)
    ? error.code
    : ("TOOL_ERROR" satisfies ErrorCode);
}

/** The message of any thrown value, bounded for events. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 4096 ? `${text.slice(0, 4096)}…` : text;
}

/**
 * The `message` of a tool.error / run.error event: the error's own message only when the run
 * includes payloads (it can quote argument values, filter text or upstream bodies), otherwise a
 * structural one (code, route, what the code means).
 */
export function eventMessage(error: unknown, includePayloads: boolean, route?: string): string {
  return includePayloads ? messageOf(error) : structuralErrorMessage(codeOf(error), route);
}

/**
 * A JSON Schema pattern the linear-time engine refused while a validator was compiled, raised as the
 * refusal of the schema it belongs to (details.reason "unsupported-pattern"): INPUT_SCHEMA_VIOLATION
 * for the arguments, OUTPUT_SCHEMA_VIOLATION (not retryable) for the raw output. Others pass through.
 */
export function asSchemaRefusal(error: unknown, which: "input" | "output", route: string): unknown {
  if (!(error instanceof UnsupportedPatternError)) return error;
  const details = { route, ...error.details };
  if (which === "input") {
    return new CallRefusedError(
      "INPUT_SCHEMA_VIOLATION",
      `${route}: the input schema cannot be enforced, so the call is refused. ${error.message}`,
      details,
      { cause: error },
    );
  }
  return new InvocationError(
    "OUTPUT_SCHEMA_VIOLATION",
    `${route}: the output schema cannot be enforced, so the result is refused. ${error.message}`,
    details,
    { cause: error, retryable: false },
  );
}

/**
 * Executor.prepareDetached (the runner detached the call's arguments), with an unsupported input-schema
 * pattern refused as INPUT_SCHEMA_VIOLATION.
 */
export function prepareChecked(executor: Executor, call: ToolCall): PreparedCall {
  try {
    return executor.prepareDetached(call);
  } catch (error) {
    throw asSchemaRefusal(error, "input", `${String(call.tool)}.${String(call.endpoint)}`);
  }
}

/** `executor.recheck` of a call prepared earlier, with the same refusal mapping as prepareChecked. */
export function recheckChecked(executor: Executor, prepared: PreparedCall): PreparedCall {
  try {
    return executor.recheck(prepared);
  } catch (error) {
    throw asSchemaRefusal(error, "input", prepared.route);
  }
}
