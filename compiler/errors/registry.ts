/**
 * The compiler's error registry: one row per build-time code (public API, never renamed), in the
 * runtime's table shape (schemarouter/internal). The compiler also raises runtime codes (LoadError
 * when reading artifacts, the MCP_* codes); those rows live in the runtime's table. Both tables make
 * docs/reference/error-codes.md (scripts/write-error-codes.mjs).
 */
import {
  type ErrorClassRow,
  type ErrorTable,
  json,
  number,
  oneOf,
  optional,
  string,
  strings,
} from "schemarouter/internal";

export const COMPILER_ERROR_CLASSES = {
  ConfigError: {
    parent: "SchemaRouterError",
    meaning: "The config file (or a `schemarouter init` / `add` request) is at fault.",
  },
  SourceError: {
    parent: "SchemaRouterError",
    meaning: "A source is at fault: `source` names it, `cause` carries the underlying error.",
  },
  CompileError: {
    parent: "SchemaRouterError",
    meaning: "The compile step itself refused (an overlay, a frozen lock, the bindings template).",
  },
} as const satisfies Readonly<Record<string, ErrorClassRow>>;

const source = string("The source, as named in the config.");
const path = string("The file.");
const location = optional(string("The URL, without credentials or query."));

export const COMPILER_ERRORS = {
  CONFIG_NOT_FOUND: {
    class: "ConfigError",
    meaning: "No schemarouter.config.json was found.",
    details: { path },
  },
  CONFIG_INVALID: {
    class: "ConfigError",
    meaning: "The config file does not match its schema.",
    details: {
      path: optional(path),
      source: optional(source),
      name: optional(string("The source name given to `schemarouter init`.")),
      violations: optional(json("The schema violations (instance path and message).")),
      key: optional(string("The key at fault (an unknown key, or the key whose value is not allowed).")),
      line: optional(number("The line of the config file the mistake is on.")),
    },
  },
  CONFIG_EXISTS: {
    class: "ConfigError",
    meaning: "`schemarouter init` would overwrite an existing config.",
    details: { path },
  },
  SOURCE_EXISTS: {
    class: "ConfigError",
    meaning: "`schemarouter add` names a source that already exists.",
    details: { name: string("The source name.") },
  },
  URL_NOT_ALLOWED: {
    class: "SourceError",
    meaning: "A source URL is not allowed (scheme, credentials, insecure host).",
    details: { source, location },
  },
  SOURCE_FETCH_FAILED: {
    class: "SourceError",
    meaning: "A source document could not be fetched.",
    details: { source, status: optional(number("The HTTP status answered.")) },
  },
  SOURCE_TOO_LARGE: {
    class: "SourceError",
    meaning: "A source document exceeds the byte limit.",
    details: { source },
  },
  SOURCE_REDIRECT_REFUSED: {
    class: "SourceError",
    meaning: "A source fetch was redirected to another origin.",
    details: { source, from: string("The origin fetched."), to: string("The origin redirected to.") },
  },
  SOURCE_PARSE_FAILED: {
    class: "SourceError",
    meaning: "A source document is not valid JSON or YAML.",
    details: {
      source,
      path: optional(string("The OPTIMADE endpoint read.")),
      entryType: optional(string("The OPTIMADE entry type listed.")),
    },
  },
  SOURCE_INVALID: {
    class: "SourceError",
    meaning: "A source document is not a supported OpenAPI version or shape.",
    details: {
      source,
      path: optional(string("The OPTIMADE endpoint read.")),
      versions: optional(strings("The API major versions an OPTIMADE provider serves.")),
      version: optional(number("The API major version the base URL names.")),
      apiVersion: optional(string("The api_version an OPTIMADE provider reports.")),
      entryType: optional(string("The OPTIMADE entry type whose answer is at fault.")),
      pointer: optional(string("Where in the document the problem is (a JSON Pointer).")),
      limit: optional(number("The limit that was exceeded (e.g. the deepest nesting kept).")),
      violations: optional(json("The OpenRPC meta-schema violations (instance path and message).")),
      method: optional(string("The OpenRPC method at fault.")),
    },
  },
  CSDL_UNSAFE: {
    class: "SourceError",
    meaning:
      "A CSDL XML document is refused before parsing: a DTD or entity declaration, nesting, element count or an attribute past the limits.",
    details: {
      source,
      reason: oneOf(["dtd", "depth", "attribute-size", "elements"], "Which rule refused the document."),
    },
  },
  ODATA_SERVICE_ROOT_MISSING: {
    class: "SourceError",
    meaning: "An OData source read from a CSDL file names no serviceRoot for its calls.",
    details: { source },
  },
  DATABASE_URL_MISSING: {
    class: "ConfigError",
    meaning: "`schemarouter db` was given no --url and DATABASE_URL is not set.",
    details: {},
  },
  EXTERNAL_REF_LIMIT: {
    class: "SourceError",
    meaning:
      "A source's external $refs need more documents, depth, bytes or time than its externalRefs limits allow.",
    details: {
      source,
      limit: oneOf(["maxDocuments", "maxDepth", "maxBytes", "timeoutMs"], "The limit reached."),
      value: number("The limit's configured value."),
    },
  },
  SCHEMA_HEADER_ENV_MISSING: {
    class: "SourceError",
    meaning: "A schema-fetch header names an environment variable that is not set.",
    details: { source, header: string("The header."), env: string("The environment variable.") },
  },
  GRAPHQL_CONFIG_INVALID: {
    class: "SourceError",
    meaning: "A GraphQL source's local config names a mutation the schema does not have.",
    details: { source, endpoint: string("The endpoint name in `effects`.") },
  },
  OVERLAY_INVALID: {
    class: "CompileError",
    meaning: "A trusted overlay does not fit the imported contract.",
    details: {
      route: optional(string("The endpoint's route, `source.endpoint`.")),
      source: optional(source),
      endpoint: optional(string("The endpoint the overlay names.")),
      field: optional(string("The overlay field.")),
    },
  },
  LOCAL_MODULE_INVALID: {
    class: "SourceError",
    meaning: "A local tool module could not be loaded or has no tool definition.",
    details: { source },
  },
  LOCK_FROZEN: {
    class: "CompileError",
    meaning: "`compile --frozen` would have changed the lockfile.",
    details: {
      lockfile: string("The lockfile."),
      category: optional(string("The kind of change (`schemarouter diff` categories).")),
    },
  },
  TEMPLATE_INVALID: {
    class: "CompileError",
    meaning: "templates/source-client.ts is missing or malformed.",
    details: { paths: optional(strings("Where the template was looked for.")) },
  },
  SPEC_OVERLAY_INVALID: {
    class: "SourceError",
    meaning: "An OpenAPI Overlay document named in `specOverlays` cannot be read or applied.",
    details: {
      source,
      file: string("The overlay file, as written in the config."),
      pointer: optional(string("Where in the overlay document the problem is (a JSON Pointer).")),
    },
  },
  PROPOSER_INVALID: {
    class: "SourceError",
    meaning:
      "The proposer module named in the config or on the command line cannot be loaded or is not defineProposer(...).",
    details: { source, module: optional(string("The proposer module.")) },
  },
  PROPOSER_FAILED: {
    class: "SourceError",
    meaning:
      "The proposer threw, ran past its time limit, or returned something that is not a candidate list.",
    details: {
      source,
      reason: oneOf(["threw", "timeout", "malformed"], "What went wrong."),
      timeoutMs: optional(number("The time limit.")),
    },
  },
  PROPOSAL_INVALID: {
    class: "SourceError",
    meaning: "A proposal file is missing, is not JSON, or is not a SchemaProposal of this format.",
    details: { source, path: optional(path), pointer: optional(string("Where in the file the problem is.")) },
  },
  PROPOSAL_REFUSED: {
    class: "ConfigError",
    meaning:
      "`schemarouter approve` refused: no explicit base URL, grounding below the threshold, or nothing grounded to approve.",
    details: {
      path: optional(path),
      reason: oneOf(["base-url", "threshold", "empty", "name"], "Why approval was refused."),
      grounding: optional(number("The proposal's grounded share (0..1).")),
      threshold: optional(number("The threshold asked for.")),
    },
  },
  PROPOSAL_NOT_APPROVED: {
    class: "SourceError",
    meaning: "A `proposal` source's file is not the one approved (its digest differs from the config's).",
    details: {
      source,
      path: optional(path),
      approved: string("The digest recorded by `schemarouter approve`."),
      actual: string("The digest of the file now."),
    },
  },
  PLUGIN_REFUSED: {
    class: "ConfigError",
    meaning:
      "A plugin source kind was refused before any import: no allowlist, no installed plugin of that kind, two of them (or a built-in kind), or a package not on the allowlist.",
    details: {
      source: optional(source),
      kind: optional(string("The plugin source kind.")),
      package: optional(string("The npm package.")),
      version: optional(string("The installed version.")),
      reason: oneOf(
        ["allowlist-empty", "unknown", "duplicate", "not-allowed", "entry"],
        "Why it was refused.",
      ),
    },
  },
  PLUGIN_INVALID: {
    class: "SourceError",
    meaning:
      "An allowed plugin's entry point is not defineSourceAdapter(...) of its declared kind, or its output does not fit the plugin contract.",
    details: {
      source,
      package: string("The npm package."),
      pointer: optional(string("Where in its output the problem is.")),
    },
  },
  PLUGIN_FAILED: {
    class: "SourceError",
    meaning: "An allowed plugin failed to load, threw, or ran past its time limit.",
    details: {
      source,
      package: string("The npm package."),
      reason: oneOf(["import", "threw", "timeout"], "What went wrong."),
      timeoutMs: optional(number("The time limit.")),
    },
  },
  PROVIDER_PROFILE_INVALID: {
    class: "ConfigError",
    meaning:
      "A provider profile given to `schemarouter add provider` cannot be read, does not fit the profile format, or tries to carry credentials or authority.",
    details: {
      path: optional(path),
      pointer: optional(string("Where in the profile the problem is.")),
    },
  },
  COMPILE_WORKER_FAILED: {
    class: "CompileError",
    meaning:
      'A compile worker thread ended (out of memory, a crash) while compiling a source (docs/reference/cli.md, "Large projects").',
    details: {
      source,
      ended: string("How the worker ended (its error message or exit code)."),
    },
  },
  EMBEDDER_MODULE_INVALID: {
    class: "ConfigError",
    meaning: "The embedder module the config names cannot be imported, or does not export an embed function.",
    details: {
      path,
      export: string("The export that was looked for."),
    },
  },
} as const satisfies ErrorTable<keyof typeof COMPILER_ERROR_CLASSES>;
