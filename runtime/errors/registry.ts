/**
 * The runtime's error registry: one row per stable code (public API, never renamed) with the class
 * that carries it, its meaning and the shape of its `details`, each `reason` included. The error
 * classes take their types from here, and docs/reference/error-codes.md is generated from it
 * (scripts/write-error-codes.mjs). Adding a code is adding one row.
 */
import { json, number, oneOf, optional, string, strings, boolean as yesNo } from "./fields.js";
import type { ErrorClassRow, ErrorTable } from "./table.js";

/** Every error class of the runtime; `parent` is the class it extends. */
export const ERROR_CLASSES = {
  SchemaRouterError: {
    meaning: "Every refusal: a stable `code`, a message that says what to do, structured `details`.",
  },
  LoadError: {
    parent: "SchemaRouterError",
    meaning: "The artifacts or the lockfile cannot be trusted: nothing is loaded.",
  },
  CallRefusedError: {
    parent: "SchemaRouterError",
    meaning: "The executor refused a call before any transport ran: nothing was sent.",
  },
  InvocationError: {
    parent: "SchemaRouterError",
    meaning:
      "The transport ran and failed, or its output was refused (`retryable` says whether a retry could help).",
  },
  InvocationUnavailableError: {
    parent: "InvocationError",
    meaning:
      "The access path is unavailable (timeout, connection failure, crashed process, 429/5xx exhausted).",
  },
  NonRetryableInvocationError: {
    parent: "InvocationError",
    meaning: "An application error a trusted invoker throws to keep the retry loop out.",
  },
  UnsupportedPatternError: {
    parent: "SchemaRouterError",
    meaning: "A schema pattern the linear-time engine cannot run; validators using it are refused.",
  },
  FilterSyntaxError: {
    parent: "SchemaRouterError",
    meaning: "An OPTIMADE filter does not follow the grammar.",
  },
  FilterQueryError: {
    parent: "SchemaRouterError",
    meaning: "An OPTIMADE filter parses but cannot be served as written (`status` is the HTTP status).",
  },
  RetrievalError: {
    parent: "SchemaRouterError",
    meaning: "A retrieval or planning request is malformed.",
  },
  EmbedderError: {
    parent: "SchemaRouterError",
    meaning:
      "The application's embed function (docs/runtime/embeddings.md) threw, or answered out of shape; no vector of it is used.",
  },
  PlanningError: {
    parent: "SchemaRouterError",
    meaning:
      "An untrusted planning helper (model analyzer, decision backend) failed or answered out of shape.",
  },
  StateError: {
    parent: "SchemaRouterError",
    meaning:
      "A shared state store (budgets, availability, traces on PostgreSQL) could not be used: budgeted calls are refused, nothing is sent.",
  },
  TraceError: {
    parent: "SchemaRouterError",
    meaning: "A run event or a trace was refused (invalid event, broken ordering, damaged or foreign store).",
  },
} as const satisfies Readonly<Record<string, ErrorClassRow>>;

const route = string("The call's route, `tool.endpoint`.");
const tool = string("The tool.");
const source = string("The source, as named in the config and the lockfile.");
const path = string("The file.");
const expected = string("What the lockfile or the registered contract pins.");
const actual = string("What was found instead.");

/** Set when the refusal is of a fallback route (preflighted with its primary). */
const IN_FALLBACK = {
  primary: optional(string("The primary call's route, when a fallback route was refused.")),
  fallback: optional(number("The fallback's position in its chain, when a fallback route was refused.")),
} as const;

const UNSUPPORTED_PATTERN = {
  reason: optional(
    oneOf(["unsupported-pattern"], "The schema has a pattern that cannot run in linear time."),
  ),
  pattern: optional(string("The refused pattern (shortened).")),
  problem: optional(string("Why the pattern is refused.")),
} as const;

const FILTER_POSITION = number("Offset (UTF-16 code units) of the offending token in the filter.");

const OPTIMADE_ERROR = {
  route,
  status: number("The HTTP status."),
  detail: string("The provider's error `detail`s (or the start of the body)."),
  errors: json("The provider's JSON:API error objects."),
  parameter: optional(string("The query parameter the provider blames.")),
  retryAfter: optional(json("The Retry-After header, as sent.")),
} as const;

const TRACE_POSITION = {
  runId: string("The run."),
  sequence: number("The event's sequence number."),
  type: string("The event's type."),
} as const;

const STORED_EVENT = {
  runId: string("The run asked for."),
  storedRunId: string("The run the stored record names."),
  storedSequence: number("The stored record's sequence number."),
} as const;

export const ERRORS = {
  // Loading artifacts and the lockfile
  LOCK_NOT_FOUND: {
    class: "LoadError",
    meaning: "The lockfile does not exist; run `schemarouter compile`.",
    details: { path, ref: optional(string("The git revision read (`schemarouter diff`).")) },
  },
  LOCK_INVALID: {
    class: "LoadError",
    meaning: "The lockfile is not valid JSON of the expected shape.",
    details: {
      path,
      source: optional(source),
      reason: optional(
        oneOf(
          ["artifact-path", "retrieval-index"],
          "The source pins an artifact path the compiler never writes (absolute, not .json), or the lock's retrievalIndex is not a relative .bin path with a digest.",
        ),
      ),
    },
  },
  LOCK_VERSION_UNSUPPORTED: {
    class: "LoadError",
    meaning: "The lockfile was written by a newer schemarouter.",
    details: {
      path,
      lockfileVersion: number("The lockfile's version."),
      supported: number("The version this schemarouter reads."),
    },
  },
  LOCK_MISMATCH: {
    class: "LoadError",
    meaning: "An artifact does not match its lockfile pin (digest, fingerprint or entry).",
    details: {
      reason: oneOf(
        [
          "artifact-digest",
          "artifact-self-digest",
          "artifact-source",
          "document-digest",
          "missing-entry",
          "tool-fingerprint",
          "endpoint-fingerprint",
          "local-definition-changed",
          "binding-identity",
          "retrieval-index",
        ],
        "What disagrees.",
      ),
      source: optional(source),
      path: optional(path),
      tool: optional(tool),
      endpoint: optional(string("The endpoint.")),
      artifactSource: optional(string("The source the artifact describes.")),
      expected: optional(expected),
      actual: optional(actual),
    },
  },
  ARTIFACT_NOT_FOUND: {
    class: "LoadError",
    meaning: "An artifact named by the lockfile is missing.",
    details: { source, path },
  },
  ARTIFACT_INVALID: {
    class: "LoadError",
    meaning: "An artifact is not valid JSON of the expected shape.",
    details: {
      path: optional(path),
      reason: optional(
        oneOf(
          ["layout", "not-a-file", "embeddings"],
          "layout: the file is not laid out as the compiler writes artifacts; not-a-file: the path is a directory, device or pipe; embeddings: its embeddings section is malformed.",
        ),
      ),
      member: optional(string("The artifact member that is not valid JSON.")),
      tool: optional(tool),
      endpoint: optional(string("The endpoint.")),
      name: optional(string("The reserved name an endpoint uses.")),
    },
  },
  ARTIFACT_VERSION_UNSUPPORTED: {
    class: "LoadError",
    meaning: "An artifact has an unknown format version.",
    details: { path, formatVersion: json("The artifact's format version, as found.") },
  },
  // Call identity and pins
  UNKNOWN_TOOL: {
    class: ["CallRefusedError", "SchemaRouterError"],
    meaning: "The call names a tool that is not registered.",
    details: { tool: optional(tool), source: optional(source), ...IN_FALLBACK },
  },
  UNKNOWN_ENDPOINT: {
    class: "CallRefusedError",
    meaning: "The call names an endpoint the tool does not have.",
    details: { tool, endpoint: string("The endpoint."), ...IN_FALLBACK },
  },
  MISSING_FINGERPRINT: {
    class: "CallRefusedError",
    meaning: "The call does not pin endpoint and tool fingerprints.",
    details: { route, ...IN_FALLBACK },
  },
  STALE_FINGERPRINT: {
    class: "CallRefusedError",
    meaning: "The call was planned against an older endpoint contract.",
    details: { route, expected, actual, ...IN_FALLBACK },
  },
  STALE_TOOL_FINGERPRINT: {
    class: "CallRefusedError",
    meaning: "The call was planned against an older tool contract.",
    details: { route, expected, actual, ...IN_FALLBACK },
  },
  BINDING_NOT_READY: {
    class: ["CallRefusedError", "SchemaRouterError"],
    meaning: "No trusted invoker is bound for the tool.",
    details: { route: optional(route), tool: optional(tool), ...IN_FALLBACK },
  },
  RELOAD_UNAVAILABLE: {
    class: "SchemaRouterError",
    meaning:
      "`reload()` or `watch()` on a router that was not created by `SchemaRouter.load()` (it has no lockfile to read again).",
    details: {},
  },
  BINDING_INVALID: {
    class: "SchemaRouterError",
    meaning:
      "A binding (SchemaRouter.load `bindings`, createHttpInvoker) has an unknown or missing key, or a limit that is not a positive integer.",
    details: {
      tool: optional(tool),
      key: string("The binding key at fault (e.g. `baseUrl`, `timeoutMs`)."),
    },
  },
  STALE_BINDING: {
    class: "CallRefusedError",
    meaning: "The invoker was bound to an older tool contract.",
    details: {
      route,
      reason: optional(oneOf(["rebound"], "The tool was bound again while the call waited.")),
      expected: optional(expected),
      actual: optional(actual),
      ...IN_FALLBACK,
    },
  },
  REMOTE_DRIFT: {
    class: "CallRefusedError",
    meaning: "The remote definition no longer matches the locked one.",
    details: {
      source,
      tool,
      change: oneOf(["appeared", "changed", "disappeared", "unlocked"], "How the live definition differs."),
      expected: json("The locked digest, or null."),
      actual: json("The live digest, or null."),
    },
  },
  // Arguments and fields
  UNDECLARED_ARGUMENT: {
    class: "CallRefusedError",
    meaning: "The call passes an argument the endpoint does not declare.",
    details: { route, argument: string("The argument."), ...IN_FALLBACK },
  },
  MISSING_REQUIRED_ARGUMENT: {
    class: "CallRefusedError",
    meaning: "A required argument is missing.",
    details: { route, argument: string("The argument."), ...IN_FALLBACK },
  },
  INPUT_SCHEMA_VIOLATION: {
    class: "CallRefusedError",
    meaning: "The arguments do not satisfy the endpoint input schema.",
    details: {
      route: optional(route),
      call: optional(number("The call's position in the run.")),
      violations: optional(json("The schema violations (instance path and message).")),
      ...UNSUPPORTED_PATTERN,
      ...IN_FALLBACK,
    },
  },
  UNDECLARED_FIELD: {
    class: "CallRefusedError",
    meaning: "The call selects a field the endpoint does not declare.",
    details: {
      route,
      field: string("The field ID."),
      declared: strings("The declared field IDs."),
      ...IN_FALLBACK,
    },
  },
  NO_FIELDS_SELECTED: {
    class: "CallRefusedError",
    meaning:
      "The call selects no fields (`fields: []`) of an endpoint that declares some; leave `fields` out for the defaults.",
    details: { route, declared: strings("The declared field IDs."), ...IN_FALLBACK },
  },
  OVERLAPPING_FIELDS: {
    class: "CallRefusedError",
    meaning: "Two selected fields have overlapping paths.",
    details: { route, fields: strings("The overlapping field IDs."), ...IN_FALLBACK },
  },
  // Authority
  POLICY_DENIED: {
    class: "CallRefusedError",
    meaning: "Local execution policy does not allow this call.",
    details: {
      route,
      effect: string("The endpoint's effect."),
      remote: yesNo("Whether the tool is remote."),
      reason: string('The policy\'s decision, e.g. "denied by rule #1".'),
      ...IN_FALLBACK,
    },
  },
  APPROVAL_DENIED: {
    class: "CallRefusedError",
    meaning: "The approval callback did not approve the call.",
    details: {
      route,
      reason: oneOf(
        ["missing-callback", "rejected", "timeout", "callback-error"],
        "Why there is no approval.",
      ),
    },
  },
  BUDGET_EXCEEDED: {
    class: "CallRefusedError",
    meaning: "The run's execution budget is exhausted.",
    details: {
      limit: oneOf(
        ["calls", "attempts", "remoteAttempts", "wallClock", "toolQuota", "cost", "rate"],
        "The limit reached (`rate`: a shared budget's rate window).",
      ),
      max: number("The limit."),
      used: number("What was used."),
      route: optional(route),
      budget: optional(string("The shared budget key, when a shared budget refused.")),
      tool: optional(string("The tool whose quota is used up.")),
      price: optional(number("The refused attempt's cost.")),
      retryDelayMs: optional(number("The wait the next retry would need.")),
    },
  },
  HOOK_FAILED: {
    class: "CallRefusedError",
    meaning: "A trusted execution hook failed or returned a value.",
    details: {
      route,
      stage: oneOf(["before", "after"], "Which hooks."),
      hook: number("The hook's position."),
      reason: oneOf(["threw", "rejected", "timeout", "returned-value"], "What the hook did."),
    },
  },
  // Transport and output
  TRANSPORT_REFUSED: {
    class: ["CallRefusedError", "InvocationError"],
    meaning: "The transport refused the request (origin, path, redirect or header rules).",
    details: {
      route: optional(route),
      source: optional(source),
      reason: optional(
        oneOf(
          [
            "trusted-query",
            "template-query",
            "trusted-header",
            "header-name",
            "binding-identity",
            "next-invalid",
            "next-origin",
            "next-path",
            "next-repeats",
            "part-content-type",
            "response-media-type",
            "graphql-name",
            "graphql-contract",
            "graphql-selection",
          ],
          "Which rule refused it (a CallRefusedError before sending; an InvocationError once a response came).",
        ),
      ),
      argument: optional(string("The argument that cannot be sent.")),
      parameter: optional(string("The query parameter only trusted configuration may set.")),
      header: optional(string("The header.")),
      status: optional(number("The redirect's HTTP status.")),
      origin: optional(string("The origin links.next points to.")),
      path: optional(string("The path links.next points to.")),
    },
  },
  INVOCATION_UNAVAILABLE: {
    class: "InvocationUnavailableError",
    meaning: "The tool could not be reached (timeout, connection failure, crash).",
    details: {
      route: optional(route),
      source: optional(source),
      tool: optional(tool),
      reason: optional(
        oneOf(["timeout", "connection", "aborted", "cooldown"], "What happened, when the transport knows."),
      ),
      origin: optional(string("The origin requested.")),
      timeoutMs: optional(number("The attempt timeout.")),
      cause: optional(string("Why the access path is cooling down.")),
      until: optional(string("When the cooldown ends (ISO 8601).")),
      fallbacks: optional(strings("The fallback routes, all unavailable too.")),
      causes: optional(strings("The code of each route's failure.")),
    },
  },
  HTTP_STATUS: {
    class: "InvocationError",
    meaning: "The upstream answered with a non-success HTTP status.",
    details: {
      route,
      status: number("The HTTP status."),
      detail: string("The start of the response body."),
      retryAfter: optional(json("The Retry-After header, as sent.")),
      errors: optional(json("An OPTIMADE provider's JSON:API error objects.")),
      parameter: optional(string("The query parameter an OPTIMADE provider blames.")),
    },
  },
  RESPONSE_TOO_LARGE: {
    class: "InvocationError",
    meaning: "The upstream response exceeded the configured byte limit.",
    details: {
      route,
      maxBytes: number("The byte limit."),
      size: optional(number("The declared or read size.")),
    },
  },
  RESPONSE_NOT_JSON: {
    class: "InvocationError",
    meaning: "The upstream response is not JSON.",
    details: {
      route,
      status: optional(number("The HTTP status.")),
      contentLength: optional(string("The invalid Content-Length header.")),
    },
  },
  OUTPUT_SCHEMA_VIOLATION: {
    class: "InvocationError",
    meaning: "The raw output does not satisfy the endpoint output schema.",
    details: {
      route: optional(route),
      source: optional(source),
      tool: optional(tool),
      violations: optional(json("The schema violations (instance path and message).")),
      ...UNSUPPORTED_PATTERN,
      problem: optional(string("What is wrong with the response document, or why the pattern is refused.")),
    },
  },
  UNIT_NORMALIZATION_FAILED: {
    class: "InvocationError",
    meaning: "A declared unit normalization could not be applied.",
    details: { route, field: string("The field ID.") },
  },
  TOOL_ERROR: {
    class: ["InvocationError", "NonRetryableInvocationError"],
    meaning: "The tool reported an application error.",
    details: {
      route: optional(route),
      source: optional(source),
      tool: optional(tool),
      reason: optional(
        oneOf(
          ["malformed-result", "graphql-errors", "graphql-partial", "graphql-response"],
          "The MCP result is not a CallToolResult; a GraphQL response had errors and no data, partial data the source does not accept, or is not a GraphQL response.",
        ),
      ),
      mcpCode: optional(number("The MCP (JSON-RPC) error code.")),
      text: optional(string("The tool's error text.")),
      messages: optional(strings("A GraphQL server's error messages (untrusted text, shortened).")),
    },
  },
  UNSUPPORTED_PATTERN: {
    class: "UnsupportedPatternError",
    meaning: "A schema pattern cannot run in linear time (backreference, lookaround) and is refused.",
    details: {
      reason: oneOf(["unsupported-pattern"], "Always this value."),
      pattern: string("The refused pattern (shortened)."),
      problem: string("Why the pattern is refused."),
    },
  },
  // OPTIMADE filters (checked locally before any request)
  INVALID_FILTER: {
    class: "FilterSyntaxError",
    meaning: "An OPTIMADE filter does not follow the grammar.",
    details: {
      position: FILTER_POSITION,
      line: number("Line of the position, 1-based."),
      column: number("Column of the position, 1-based."),
      found: string('What was found there, e.g. `keyword "IS"`, `end of filter`.'),
      expected: strings("What the grammar allows there."),
    },
  },
  INVALID_FILTER_VALUE: {
    class: "FilterQueryError",
    meaning: "An OPTIMADE filter compares a timestamp with a string that is not RFC 3339.",
    details: {
      status: oneOf([400], "The HTTP status an OPTIMADE server answers with."),
      position: FILTER_POSITION,
    },
  },
  UNKNOWN_FILTER_PROPERTY: {
    class: "FilterQueryError",
    meaning: "An OPTIMADE filter names an undeclared property without a provider prefix.",
    details: {
      status: oneOf([400], "The HTTP status an OPTIMADE server answers with."),
      position: FILTER_POSITION,
      property: string("The property."),
      frame: optional(string("The filter line with a caret under the property.")),
    },
  },
  UNSUPPORTED_FILTER: {
    class: "FilterQueryError",
    meaning: "An OPTIMADE filter uses a comparison the provider may not support (type mismatch, range).",
    details: {
      status: oneOf([501], "The HTTP status an OPTIMADE server answers with."),
      position: optional(FILTER_POSITION),
      construct: string('The construct refused, e.g. `"CONTAINS" on a float property`.'),
    },
  },
  // Retrieval and planning (untrusted helpers fail closed)
  INVALID_RETRIEVAL_REQUEST: {
    class: "RetrievalError",
    meaning: "A retrieval request or its options are malformed or out of range.",
    details: {
      field: optional(string("The request member or option at fault.")),
      fields: optional(strings("The unknown request members.")),
      k: optional(json("The `k` given.")),
      minScore: optional(json("The `minScore` given.")),
      minCoverage: optional(json("The `minCoverage` given.")),
      limit: optional(json("The `limit` given.")),
    },
  },
  ANALYZER_FAILED: {
    class: "PlanningError",
    meaning: "The model callback of a ModelQueryAnalyzer threw or rejected.",
    details: {},
  },
  ANALYZER_OUTPUT_INVALID: {
    class: "PlanningError",
    meaning: "A model's analysis is not a structured proposal of the expected shape.",
    details: {},
  },
  DECISION_PLUGIN_REFUSED: {
    class: "PlanningError",
    meaning:
      "A decision-backend plugin was refused before any import: an empty allowlist, a package not on it or outside its range, not installed, or without `schemarouter.decisionBackend` metadata.",
    details: {
      package: string("The npm package."),
      version: optional(string("The installed version.")),
      reason: oneOf(["allowlist-empty", "not-allowed", "not-installed", "metadata"], "Why it was refused."),
    },
  },
  DECISION_PLUGIN_FAILED: {
    class: "PlanningError",
    meaning:
      "An allowed decision-backend plugin failed to import, ran past its import time limit, or does not export a decision backend.",
    details: {
      package: string("The npm package."),
      reason: oneOf(["import", "timeout", "invalid"], "What went wrong."),
      timeoutMs: optional(number("The import time limit.")),
    },
  },
  DECISION_BACKEND_FAILED: {
    class: "PlanningError",
    meaning: "A decision backend threw or rejected.",
    details: {},
  },
  DECISION_MALFORMED: {
    class: "PlanningError",
    meaning: "A decision result is not of the expected shape.",
    details: {
      name: optional(string("The result member at fault.")),
      keys: optional(strings("The unknown result members.")),
      selected: optional(number("How many options the result selects.")),
    },
  },
  DECISION_UNKNOWN_OPTION: {
    class: "PlanningError",
    meaning: "A decision names an option that was not offered.",
    details: { id: string("The option ID.") },
  },
  DECISION_DUPLICATE_OPTION: {
    class: "PlanningError",
    meaning: "A decision selects the same option twice.",
    details: { id: string("The option ID.") },
  },
  DECISION_SCORE_INVALID: {
    class: "PlanningError",
    meaning: "A decision's confidence or score is not a finite number in [0, 1].",
    details: { name: string("`confidence` or `scores.<id>`."), value: string("The value, as text.") },
  },
  // MCP connections
  MCP_URL_CREDENTIALS: {
    class: "SchemaRouterError",
    meaning: "An MCP URL carries credentials (userinfo or a query string).",
    details: {
      location: string("The URL, without credentials."),
      part: oneOf(["userinfo", "query"], "Where the credentials are."),
    },
  },
  MCP_URL_INVALID: {
    class: "SchemaRouterError",
    meaning: "An MCP URL has a bad scheme or a fragment.",
    details: { location: optional(string("The URL, without credentials.")) },
  },
  MCP_URL_INSECURE: {
    class: "SchemaRouterError",
    meaning: "An MCP URL uses plain http to a non-loopback host.",
    details: { location: string("The URL, without credentials.") },
  },
  MCP_CONFIG_INVALID: {
    class: "SchemaRouterError",
    meaning: "An MCP source or binding is misconfigured (targets, reserved headers, unknown tools).",
    details: {
      source: optional(source),
      tool: optional(tool),
      reason: optional(oneOf(["reserved"], "The header is controlled by the MCP transport.")),
      header: optional(string("The header.")),
      variable: optional(string("The environment variable name.")),
      section: optional(string("The config section naming an unknown tool.")),
      field: optional(string("The result field.")),
    },
  },
  MCP_ENV_MISSING: {
    class: "SchemaRouterError",
    meaning: "An MCP header's environment variable is not set.",
    details: { source, header: string("The header."), variable: string("The environment variable.") },
  },
  MCP_CONNECT_FAILED: {
    class: "SchemaRouterError",
    meaning: "The MCP server could not be reached or initialized.",
    details: { source, identity: string("The server's identity (command or URL, no secrets).") },
  },
  MCP_LIST_FAILED: {
    class: "SchemaRouterError",
    meaning: "The MCP server's tools could not be listed.",
    details: {
      source: optional(source),
      identity: optional(string("The server's identity (command or URL, no secrets).")),
      tool: optional(string("The tool listed twice.")),
      page: optional(number("The tools/list page, 1-based.")),
      pages: optional(number("The pages read before giving up.")),
      index: optional(number("The item's position on its page.")),
    },
  },
  // Run events and traces
  INVALID_RUN_EVENT: {
    class: "TraceError",
    meaning: "A value is not exactly a RunEvent.",
    details: {
      path: optional(string("Where in the value, e.g. `$.sequence`.")),
      problem: optional(string("What is wrong there.")),
    },
  },
  TRACE_SEQUENCE_GAP: {
    class: "TraceError",
    meaning: "A trace event is not the run's next sequence number.",
    details: { ...TRACE_POSITION, expected: number("The sequence number expected.") },
  },
  TRACE_TIMESTAMP_REGRESSION: {
    class: "TraceError",
    meaning: "A trace event's timestamp is earlier than the previous one.",
    details: {
      ...TRACE_POSITION,
      timestamp: string("The event's timestamp."),
      previousTimestamp: string("The previous event's timestamp."),
    },
  },
  TRACE_AFTER_TERMINAL: {
    class: "TraceError",
    meaning: "A trace event follows run.end or run.error.",
    details: { ...TRACE_POSITION, terminalSequence: number("The sequence number of the terminal event.") },
  },
  TRACE_ORDER_INVALID: {
    class: "TraceError",
    meaning: "A run does not start with run.start, or repeats it.",
    details: TRACE_POSITION,
  },
  TRACE_RUN_MISMATCH: {
    class: "TraceError",
    meaning: "A stored trace event belongs to another run.",
    details: STORED_EVENT,
  },
  TRACE_REPORT_TOO_LARGE: {
    class: "TraceError",
    meaning: "A decision-trace report was asked of a store holding more runs than its `maxRuns` bound.",
    details: {
      runs: number("Runs in the store."),
      maxRuns: number("The bound the report reads at most."),
    },
  },
  TRACE_RUN_NOT_FOUND: {
    class: "TraceError",
    meaning: "The trace store has no events for the run.",
    details: { runId: string("The run.") },
  },
  TRACE_CORRUPT: {
    class: "TraceError",
    meaning: "Stored trace data is unparsable or invalid.",
    details: {
      path: optional(string("The trace database.")),
      runId: optional(STORED_EVENT.runId),
      storedRunId: optional(STORED_EVENT.storedRunId),
      storedSequence: optional(STORED_EVENT.storedSequence),
    },
  },
  TRACE_SCHEMA_UNSUPPORTED: {
    class: "TraceError",
    meaning: "The trace database has an unknown schema version or is not a trace store.",
    details: {
      path: string("The trace database."),
      version: number("The database's schema version."),
      supported: number("The version this schemarouter reads."),
    },
  },
  TRACE_STORE_CLOSED: {
    class: "TraceError",
    meaning: "The trace store was closed.",
    details: {
      path: optional(string("The trace database (SQLite).")),
      store: optional(oneOf(["postgres"], "The shared trace store that was closed.")),
    },
  },
  OPTIONAL_DEPENDENCY_MISSING: {
    class: ["TraceError", "SchemaRouterError", "StateError"],
    meaning:
      "An optional peer dependency (better-sqlite3, pg, @opentelemetry/api, MCP SDK, an agent framework) is not installed.",
    details: { dependency: string("The npm package to install.") },
  },
  // Shared runtime state (PostgreSQL: budgets, availability, traces; docs/state/postgres.md)
  STATE_UNAVAILABLE: {
    class: "StateError",
    meaning:
      "The shared state database could not be reached in time (or its store is closed); budgeted calls are refused, nothing was sent.",
    details: {
      reason: optional(
        oneOf(
          [
            "timeout",
            "unreachable",
            "authentication",
            "connection-lost",
            "query-failed",
            "closed",
            "contended",
          ],
          "Why the database did not answer (contended: a reservation kept racing other processes).",
        ),
      ),
      database: optional(string("The database, without credentials.")),
      sqlState: optional(string("The PostgreSQL SQLSTATE or driver error code.")),
      budget: optional(string("The shared budget key.")),
      route: optional(route),
    },
  },
  STATE_MIGRATION_REQUIRED: {
    class: "StateError",
    meaning:
      "The shared state database has no schemarouter schema or an older one; run `schemarouter db migrate`.",
    details: {
      database: optional(string("The database, without credentials.")),
      schema: optional(string("The schema name.")),
      version: optional(number("The schema version found.")),
      required: optional(number("The schema version this schemarouter needs.")),
      sqlState: optional(string("The PostgreSQL SQLSTATE.")),
      budget: optional(string("The shared budget key.")),
      route: optional(route),
    },
  },
  STATE_SCHEMA_UNSUPPORTED: {
    class: "StateError",
    meaning:
      "The shared state schema was written by a newer schemarouter, was altered, or belongs to something else.",
    details: {
      database: optional(string("The database, without credentials.")),
      schema: optional(string("The schema name.")),
      supported: optional(number("The newest schema version this schemarouter reads.")),
      budget: optional(string("The shared budget key.")),
      route: optional(route),
    },
  },
  STATE_BUDGET_CONFLICT: {
    class: "StateError",
    meaning: "A shared budget key is already in use with other limits.",
    details: {
      budget: string("The shared budget key."),
      stored: optional(json("The limits stored with the key.")),
      wanted: optional(json("The limits this process gave.")),
      route: optional(route),
    },
  },
  STATE_CONFIG_INVALID: {
    class: "StateError",
    meaning: "The shared state options are invalid (URL, schema name, timeouts, pool size).",
    details: {
      option: optional(string("The option at fault.")),
      budget: optional(string("The shared budget key.")),
      route: optional(route),
    },
  },
  // Agent framework adapters (docs/agents/README.md)
  TOOL_NAME_COLLISION: {
    class: "SchemaRouterError",
    meaning: "Two capabilities map to the same provider-safe tool name; name one of them explicitly.",
    details: {
      route: string("The capability (`tool.endpoint`) whose name collided."),
      other: string("The capability that already has the name."),
      name: string("The provider-safe name both map to."),
    },
  },
  AGENT_TOOLS_INVALID: {
    class: "SchemaRouterError",
    meaning: "An agent tool set or adapter option is invalid (selection, names, k, run config).",
    details: {
      option: optional(string("The adapter option at fault.")),
      route: optional(string("The capability (`tool.endpoint`) at fault.")),
    },
  },
  // The MCP server facade (docs/serve.md)
  SERVE_OPTIONS_INVALID: {
    class: "SchemaRouterError",
    meaning:
      "An option of the MCP server (exposure glob, listing, names, budget, HTTP host, token, limits) is invalid.",
    details: { option: string("The server option at fault.") },
  },
  SERVE_BUSY: {
    class: "SchemaRouterError",
    meaning: "The MCP server is at its concurrency limit and its wait queue is full; the call did not run.",
    details: {
      limit: number("Calls that run at once (maxConcurrentCalls)."),
      queued: number("Calls that may wait for a slot (maxQueuedCalls)."),
    },
  },
  // Governed execution (runs, budgets, retries, fallback, availability, hooks)
  POLICY_INVALID: {
    class: "SchemaRouterError",
    meaning: "An ExecutionPolicy or PolicyRule was built with invalid options.",
    details: { option: optional(string("The option at fault.")) },
  },
  RUN_CONFIG_INVALID: {
    class: ["SchemaRouterError", "CallRefusedError"],
    meaning:
      "An execution setting (RunConfig, ExecutionBudget, RetryPolicy, hooks, availability) is invalid.",
    details: {
      option: optional(string("The option at fault.")),
      route: optional(route),
      reason: optional(
        oneOf(
          ["cost-function-threw", "cost-function-result"],
          "The budget's cost function failed while pricing an attempt (a CallRefusedError).",
        ),
      ),
    },
  },
  PLAN_INVALID: {
    class: "CallRefusedError",
    meaning: "The input of invoke/invokeBatch/stream is not a ToolCall, a list of them or a plan.",
    details: {
      reason: oneOf(["shape", "too-many-calls", "call-shape"], "What is wrong with the input."),
      call: optional(number("The position of the call that is not a ToolCall.")),
    },
  },
  RUN_ABORTED: {
    class: "CallRefusedError",
    meaning: "The run was aborted (RunConfig.signal, a failed batch sibling, or a stopped stream).",
    details: {
      reason: oneOf(["signal", "sibling-failed", "stream-closed"], "What stopped the run."),
      route: optional(route),
      failedCall: optional(number("The position of the call that failed.")),
    },
  },
  FALLBACK_REFUSED: {
    class: "CallRefusedError",
    meaning: "A fallback route is not a read-only alternative that keeps the planned field need.",
    details: {
      route,
      reason: oneOf(
        [
          "malformed",
          "too-many",
          "primary-not-read-only",
          "not-read-only",
          "duplicate-route",
          "field-not-counterpart",
          "broadens-fields",
        ],
        "Which rule the chain breaks.",
      ),
      fallback: optional(number("The fallback's position in its chain.")),
      mappings: optional(json("The fields that are not counterparts of the primary's.")),
      fields: optional(strings("The fields the primary did not plan.")),
    },
  },
  PARALLEL_NOT_READ_ONLY: {
    class: "CallRefusedError",
    meaning: "Parallel execution needs every call (and fallback) to be explicitly read-only.",
    details: {
      route,
      effect: string("The endpoint's effect."),
      call: number("The call's position in the run."),
    },
  },
  HEALTH_PROBE_REFUSED: {
    class: "SchemaRouterError",
    meaning: "A health probe can only be registered for a known tool with read-only endpoints.",
    details: {
      tool,
      reason: oneOf(["unknown-tool", "not-read-only", "no-probe"], "Why the probe is refused."),
    },
  },
  // OPTIMADE providers (error documents carry the provider's `detail`)
  OPTIMADE_BAD_REQUEST: {
    class: "InvocationError",
    meaning: "The OPTIMADE provider refused the query (400), e.g. a filter it cannot evaluate.",
    details: OPTIMADE_ERROR,
  },
  OPTIMADE_FORBIDDEN: {
    class: "InvocationError",
    meaning: "The OPTIMADE provider refused the request (403), e.g. page_limit above its maximum.",
    details: OPTIMADE_ERROR,
  },
  OPTIMADE_NOT_FOUND: {
    class: "InvocationError",
    meaning: "The OPTIMADE provider has no such entry or endpoint (404).",
    details: OPTIMADE_ERROR,
  },
  OPTIMADE_NOT_IMPLEMENTED: {
    class: "InvocationError",
    meaning: "The OPTIMADE provider does not implement a requested feature (501).",
    details: OPTIMADE_ERROR,
  },
  OPTIMADE_VERSION_NOT_SUPPORTED: {
    class: "InvocationError",
    meaning: "The OPTIMADE provider does not serve the requested API version (553).",
    details: OPTIMADE_ERROR,
  },
  // OData services (error bodies carry the service's untrusted code and message)
  ODATA_ERROR: {
    class: "InvocationError",
    meaning: "The OData service answered an error (`status`), with its own `odataCode` and message.",
    details: {
      route,
      status: number("The HTTP status."),
      odataCode: string("The service's error code (untrusted text; empty when none)."),
      detail: string("The service's error message (untrusted text), or the start of the body."),
      retryAfter: optional(json("The Retry-After header, as sent.")),
    },
  },
  ODATA_ARGUMENT_INVALID: {
    class: "CallRefusedError",
    meaning: "An argument cannot be written as the OData literal its EDM type needs; nothing was sent.",
    details: {
      route,
      argument: string("The argument."),
      type: string("The EDM type the literal needs."),
    },
  },
  // JSON-RPC 2.0 (OpenRPC sources; the server's message and data are untrusted text)
  JSONRPC_ERROR: {
    class: "InvocationError",
    meaning: "The JSON-RPC server answered the call with an error object (`rpcCode` is its code).",
    details: {
      route,
      rpcCode: number("The error object's code (e.g. -32602 Invalid params)."),
      rpcMessage: string("The error object's message, shortened (untrusted text)."),
      data: optional(json("The error object's data, when small (untrusted).")),
      status: optional(number("The HTTP status the error came with, when not 2xx.")),
    },
  },
  JSONRPC_RESPONSE_INVALID: {
    class: "InvocationError",
    meaning: "The JSON-RPC server's answer is not a valid response to the request that was sent.",
    details: {
      route,
      reason: oneOf(
        [
          "not-object",
          "batch",
          "version",
          "id-missing",
          "id-mismatch",
          "result-and-error",
          "no-result",
          "error-shape",
        ],
        "What is wrong with the answer.",
      ),
    },
  },
  // Optional embedder (docs/runtime/embeddings.md): the application's embed function is untrusted
  EMBEDDER_FAILED: {
    class: "EmbedderError",
    meaning: "The application's embed function threw or rejected; nothing was ranked with vectors.",
    details: {
      stage: oneOf(["compile", "query"], "compile: embedding endpoint and field texts; query: a request."),
      model: string("The embedder's model name."),
    },
  },
  EMBEDDER_OUTPUT_INVALID: {
    class: "EmbedderError",
    meaning:
      "The embed function returned the wrong number of vectors, a vector of the wrong dimension, a non-finite number or an all-zero vector.",
    details: {
      stage: oneOf(["compile", "query"], "compile: embedding endpoint and field texts; query: a request."),
      model: string("The embedder's model name."),
      reason: oneOf(
        ["not-a-list", "count", "not-a-vector", "dimension", "not-finite", "zero"],
        "What is wrong.",
      ),
      index: optional(number("The position of the vector at fault.")),
      expected: optional(number("The count or dimension expected.")),
      actual: optional(number("The count or dimension found.")),
    },
  },
  EMBEDDING_MISMATCH: {
    class: "LoadError",
    meaning:
      "The runtime embedder does not match the vectors the artifacts hold (another model or dimension, or no vectors were compiled); vectors are never mixed.",
    details: {
      reason: oneOf(["model", "dimension", "absent", "embedder"], "What disagrees."),
      source: optional(source),
      expected: optional(string("What the artifacts hold.")),
      actual: optional(string("What the runtime embedder declares.")),
    },
  },
} as const satisfies ErrorTable<keyof typeof ERROR_CLASSES>;
