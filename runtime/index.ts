/**
 * schemarouter — the runtime. Loads pinned capability artifacts, refuses drift, and executes every
 * call through one fail-closed boundary. This module is the whole public runtime surface.
 */
export { ARTIFACT_FORMAT_VERSION, type Artifact } from "./artifact.js";
export {
  CallRefusedError,
  ERROR_CODES,
  type ErrorCode,
  InvocationError,
  InvocationUnavailableError,
  isSchemaRouterError,
  LoadError,
  NonRetryableInvocationError,
  SchemaRouterError,
} from "./errors.js";
export {
  isTerminal,
  RUN_EVENT_TYPES,
  type RunEvent,
  type RunEventOf,
  type RunEventType,
  TraceError,
  validateRunEvent,
} from "./events.js";
// Governed execution: runs, budgets, retries, fallback, availability, health, hooks.
export type { ApprovalCallback, ApprovalContext, ApprovalRequest, CallContext } from "./executor.js";
export {
  canonicalJson,
  digestJson,
  endpointFingerprint,
  fingerprintTool,
  toolFingerprint,
} from "./fingerprint.js";
export type { Binding, InvocationContext, Invoker } from "./invoker.js";
export type { VerifyMode } from "./load.js";
export { LOCKFILE_VERSION, type Lockfile } from "./lockfile.js";
export { mcpRemoteDigest } from "./mcp-digest.js";
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
} from "./model.js";
export {
  type AnalyzerOptions,
  type Coverage,
  type DecisionBackend,
  type DecisionInput,
  type DecisionOption,
  type DecisionPlanOptions,
  type DecisionResult,
  type ExecutionPlan,
  type FallbackRoute,
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
export type { ExecutionPolicyOptions, PolicyDecision, PolicyRuleOptions, PolicySubject } from "./policy.js";
export { type ApprovalMode, ExecutionPolicy, type PolicyAction, PolicyRule } from "./policy.js";
export { type RegisteredTool, Registry, registerTool } from "./registry.js";
export {
  type CapabilityCandidate,
  compactCandidateView,
  createRetriever,
  type EvidenceRequirements,
  RetrievalError,
  type RetrievalRequest,
  type RetrieveOptions,
  type Retriever,
  type StateAwareOptions,
} from "./retrieval/index.js";
export type { OptimadeBindingOptions } from "./router.js";
export {
  type BindingConfig,
  type McpBindingOptions,
  SchemaRouter,
  type SchemaRouterOptions,
} from "./router.js";
export {
  AvailabilityMemory,
  type AvailabilityOptions,
  type AvailabilityStatus,
} from "./runs/availability.js";
export {
  type BudgetLimit,
  type BudgetUsage,
  type CostSubject,
  ExecutionBudget,
  type ExecutionBudgetOptions,
} from "./runs/budget.js";
export type { ExecutionMode, RunConfig } from "./runs/config.js";
export { type GovernedCall, type GovernedPlan, MAX_FALLBACKS } from "./runs/fallback.js";
export {
  AccessHealthMonitor,
  type AccessHealthMonitorOptions,
  type HealthCheckResult,
  type HealthProbe,
  type HealthProbeContext,
  type HealthProbeOptions,
} from "./runs/health.js";
export type {
  AfterHook,
  AfterHookSnapshot,
  BeforeHook,
  ExecutionHooks,
  HookCallSnapshot,
} from "./runs/hooks.js";
export { isTransient, RetryPolicy, type RetryPolicyOptions } from "./runs/retry.js";
export type { RunInput } from "./runs/runner.js";
export {
  createOtelExporter,
  type OtelExporter,
  type OtelExporterOptions,
  type OtelSpanLike,
  type OtelTracerLike,
} from "./traces/otel.js";
export { isRedactedMarker, redactEvent } from "./traces/redact.js";
export { type ReplayResult, replayRun } from "./traces/replay.js";
export { SqliteTraceStore, type SqliteTraceStoreOptions } from "./traces/sqlite.js";
export type { StoredEvent, TraceStore } from "./traces/store.js";
export { createHttpInvoker, type DispatcherLike, type HttpBindingOptions } from "./transports/http.js";
export {
  createLocalInvoker,
  defineLocalTool,
  type LocalEndpointDefinition,
  type LocalToolDefinition,
  localToolSpec,
} from "./transports/local.js";
export {
  createMcpInvoker,
  httpClientFactory,
  type McpClientFactory,
  type McpClientLike,
  type McpConnectionOptions,
  type McpServerVersionLike,
  mcpClientFactory,
  stdioClientFactory,
} from "./transports/mcp.js";
export {
  createOptimadeInvoker,
  DEFAULT_OPTIMADE_LIMITS,
  type OptimadeBindingSettings,
  type OptimadeInvokerOptions,
  type OptimadeLimits,
} from "./transports/optimade.js";
export {
  bindClient,
  type CallOptions,
  type EndpointPin,
  type Projected,
  type ProjectPaths,
  type TypedResult,
} from "./typed.js";
