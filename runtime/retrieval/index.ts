/** Capability retrieval: bounded, typed, deterministic candidate sets over a Registry (no authority). */
export { compactCandidate, compactCandidateView, quoteText, UNTRUSTED_NOTICE } from "./compact.js";
export { DEFAULT_K, MAX_K, MAX_QUERY_LENGTH, RetrievalError } from "./errors.js";
export { type FieldMatch, type FieldTerms, fieldTerms, isMatched, matchFields } from "./fields.js";
export {
  createRetriever,
  type IndexStats,
  type Retriever,
  type RetrieverOptions,
  type SurfaceOptions,
} from "./retriever.js";
export {
  COMPONENT_ORDER,
  COVERAGE_WEIGHT,
  EXACT_WEIGHTS,
  LEXICAL_WEIGHTS,
  SAME_FIELD_UNIT_WEIGHT,
} from "./score.js";
export { routeOf } from "./surface.js";
export { normalizeKey, STOP_WORDS, stem, tokenize } from "./tokenize.js";
export type {
  CapabilityCandidate,
  EvidenceRequirements,
  ExecutableOptions,
  RetrievalRequest,
  RetrieveOptions,
  ScoreComponent,
  StateAwareOptions,
} from "./types.js";
