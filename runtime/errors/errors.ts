/**
 * Every refusal is a SchemaRouterError with a stable string `code` (part of the public API) and
 * structured `details`. Messages say what to do next.
 */

export const ERROR_CODES = {
  // Loading artifacts and the lockfile
  LOCK_NOT_FOUND: "The lockfile does not exist; run `schemarouter compile`.",
  LOCK_INVALID: "The lockfile is not valid JSON of the expected shape.",
  LOCK_VERSION_UNSUPPORTED: "The lockfile was written by a newer schemarouter.",
  LOCK_MISMATCH: "An artifact does not match its lockfile pin (digest, fingerprint or entry).",
  ARTIFACT_NOT_FOUND: "An artifact named by the lockfile is missing.",
  ARTIFACT_INVALID: "An artifact is not valid JSON of the expected shape.",
  ARTIFACT_VERSION_UNSUPPORTED: "An artifact has an unknown format version.",
  // Call identity and pins
  UNKNOWN_TOOL: "The call names a tool that is not registered.",
  UNKNOWN_ENDPOINT: "The call names an endpoint the tool does not have.",
  MISSING_FINGERPRINT: "The call does not pin endpoint and tool fingerprints.",
  STALE_FINGERPRINT: "The call was planned against an older endpoint contract.",
  STALE_TOOL_FINGERPRINT: "The call was planned against an older tool contract.",
  BINDING_NOT_READY: "No trusted invoker is bound for the tool.",
  STALE_BINDING: "The invoker was bound to an older tool contract.",
  REMOTE_DRIFT: "The remote definition no longer matches the locked one.",
  // Arguments and fields
  UNDECLARED_ARGUMENT: "The call passes an argument the endpoint does not declare.",
  MISSING_REQUIRED_ARGUMENT: "A required argument is missing.",
  INPUT_SCHEMA_VIOLATION: "The arguments do not satisfy the endpoint input schema.",
  UNDECLARED_FIELD: "The call selects a field the endpoint does not declare.",
  OVERLAPPING_FIELDS: "Two selected fields have overlapping paths.",
  // Authority
  POLICY_DENIED: "Local execution policy does not allow this call.",
  APPROVAL_DENIED: "The approval callback did not approve the call.",
  BUDGET_EXCEEDED: "The run's execution budget is exhausted.",
  HOOK_FAILED: "A trusted execution hook failed or returned a value.",
  // Transport and output
  TRANSPORT_REFUSED: "The transport refused the request (origin, path, redirect or header rules).",
  INVOCATION_UNAVAILABLE: "The tool could not be reached (timeout, connection failure, crash).",
  HTTP_STATUS: "The upstream answered with a non-success HTTP status.",
  RESPONSE_TOO_LARGE: "The upstream response exceeded the configured byte limit.",
  RESPONSE_NOT_JSON: "The upstream response is not JSON.",
  OUTPUT_SCHEMA_VIOLATION: "The raw output does not satisfy the endpoint output schema.",
  UNIT_NORMALIZATION_FAILED: "A declared unit normalization could not be applied.",
  TOOL_ERROR: "The tool reported an application error.",
  UNSUPPORTED_PATTERN:
    "A schema pattern cannot run in linear time (backreference, lookaround) and is refused.",
  // OPTIMADE filters (checked locally before any request)
  INVALID_FILTER: "An OPTIMADE filter does not follow the grammar.",
  INVALID_FILTER_VALUE: "An OPTIMADE filter compares a timestamp with a string that is not RFC 3339.",
  UNKNOWN_FILTER_PROPERTY: "An OPTIMADE filter names an undeclared property without a provider prefix.",
  UNSUPPORTED_FILTER:
    "An OPTIMADE filter uses a comparison the provider may not support (type mismatch, range).",
  // Retrieval and planning (untrusted helpers fail closed)
  INVALID_RETRIEVAL_REQUEST: "A retrieval request or its options are malformed or out of range.",
  ANALYZER_FAILED: "The model callback of a ModelQueryAnalyzer threw or rejected.",
  ANALYZER_OUTPUT_INVALID: "A model's analysis is not a structured proposal of the expected shape.",
  DECISION_BACKEND_FAILED: "A decision backend threw or rejected.",
  DECISION_MALFORMED: "A decision result is not of the expected shape.",
  DECISION_UNKNOWN_OPTION: "A decision names an option that was not offered.",
  DECISION_DUPLICATE_OPTION: "A decision selects the same option twice.",
  DECISION_SCORE_INVALID: "A decision's confidence or score is not a finite number in [0, 1].",
  // MCP connections
  MCP_URL_CREDENTIALS: "An MCP URL carries credentials (userinfo or a query string).",
  MCP_URL_INVALID: "An MCP URL has a bad scheme or a fragment.",
  MCP_URL_INSECURE: "An MCP URL uses plain http to a non-loopback host.",
  MCP_CONFIG_INVALID: "An MCP source or binding is misconfigured (targets, reserved headers, unknown tools).",
  MCP_ENV_MISSING: "An MCP header's environment variable is not set.",
  MCP_CONNECT_FAILED: "The MCP server could not be reached or initialized.",
  MCP_LIST_FAILED: "The MCP server's tools could not be listed.",
  // Run events and traces
  INVALID_RUN_EVENT: "A value is not exactly a RunEvent.",
  TRACE_SEQUENCE_GAP: "A trace event is not the run's next sequence number.",
  TRACE_TIMESTAMP_REGRESSION: "A trace event's timestamp is earlier than the previous one.",
  TRACE_AFTER_TERMINAL: "A trace event follows run.end or run.error.",
  TRACE_ORDER_INVALID: "A run does not start with run.start, or repeats it.",
  TRACE_RUN_MISMATCH: "A stored trace event belongs to another run.",
  TRACE_RUN_NOT_FOUND: "The trace store has no events for the run.",
  TRACE_CORRUPT: "Stored trace data is unparsable or invalid.",
  TRACE_SCHEMA_UNSUPPORTED: "The trace database has an unknown schema version or is not a trace store.",
  TRACE_STORE_CLOSED: "The trace store was closed.",
  OPTIONAL_DEPENDENCY_MISSING:
    "An optional peer dependency (better-sqlite3, pg, @opentelemetry/api, MCP SDK) is not installed.",
  // Shared runtime state (PostgreSQL: budgets, availability, traces)
  STATE_UNAVAILABLE:
    "The shared state database could not be reached in time (or its store is closed); budgeted calls are refused, nothing was sent.",
  STATE_MIGRATION_REQUIRED:
    "The shared state database has no schemarouter schema or an older one; run `schemarouter db migrate`.",
  STATE_SCHEMA_UNSUPPORTED:
    "The shared state schema was written by a newer schemarouter, was altered, or belongs to something else.",
  STATE_BUDGET_CONFLICT: "A shared budget key is already in use with other limits.",
  STATE_CONFIG_INVALID: "The shared state options are invalid (URL, schema name, timeouts, pool size).",
  // Governed execution (runs, budgets, retries, fallback, availability, hooks)
  POLICY_INVALID: "An ExecutionPolicy or PolicyRule was built with invalid options.",
  RUN_CONFIG_INVALID:
    "An execution setting (RunConfig, ExecutionBudget, RetryPolicy, hooks, availability) is invalid.",
  PLAN_INVALID: "The input of invoke/invokeBatch/stream is not a ToolCall, a list of them or a plan.",
  RUN_ABORTED: "The run was aborted (RunConfig.signal, a failed batch sibling, or a stopped stream).",
  FALLBACK_REFUSED: "A fallback route is not a read-only alternative that keeps the planned field need.",
  PARALLEL_NOT_READ_ONLY: "Parallel execution needs every call (and fallback) to be explicitly read-only.",
  HEALTH_PROBE_REFUSED: "A health probe can only be registered for a known tool with read-only endpoints.",
  // OPTIMADE providers (error documents carry the provider's `detail`)
  OPTIMADE_BAD_REQUEST: "The OPTIMADE provider refused the query (400), e.g. a filter it cannot evaluate.",
  OPTIMADE_FORBIDDEN: "The OPTIMADE provider refused the request (403), e.g. page_limit above its maximum.",
  OPTIMADE_NOT_FOUND: "The OPTIMADE provider has no such entry or endpoint (404).",
  OPTIMADE_NOT_IMPLEMENTED: "The OPTIMADE provider does not implement a requested feature (501).",
  OPTIMADE_VERSION_NOT_SUPPORTED: "The OPTIMADE provider does not serve the requested API version (553).",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type ErrorDetails = Readonly<Record<string, unknown>>;

export class SchemaRouterError extends Error {
  readonly code: string;
  readonly details: ErrorDetails;

  constructor(code: string, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** The artifacts or the lockfile cannot be trusted: nothing is loaded. */
export class LoadError extends SchemaRouterError {
  declare readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}

/** The executor refused a call before any transport ran. */
export class CallRefusedError extends SchemaRouterError {
  declare readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}

/** The transport ran and failed, or its output was refused. */
export class InvocationError extends SchemaRouterError {
  declare readonly code: ErrorCode;
  /** Whether a retry could succeed (transient failure); the executor still decides. */
  readonly retryable: boolean;
  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetails,
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(code, message, details, options);
    this.retryable = options?.retryable ?? false;
  }
}

/** The access path is unavailable (timeout, connection failure, crashed process, 429/5xx exhausted). */
export class InvocationUnavailableError extends InvocationError {
  constructor(message: string, details?: ErrorDetails, options?: { cause?: unknown; retryable?: boolean }) {
    super("INVOCATION_UNAVAILABLE", message, details, { retryable: true, ...options });
  }
}

/** A trusted invoker can throw this to keep the retry loop out. */
export class NonRetryableInvocationError extends InvocationError {
  constructor(message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super("TOOL_ERROR", message, details, { ...options, retryable: false });
  }
}

export function isSchemaRouterError(value: unknown): value is SchemaRouterError {
  return value instanceof SchemaRouterError;
}
