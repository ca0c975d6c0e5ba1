/**
 * The SourceAdapter contract every source kind implements: bounded fetch/connect, parse, and return
 * capability contracts as data. Adapters never write files.
 */
import type { CompatibilityIssue, JsonSchema, SourceKind, ToolSpec } from "schemarouter/internal";
import type { PluginsConfig, ProvidersConfig } from "../config/config.js";

export interface SourceContext {
  /** Directory that relative locations resolve against (the config file's directory). */
  readonly cwd: string;
  /** Environment for named variables (schema-fetch headers, MCP env allowlist). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Allow plain http:// to non-loopback hosts (local config opt-in). */
  readonly allowInsecureHttp: boolean;
  /** The config's plugin allowlist (docs/plugins.md); absent: no plugin may load. */
  readonly plugins?: PluginsConfig;
  /** The config's providers (docs/providers.md): who each source's tools belong to. */
  readonly providers?: ProvidersConfig;
}

export interface SourceResult {
  readonly tools: readonly ToolSpec[];
  /** Shared definitions referenced by endpoint schemas as `#/$defs/<name>`. */
  readonly defs: Readonly<Record<string, JsonSchema>>;
  readonly compatibility: readonly CompatibilityIssue[];
  /** Digest of the source document(s) exactly as received. */
  readonly documentDigest: string;
  /** Sanitized location: never userinfo, query string or fragment. */
  readonly location: string;
  /** Per tool, per endpoint: digest of the remote definition exactly as listed (MCP). */
  readonly remoteDigests?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Human-readable notes printed by `compile` (e.g. untrusted MCP annotation hints). */
  readonly notes?: readonly string[];
  /** Findings `compile` prints as warnings (e.g. an overlay action that matched nothing). */
  readonly warnings?: readonly string[];
}

export interface SourceAdapter<Config> {
  readonly kind: SourceKind;
  resolve(name: string, config: Config, context: SourceContext): Promise<SourceResult>;
}
