/** The optional embedder layer over retrieval (docs/runtime/embeddings.md). */
export { EmbedderError, type EmbedderErrorCode } from "./errors.js";
export {
  DEFAULT_MIN_SIMILARITY,
  type EmbeddingCandidate,
  type EmbeddingPlacement,
  type EmbeddingRetrieveOptions,
  FUSION_K,
  retrieveWithEmbeddings,
} from "./retrieve.js";
export {
  DEFAULT_MIN_FIELD_SIMILARITY,
  type EmbeddingRouteOptions,
  type EmbeddingRouteResult,
  routeWithEmbeddings,
} from "./route.js";
export { endpointText, fieldText, queryText } from "./text.js";
export type { Embedder, EmbeddingVector } from "./types.js";
export { createEmbeddingIndex, type EmbeddingIndex, type RouteSimilarity } from "./vector-index.js";
export { DEFAULT_BATCH_SIZE, type EmbedOptions, type EmbedStage, embedTexts } from "./vectors.js";
