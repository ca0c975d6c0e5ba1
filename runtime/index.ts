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
export { type BindingConfig, SchemaRouter, type SchemaRouterOptions } from "./router.js";
export { createHttpInvoker, type HttpBindingOptions } from "./transports/http.js";
export {
  createLocalInvoker,
  defineLocalTool,
  type LocalEndpointDefinition,
  type LocalToolDefinition,
  localToolSpec,
} from "./transports/local.js";
export {
  bindClient,
  type CallOptions,
  type EndpointPin,
  type Projected,
  type ProjectPaths,
  type TypedResult,
} from "./typed.js";
