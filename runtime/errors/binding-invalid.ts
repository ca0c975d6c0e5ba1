/**
 * Checks shared by every transport's binding options: a typed BINDING_INVALID naming the key, never a
 * bare TypeError, and limits that are positive integers (docs/common-mistakes.md).
 */
import { SchemaRouterError } from "./errors.js";

export function bindingInvalid(
  key: string,
  message: string,
  tool?: string,
): SchemaRouterError<"BINDING_INVALID"> {
  return new SchemaRouterError("BINDING_INVALID", message, { key, ...(tool !== undefined ? { tool } : {}) });
}

/** `value` when it is a positive safe integer (a byte, time or count limit), undefined when absent. */
export function positiveLimit(owner: string, key: string, value: unknown, tool?: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw bindingInvalid(
      key,
      `${owner}: ${key} must be a positive integer (got ${typeof value === "string" ? JSON.stringify(value) : String(value)}).`,
      tool,
    );
  return value;
}
