/**
 * What a parallel run refused by its budget still delivers: the results of the calls it admitted
 * (they ran to the end) and the indexes of the calls it never started (docs/runtime/governed-execution.md).
 */
import type { ToolResult } from "../model/specs.js";

export interface PartialBatch {
  /** By call index: the result of every admitted call that completed; undefined for the rest. */
  readonly results: readonly (ToolResult | undefined)[];
  /** Indexes of the calls not run because the budget refused them (ascending). */
  readonly refused: readonly number[];
}

const PARTIAL = Symbol("schemarouter.partialBatch");

/** Attaches `partial` to the error a budgeted batch rejects with. */
export function withPartialBatch<E extends object>(error: E, partial: PartialBatch): E {
  Object.defineProperty(error, PARTIAL, { value: Object.freeze(partial), enumerable: false });
  return error;
}

/**
 * The completed results and the refused remainder of an `invokeBatch` that its budget stopped
 * (BUDGET_EXCEEDED), or undefined for any other error.
 */
export function partialBatchOf(error: unknown): PartialBatch | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  return (error as { [PARTIAL]?: PartialBatch })[PARTIAL];
}
