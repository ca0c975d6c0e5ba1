/**
 * schemarouter — the runtime. Loads pinned capability artifacts, refuses drift, and executes every
 * call through one fail-closed boundary. This module is the facade and what applications need; the
 * built-in invokers, traces, format helpers and binding support live behind named subpaths
 * (docs/reference/exports.md).
 */

export {
  bindClient,
  type CallOptions,
  type EndpointPin,
  type Projected,
  type ProjectPaths,
  type TypedResult,
} from "./bindings/index.js";
// Governed execution: runs, budgets, retries, fallback, availability, health, hooks.
export type { ApprovalCallback, ApprovalContext, ApprovalRequest, CallContext } from "./boundary/executor.js";
export type { Binding, InvocationContext, Invoker } from "./boundary/invoker.js";
export type {
  ExecutionPolicyOptions,
  PolicyDecision,
  PolicyRuleOptions,
  PolicySubject,
} from "./boundary/policy.js";
export { type ApprovalMode, ExecutionPolicy, type PolicyAction, PolicyRule } from "./boundary/policy.js";
export {
  type AnySchemaRouterError,
  CallRefusedError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorCodeOf,
  type ErrorDetailsOf,
  InvocationError,
  InvocationUnavailableError,
  isSchemaRouterError,
  LoadError,
  NonRetryableInvocationError,
  SchemaRouterError,
} from "./errors/errors.js";
export {
  AvailabilityMemory,
  type AvailabilityOptions,
  type AvailabilityStatus,
} from "./governed/availability.js";
export {
  type BudgetLimit,
  type BudgetUsage,
  type CostSubject,
  ExecutionBudget,
  type ExecutionBudgetOptions,
} from "./governed/budget.js";
export type { ExecutionMode, RunConfig } from "./governed/config.js";
export { type GovernedCall, type GovernedPlan, MAX_FALLBACKS } from "./governed/fallback.js";
export {
  AccessHealthMonitor,
  type AccessHealthMonitorOptions,
  type HealthCheckResult,
  type HealthProbe,
  type HealthProbeContext,
  type HealthProbeOptions,
} from "./governed/health.js";
export type {
  AfterHook,
  AfterHookSnapshot,
  BeforeHook,
  ExecutionHooks,
  HookCallSnapshot,
} from "./governed/hooks.js";
export { type PartialBatch, partialBatchOf } from "./governed/partial.js";
export { isTransient, RetryPolicy, type RetryPolicyOptions } from "./governed/retry.js";
export type { RunInput } from "./governed/runner.js";
// Shared state (docs/state/postgres.md): budgets and availability beyond one run or process.
export type { AvailabilityStore, ProbeVerdict } from "./governed/state/availability-store.js";
export type {
  BudgetRefusal,
  BudgetRequest,
  RateQuota,
  ReserveResult,
  SharedBudgetLimit,
  SharedBudgetLimits,
  SharedBudgetStore,
  SharedBudgetUsage,
} from "./governed/state/budget-store.js";
export { StateError, type StateErrorCode } from "./governed/state/errors.js";
export { MemoryBudgetStore } from "./governed/state/memory-budget.js";
export {
  type BudgetReservation,
  SharedBudget,
  type SharedBudgetOptions,
} from "./governed/state/shared-budget.js";
export {
  type ArgumentSupplier,
  type CapabilityContract,
  type CapabilityEdge,
  CapabilityGraph,
  type CycleReport,
  findCycles,
  type GraphFormat,
  renderGraph,
} from "./graph/index.js";
export type { VerifyMode } from "./load/load.js";
export { type RegisteredTool, Registry, registerTool } from "./load/registry.js";
export type {
  CompatibilityIssue,
  Effect,
  EndpointSpec,
  FieldSpec,
  JsonSchema,
  JsonValue,
  ParameterSpec,
  ServerProjectionSpec,
  SourceKind,
  ToolCall,
  ToolResult,
  ToolSpec,
  UnitNormalization,
} from "./model/specs.js";
export {
  type AnalyzerOptions,
  type CandidateOffer,
  type CoolingDownRoute,
  type Coverage,
  type DecisionBackend,
  type DecisionInput,
  type DecisionOption,
  type DecisionPlanOptions,
  type DecisionPluginOptions,
  type DecisionResult,
  type ExecutionPlan,
  type FallbackRoute,
  loadDecisionBackend,
  type MissingArgument,
  type ModelCallback,
  ModelQueryAnalyzer,
  type PlanExplanation,
  type PlannedCall,
  PlanningError,
  type PlanOptions,
  plan,
  planWithDecision,
  type QueryProposal,
} from "./planner/index.js";
// The optional embedder (docs/runtime/embeddings.md): vectors only re-rank or add candidates.
export {
  createEmbeddingIndex,
  DEFAULT_MIN_SIMILARITY,
  type Embedder,
  EmbedderError,
  type EmbeddingCandidate,
  type EmbeddingIndex,
  type EmbeddingPlacement,
  type EmbeddingRetrieveOptions,
  type EmbeddingVector,
  retrieveWithEmbeddings,
} from "./retrieval/embeddings/index.js";
export {
  DEFAULT_MIN_FIELD_SIMILARITY,
  type EmbeddingRouteOptions,
  type EmbeddingRouteResult,
  routeWithEmbeddings,
} from "./retrieval/embeddings/route.js";
export {
  type CapabilityCandidate,
  compactCandidateView,
  createRetriever,
  DEFAULT_MIN_CONCEPT_COVERAGE,
  type EvidenceRequirements,
  RetrievalError,
  type RetrievalRequest,
  type RetrieveOptions,
  type Retriever,
  type RouteOptions,
  type RouteResult,
  route,
  type StateAwareOptions,
  type UncoveredConcept,
} from "./retrieval/index.js";
export type { BindingOf, BindingShapes } from "./router/binding-shapes.js";
export type {
  GraphqlBindingOptions,
  OdataBindingOptions,
  OpenRpcBindingOptions,
  OptimadeBindingOptions,
} from "./router/router.js";
export {
  type BindingConfig,
  type McpBindingOptions,
  type RouterState,
  SchemaRouter,
  type SchemaRouterOptions,
} from "./router/router.js";
export type { ReloadResult, RouterSnapshot, WatchOptions } from "./router/snapshot.js";
export {
  isTerminal,
  RUN_EVENT_TYPES,
  type RunEvent,
  type RunEventOf,
  type RunEventType,
  TraceError,
  validateRunEvent,
} from "./traces/events.js";
export type { StoredEvent, TraceStore } from "./traces/store.js";
export type { GraphqlBindingSettings } from "./transports/graphql/transport.js";
export type { DispatcherLike, HttpBindingOptions } from "./transports/http/transport.js";
export type { ArgumentsOf, SchemaValue } from "./transports/local/schema-arguments.js";
export {
  defineLocalTool,
  type LocalEndpointDefinition,
  type LocalToolDefinition,
  localEndpoint,
  type TypedLocalEndpoint,
  type TypedLocalTool,
} from "./transports/local/transport.js";
export type { McpClientFactory, McpClientLike, McpConnectionOptions } from "./transports/mcp/transport.js";
export type { OdataBindingSettings, OdataLimits } from "./transports/odata/transport.js";
export type { OpenRpcBindingSettings, OpenRpcLimits } from "./transports/openrpc/transport.js";
export type { OptimadeBindingSettings, OptimadeLimits } from "./transports/optimade/transport.js";
