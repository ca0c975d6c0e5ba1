/**
 * StateError: a shared state store (budgets, availability, traces on PostgreSQL) could not be used.
 * Every failure of the store itself is one of these codes (rows of runtime/errors/registry.ts), so a
 * budgeted call that cannot be metered is refused with a code the caller can act on
 * (docs/state/postgres.md, "Failure semantics").
 */
import {
  type DetailsArgs,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  SchemaRouterError,
  SUBCLASS,
} from "../../errors/errors.js";

export type StateErrorCode = ErrorCodeOf<"StateError">;

export class StateError<C extends StateErrorCode = StateErrorCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}
