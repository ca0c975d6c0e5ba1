/** Field-first planning over a Registry: pinned ToolCalls, explanations, evidence, coverage, fallbacks. */
export {
  type AnalyzerOptions,
  type AnalyzerPrompt,
  type CandidateOffer,
  isJsonValue,
  type ModelCallback,
  ModelQueryAnalyzer,
  validateProposal,
} from "./analyzer.js";
export type { PlanOptions } from "./core.js";
export {
  type DecisionBackend,
  type DecisionInput,
  type DecisionOption,
  type DecisionPlanOptions,
  type DecisionResult,
  planWithDecision,
  validateDecision,
} from "./decision.js";
export {
  type DecisionPluginAllow,
  type DecisionPluginOptions,
  loadDecisionBackend,
} from "./decision-plugin.js";
export { PLANNING_ERROR_CODES, PlanningError, type PlanningErrorCode } from "./errors.js";
export { DEFAULT_MAX_FALLBACKS, isCounterpart } from "./fallbacks.js";
export { plan } from "./plan.js";
export { type DroppedProposalItem, mergeProposal, type QueryProposal } from "./proposal.js";
export { withArgumentSuppliers } from "./suppliers.js";
export type {
  CoolingDownRoute,
  Coverage,
  DecisionUse,
  DroppedField,
  EvidenceReport,
  ExecutionPlan,
  FallbackRoute,
  FieldEvidence,
  FieldSelectionMode,
  MissingArgument,
  PlanExplanation,
  PlannedCall,
  PlanRejection,
} from "./types.js";
