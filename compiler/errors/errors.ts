/**
 * Build-time errors name who is to blame: the config file, a source (with its name and cause), or
 * the compile step itself. Each carries a stable `code`.
 */
import { type ErrorDetails, SchemaRouterError } from "schemarouter/internal";

export const COMPILER_ERROR_CODES = {
  CONFIG_NOT_FOUND: "No schemarouter.config.json was found.",
  CONFIG_INVALID: "The config file does not match its schema.",
  CONFIG_EXISTS: "`schemarouter init` would overwrite an existing config.",
  SOURCE_EXISTS: "`schemarouter add` names a source that already exists.",
  URL_NOT_ALLOWED: "A source URL is not allowed (scheme, credentials, insecure host).",
  SOURCE_FETCH_FAILED: "A source document could not be fetched.",
  SOURCE_TOO_LARGE: "A source document exceeds the byte limit.",
  SOURCE_REDIRECT_REFUSED: "A source fetch was redirected to another origin.",
  SOURCE_PARSE_FAILED: "A source document is not valid JSON or YAML.",
  SOURCE_INVALID: "A source document is not a supported OpenAPI version or shape.",
  EXTERNAL_REF_LIMIT:
    "A source's external $refs need more documents, depth, bytes or time than its externalRefs limits allow.",
  SCHEMA_HEADER_ENV_MISSING: "A schema-fetch header names an environment variable that is not set.",
  OVERLAY_INVALID: "A trusted overlay does not fit the imported contract.",
  LOCAL_MODULE_INVALID: "A local tool module could not be loaded or has no tool definition.",
  LOCK_FROZEN: "`compile --frozen` would have changed the lockfile.",
  TEMPLATE_INVALID: "templates/source-client.ts is missing or malformed.",
} as const;

export type CompilerErrorCode = keyof typeof COMPILER_ERROR_CODES;

export class ConfigError extends SchemaRouterError {
  declare readonly code: CompilerErrorCode;
  constructor(code: CompilerErrorCode, message: string, details?: ErrorDetails) {
    super(code, message, details);
  }
}

export class SourceError extends SchemaRouterError {
  declare readonly code: CompilerErrorCode;
  readonly source: string;
  constructor(
    source: string,
    code: CompilerErrorCode,
    message: string,
    details?: ErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(code, `source "${source}": ${message}`, { source, ...details }, options);
    this.source = source;
  }
}

export class CompileError extends SchemaRouterError {
  declare readonly code: CompilerErrorCode;
  constructor(code: CompilerErrorCode, message: string, details?: ErrorDetails) {
    super(code, message, details);
  }
}
