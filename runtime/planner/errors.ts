/**
 * Refusals of the untrusted planning helpers. A model analyzer or decision backend that returns
 * something malformed, unknown or out of range fails closed with one of these codes.
 */
import { SchemaRouterError } from "../errors/errors.js";

export const PLANNING_ERROR_CODES = {
  ANALYZER_FAILED: "The model callback of a ModelQueryAnalyzer threw or rejected.",
  ANALYZER_OUTPUT_INVALID: "The model's proposal is not a JSON object of the expected shape.",
  DECISION_BACKEND_FAILED: "The decision backend threw or rejected.",
  DECISION_MALFORMED: "The decision result is not an object of the expected shape.",
  DECISION_UNKNOWN_OPTION: "The decision result names an option ID that was not offered.",
  DECISION_DUPLICATE_OPTION: "The decision result selects the same option twice.",
  DECISION_SCORE_INVALID: "A decision confidence or score is not a finite number in [0, 1].",
} as const;

export type PlanningErrorCode = keyof typeof PLANNING_ERROR_CODES;

export class PlanningError extends SchemaRouterError {
  declare readonly code: PlanningErrorCode;
  constructor(
    code: PlanningErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
  }
}
