/**
 * The refusals of the application's embedder (docs/runtime/embeddings.md, "Errors"): it threw
 * (`EMBEDDER_FAILED`) or answered out of shape (`EMBEDDER_OUTPUT_INVALID`), at compile time or for a
 * request. Rows of the error registry (docs/reference/error-codes.md).
 */
import {
  type DetailsArgs,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  SchemaRouterError,
  SUBCLASS,
} from "../../errors/errors.js";

export type EmbedderErrorCode = ErrorCodeOf<"EmbedderError">;

export class EmbedderError<C extends EmbedderErrorCode = EmbedderErrorCode> extends SchemaRouterError<C> {
  constructor(code: C, message: string, ...[details, options]: NoInfer<DetailsArgs<ErrorDetailsOf<C>>>) {
    super(code, message, details, options, SUBCLASS);
  }
}
