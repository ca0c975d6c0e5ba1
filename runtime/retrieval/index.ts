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
  type Assessment,
  type AssessOptions,
  assess,
  type CoverageReport,
  checkCoverage,
  DEFAULT_MIN_CONCEPT_COVERAGE,
  DEFAULT_ROUTE_DEPTH,
  type RouteOptions,
  type RouteResult,
  route,
  type UncoveredConcept,
  type UncoveredKind,
} from "./route.js";
export {
  COMPONENT_ORDER,
  COVERAGE_WEIGHT,
  EXACT_WEIGHTS,
  INTENT_WEIGHT,
  LEXICAL_WEIGHTS,
  SAME_FIELD_UNIT_WEIGHT,
  SYNONYM_WEIGHT,
} from "./score.js";
export { routeOf } from "./surface.js";
export { normalizeKey, STOP_WORDS, stem, tokenize, tokenizeQuery, unitTokens } from "./tokenize.js";
export type {
  CapabilityCandidate,
  EvidenceRequirements,
  ExecutableOptions,
  RetrievalRequest,
  RetrieveOptions,
  ScoreComponent,
  StateAwareOptions,
} from "./types.js";
export { FILLER_WORDS, type Need, needsOf, type RequestedConcept } from "./vocabulary/concepts.js";
export {
  DESTRUCTIVE_VERBS,
  type Intent,
  intentFit,
  intentOf,
  READ_VERBS,
  WRITE_VERBS,
} from "./vocabulary/intent.js";
export { canonicalWord, synonymsOf } from "./vocabulary/synonyms.js";
export { canonicalUnit, findUnits, type UnitMention, unitToken } from "./vocabulary/units.js";
