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
} as const satisfies ErrorTable<keyof typeof COMPILER_ERROR_CLASSES>;
