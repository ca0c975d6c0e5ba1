/**
 * `schemarouter.config.json`: types, defaults (defined once, here) and loading with validation
 * against the published JSON Schema.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import type { JsonSchema } from "schemarouter/internal";
import { type SchemaViolation, toViolation, ValidatorSet } from "schemarouter/internal";
import { ConfigError } from "../errors/errors.js";
import type { EmbedderConfig } from "./embedder.js";
import { explainViolation } from "./explain.js";
import type { ExternalRefsConfig } from "./external-refs.js";
import type { PluginSourceConfig, PluginsConfig } from "./plugin-source.js";
import type { ProposalSourceConfig, ProposerConfig } from "./proposal-source.js";
import { checkProviders, type ProvidersConfig } from "./providers.js";
import { CONFIG_SCHEMA } from "./schema.js";
import type { ServeConfig } from "./serve.js";

export const CONFIG_FILE = "schemarouter.config.json";
export const DEFAULTS = {
  outDir: "schemarouter",
  lockfile: "schemarouter.lock.json",
  runtimeImport: "schemarouter",
} as const;

export type { EmbedderConfig } from "./embedder.js";
export type { ExternalRefsConfig } from "./external-refs.js";
export type { PluginSourceConfig, PluginsConfig } from "./plugin-source.js";
export type { ProposalSourceConfig, ProposerConfig } from "./proposal-source.js";
export type { ProviderConfig, ProvidersConfig } from "./providers.js";

export interface EnvRef {
  readonly env: string;
}

export interface FieldOverlay {
  readonly id: string;
  readonly path: readonly string[];
  readonly resultPath?: readonly string[];
  readonly description?: string;
  readonly aliases?: readonly string[];
  readonly semanticId?: string;
  readonly unit?: string;
  readonly dimensions?: string;
  readonly normalization?: {
    readonly canonicalUnit: string;
    readonly scale: number;
    readonly offset?: number;
  };
  readonly qualifiers?: Readonly<Record<string, string>>;
  readonly identifier?: boolean;
  readonly provenance?: string;
  readonly license?: string;
}

export interface EndpointOverlay {
  readonly fields?: readonly FieldOverlay[];
  readonly replaceFields?: boolean;
  readonly serverProjection?: {
    readonly parameter: string;
    readonly selectors: Readonly<Record<string, string>>;
    readonly always?: readonly string[];
    readonly separator?: string;
  };
  /** Parameter meanings for the capability graph (docs/runtime/capability-graph.md). */
  readonly parameters?: Readonly<Record<string, ParameterOverlay>>;
  /** Routes (`tool.endpoint`) that must run before this endpoint; reported, never run. */
  readonly preconditions?: readonly string[];
}

export interface ParameterOverlay {
  readonly semanticId: string;
  readonly accepts?: readonly string[];
}

export interface Overlays {
  readonly endpoints?: Readonly<Record<string, EndpointOverlay>>;
}

export interface OpenApiSourceConfig {
  readonly kind: "openapi";
  readonly location: string;
  readonly schemaHeaders?: Readonly<Record<string, EnvRef>>;
  /** Off unless present with `enabled: true` (docs/sources/openapi-external-refs.md). */
  readonly externalRefs?: ExternalRefsConfig;
  readonly overlays?: Overlays;
  /** OpenAPI Overlay 1.0 documents applied in order before compiling (docs/sources/openapi-overlays.md). */
  readonly specOverlays?: readonly string[];
}

export interface LocalSourceConfig {
  readonly kind: "local";
  readonly module: string;
  readonly export?: string;
  readonly overlays?: Overlays;
}

export interface McpSourceConfig {
  readonly kind: "mcp";
  readonly stdio?: {
    readonly command: string;
    readonly args?: readonly string[];
    readonly cwd?: string;
    readonly env?: readonly string[];
  };
  readonly url?: string;
  readonly headers?: Readonly<Record<string, EnvRef>>;
  readonly effects?: Readonly<Record<string, "read" | "write" | "destructive">>;
  readonly results?: Readonly<Record<string, { readonly fields: readonly FieldOverlay[] }>>;
  readonly overlays?: Overlays;
}

export interface OptimadeSourceConfig {
  readonly kind: "optimade";
  readonly location: string;
  readonly overlays?: Overlays;
}

export interface OdataSourceConfig {
  readonly kind: "odata";
  /** Service root URL (its `$metadata` is read) or a CSDL XML file. */
  readonly location: string;
  /** Where calls go; required when `location` is a file (docs/sources/odata.md). */
  readonly serviceRoot?: string;
  readonly schemaHeaders?: Readonly<Record<string, EnvRef>>;
  /** Trusted local classification of endpoints (e.g. an action that deletes). */
  readonly effects?: Readonly<Record<string, "read" | "write" | "destructive">>;
  readonly overlays?: Overlays;
}

/** A GraphQL schema: a live endpoint (introspected) or an SDL file (docs/sources/graphql.md). */
export interface GraphqlSourceConfig {
  readonly kind: "graphql";
  readonly location: string;
  readonly schemaHeaders?: Readonly<Record<string, EnvRef>>;
  /** The logical provider (default: the source name), e.g. the one a REST source of the same API names. */
  readonly provider?: string;
  /** Mutation endpoint name → effect (mutations are `write` unless classified here). */
  readonly effects?: Readonly<Record<string, "read" | "write" | "destructive">>;
  /** Accept `data` that comes with `errors` (default false: refused). */
  readonly partialResults?: boolean;
  /** Object levels below each root field that become output fields (default 3). */
  readonly maxDepth?: number;
  /** Output fields of one endpoint at most (default 200). */
  readonly maxFields?: number;
  readonly overlays?: Overlays;
}

export interface OpenRpcSourceConfig {
  readonly kind: "openrpc";
  /** The OpenRPC document: a file path (relative to the config) or an https URL. */
  readonly location?: string;
  /** A live JSON-RPC endpoint whose `rpc.discover` answer is the document (and where calls go). */
  readonly discover?: string;
  /** The JSON-RPC endpoint calls go to (required with `location`; defaults to `discover`). */
  readonly url?: string;
  readonly schemaHeaders?: Readonly<Record<string, EnvRef>>;
  /** How methods whose paramStructure is "either" (the default) send params; default "by-position". */
  readonly eitherParams?: "by-name" | "by-position";
  readonly effects?: Readonly<Record<string, "read" | "write" | "destructive">>;
  readonly overlays?: Overlays;
}

export type SourceConfig =
  | OpenApiSourceConfig
  | LocalSourceConfig
  | McpSourceConfig
  | OptimadeSourceConfig
  | ProposalSourceConfig
  | PluginSourceConfig
  | OdataSourceConfig
  | GraphqlSourceConfig
  | OpenRpcSourceConfig;

export interface ConfigFile {
  readonly $schema?: string;
  readonly outDir?: string;
  readonly lockfile?: string;
  readonly runtimeImport?: string;
  readonly allowInsecureHttp?: boolean;
  readonly sources: Readonly<Record<string, SourceConfig>>;
  /** `schemarouter serve` (docs/serve.md). */
  readonly serve?: ServeConfig;
  /** The proposer `schemarouter propose` loads (docs/sources/proposals.md). */
  readonly proposer?: ProposerConfig;
  /** Adapter plugins that may be loaded (docs/plugins.md). */
  readonly plugins?: PluginsConfig;
  /** Logical providers and their access methods (docs/providers.md). */
  readonly providers?: ProvidersConfig;
  /** Compile-time endpoint and field vectors (docs/runtime/embeddings.md). */
  readonly embedder?: EmbedderConfig;
}

/** A loaded config with defaults applied and paths resolved. */
export interface ResolvedConfig {
  readonly path: string;
  readonly dir: string;
  readonly outDir: string;
  readonly lockfile: string;
  readonly runtimeImport: string;
  readonly allowInsecureHttp: boolean;
  readonly sources: Readonly<Record<string, SourceConfig>>;
  readonly file: ConfigFile;
}

export async function loadConfig(path: string): Promise<ResolvedConfig> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch {
    throw new ConfigError(
      "CONFIG_NOT_FOUND",
      `No config at ${absolute}. Run \`schemarouter init\` to create one.`,
      { path: absolute },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError("CONFIG_INVALID", `${absolute} is not valid JSON: ${(error as Error).message}`, {
      path: absolute,
    });
  }
  return resolveConfig(validateConfig(value, absolute, text), absolute);
}

/** The ajv standalone validator the build writes beside this module (absent when run from source). */
type PrecompiledValidator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
let precompiled: PrecompiledValidator | null | undefined;

function precompiledValidator(): PrecompiledValidator | null {
  if (precompiled === undefined) {
    try {
      precompiled = createRequire(import.meta.url)("./config-validator.cjs") as PrecompiledValidator;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

/** Violations of `value` against CONFIG_SCHEMA: the precompiled validator when built, ajv otherwise. */
export function configViolations(value: unknown, useBuilt = true): SchemaViolation[] {
  const validate = useBuilt ? precompiledValidator() : null;
  if (validate === null) return new ValidatorSet().validate(CONFIG_SCHEMA as unknown as JsonSchema, value);
  return validate(value) ? [] : (validate.errors ?? []).map(toViolation);
}

/** `text` (the file as read) lets the message give the line of the mistake. */
export function validateConfig(value: unknown, where: string, text?: string): ConfigFile {
  const violations = configViolations(value);
  if (violations.length > 0) {
    // The most specific violation: an unknown key or a wrong value beats the `if`/`then` wrapper.
    const first =
      violations.find((v) => v.keyword === "additionalProperties" || v.keyword === "enum") ?? violations[0]!;
    const explained = explainViolation(first, value, where, text);
    throw new ConfigError(
      "CONFIG_INVALID",
      `${explained.message} See schemarouter.config.schema.json (point "$schema" at it for editor help).`,
      {
        path: where,
        violations,
        ...(explained.key !== undefined ? { key: explained.key } : {}),
        ...(explained.line !== undefined ? { line: explained.line } : {}),
      },
    );
  }
  const config = value as ConfigFile;
  for (const [name, source] of Object.entries(config.sources)) {
    if (source.kind === "mcp" && (source.stdio === undefined) === (source.url === undefined)) {
      throw new ConfigError(
        "CONFIG_INVALID",
        `${where}: source "${name}" needs exactly one of "stdio" or "url".`,
        {
          path: where,
          source: name,
        },
      );
    }
  }
  checkProviders(config.providers, config.sources, where);
  return config;
}

export function resolveConfig(file: ConfigFile, path: string): ResolvedConfig {
  const dir = dirname(path);
  return {
    path,
    dir,
    outDir: resolve(dir, file.outDir ?? DEFAULTS.outDir),
    lockfile: resolve(dir, file.lockfile ?? DEFAULTS.lockfile),
    runtimeImport: file.runtimeImport ?? DEFAULTS.runtimeImport,
    allowInsecureHttp: file.allowInsecureHttp === true,
    sources: file.sources,
    file,
  };
}
