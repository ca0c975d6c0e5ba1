/**
 * StateError: a shared state store (budgets, availability, traces on PostgreSQL) could not be used.
 * Every failure of the store itself is one of these codes, so a budgeted call that cannot be metered
 * is refused with a code the caller can act on (docs/state/postgres.md, "Failure semantics").
 */
import { type ErrorDetails, SchemaRouterError } from "../../errors/errors.js";

export type StateErrorCode =
  | "STATE_UNAVAILABLE"
  | "STATE_MIGRATION_REQUIRED"
  | "STATE_SCHEMA_UNSUPPORTED"
  | "STATE_BUDGET_CONFLICT"
  | "STATE_CONFIG_INVALID"
  | "OPTIONAL_DEPENDENCY_MISSING";

export class StateError extends SchemaRouterError {
  declare readonly code: StateErrorCode;
  constructor(code: StateErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}
