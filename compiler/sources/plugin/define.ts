/**
 * The adapter plugin contract (docs/plugins.md, "Writing a plugin"): a third-party source kind is
 * `defineSourceAdapter({ kind, transport, resolve })`. `resolve` returns HTTP endpoints as data; the
 * compiler validates them, builds the ToolSpec itself, takes effects only from local config, and
 * fingerprints, locks and binds the result like a built-in source.
 */

export interface PluginResolveContext {
  /** The source name in the config. */
  readonly source: string;
  /** The config file's directory. */
  readonly cwd: string;
  /** Aborted at the plugin time limit. */
  readonly signal: AbortSignal;
  /** The compiler's bounded fetch (size, time, same-origin redirects only), decoded as JSON. */
  fetchJson(url: string): Promise<unknown>;
}

export interface PluginParameter {
  readonly name: string;
  readonly location: "path" | "query" | "header" | "body";
  readonly required?: boolean;
  readonly schema: Readonly<Record<string, unknown>> | boolean;
  readonly description?: string;
}

export interface PluginEndpoint {
  readonly name: string;
  readonly description?: string;
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Relative to the binding's base URL, e.g. `/items/{id}`. */
  readonly path: string;
  readonly parameters?: readonly PluginParameter[];
  readonly outputSchema: Readonly<Record<string, unknown>> | boolean;
  /** What the plugin believes; only `effects` in local config decides. */
  readonly effect?: "read" | "write" | "destructive";
}

export interface PluginOutput {
  readonly description?: string;
  /** The provider the tool belongs to (default: the source name). */
  readonly provider?: string;
  readonly endpoints: readonly PluginEndpoint[];
  /** Where the plugin read its definitions (sanitized before it is stored). */
  readonly location?: string;
}

export interface SourceAdapterPlugin {
  readonly kind: string;
  readonly transport: "http";
  resolve(
    options: Readonly<Record<string, unknown>>,
    context: PluginResolveContext,
  ): PluginOutput | Promise<PluginOutput>;
}

const PLUGIN = Symbol.for("schemarouter.sourceAdapterPlugin");

export function defineSourceAdapter(plugin: SourceAdapterPlugin): SourceAdapterPlugin {
  return Object.freeze({ ...plugin, [PLUGIN]: true });
}

export function isSourceAdapterPlugin(value: unknown): value is SourceAdapterPlugin {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN] === true &&
    typeof (value as SourceAdapterPlugin).kind === "string" &&
    typeof (value as SourceAdapterPlugin).resolve === "function"
  );
}
