/**
 * Refusals of the untrusted planning helpers. A model analyzer or decision backend that returns
 * something malformed, unknown or out of range fails closed with one of these codes (the
 * PlanningError rows of the error registry, docs/reference/error-codes.md).
 */
import {
  type DetailsArgs,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  SchemaRouterError,
  SUBCLASS,
} from "../errors/errors.js";
import { ERRORS } from "../errors/registry.js";
import { meaningsOf } from "../errors/table.js";

export type PlanningErrorCode = ErrorCodeOf<"PlanningError">;

/** Code → meaning of the planning refusals, from the registry. */
export const PLANNING_ERROR_CODES = meaningsOf(ERRORS, "PlanningError");

export class PlanningError<C extends PlanningErrorCode = PlanningErrorCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}
