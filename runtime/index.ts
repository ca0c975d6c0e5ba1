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
export type { ApprovalCallback, ApprovalRequest, CallContext } from "./executor.js";
export {
  canonicalJson,
  digestJson,
  endpointFingerprint,
  fingerprintTool,
  toolFingerprint,
} from "./fingerprint.js";
export type { Binding, InvocationContext, Invoker } from "./invoker.js";
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
export { type ApprovalMode, ExecutionPolicy, type PolicyAction, PolicyRule } from "./policy.js";
export { type RegisteredTool, Registry, registerTool } from "./registry.js";
export {
  type BindingConfig,
  type McpBindingOptions,
  SchemaRouter,
  type SchemaRouterOptions,
} from "./router.js";
export { createOtelExporter, type OtelExporter, type OtelExporterOptions } from "./traces/otel.js";
export { isRedactedMarker, redactEvent } from "./traces/redact.js";
export { type ReplayResult, replayRun } from "./traces/replay.js";
export { SqliteTraceStore, type SqliteTraceStoreOptions } from "./traces/sqlite.js";
export type { StoredEvent, TraceStore } from "./traces/store.js";
export { createHttpInvoker, type HttpBindingOptions } from "./transports/http.js";
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
  type McpConnectionOptions,
  mcpClientFactory,
  stdioClientFactory,
} from "./transports/mcp.js";
export {
  bindClient,
  type CallOptions,
  type EndpointPin,
  type Projected,
  type ProjectPaths,
  type TypedResult,
} from "./typed.js";
