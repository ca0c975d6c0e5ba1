/**
 * The plugin allowlist (docs/plugins.md, "The allowlist"): a plugin source kind is loaded only when
 * exactly one installed package declares it, it is not a built-in kind, and that package and its
 * installed version are on the config's non-empty `plugins.allow` list. All of this is decided from
 * package.json metadata, before anything is imported.
 */
import { satisfiesRange } from "schemarouter/internal";
import type { PluginsConfig } from "../../config/config.js";
import { ConfigError } from "../../errors/errors.js";
import type { DiscoveredPlugin } from "./discover.js";

export const BUILT_IN_KINDS: readonly string[] = [
  "openapi",
  "local",
  "mcp",
  "optimade",
  "proposal",
  "plugin",
  "odata",
  "graphql",
  "openrpc",
];

/** Whether `version` satisfies `range` (docs/plugins.md, "The allowlist"). */
export const satisfies = satisfiesRange;

/** The one plugin that may provide `kind` for `source`, or a refusal naming why. */
export function selectPlugin(
  source: string,
  kind: string,
  discovered: readonly DiscoveredPlugin[],
  plugins: PluginsConfig | undefined,
): DiscoveredPlugin {
  const refuse = (
    reason: "allowlist-empty" | "unknown" | "duplicate" | "not-allowed" | "entry",
    message: string,
    extra: { package?: string; version?: string } = {},
  ): never => {
    throw new ConfigError("PLUGIN_REFUSED", `source "${source}": ${message}`, {
      source,
      kind,
      reason,
      ...extra,
    });
  };
  if (plugins === undefined || plugins.allow.length === 0)
    return refuse(
      "allowlist-empty",
      `plugin kind "${kind}" needs "plugins": { "allow": [{ "package": "<name>", "range": "^1.0.0" }] } in the config; installed plugins are never loaded just because they are installed.`,
    );
  if (BUILT_IN_KINDS.includes(kind))
    return refuse("duplicate", `"${kind}" is a built-in source kind; a plugin cannot replace it.`);
  const candidates = discovered.filter((plugin) => plugin.kind === kind);
  if (candidates.length === 0)
    return refuse(
      "unknown",
      `no installed package declares the plugin kind "${kind}"${discovered.length > 0 ? ` (installed plugin kinds: ${[...new Set(discovered.map((p) => p.kind))].join(", ")})` : ""}; install it, or run \`schemarouter plugins\`.`,
    );
  if (candidates.length > 1)
    return refuse(
      "duplicate",
      `the plugin kind "${kind}" is declared by ${candidates.map((p) => p.package).join(" and ")}; uninstall one.`,
    );
  const plugin = candidates[0]!;
  const who = { package: plugin.package, version: plugin.version };
  const allowed = plugins.allow.filter((entry) => entry.package === plugin.package);
  if (allowed.length === 0)
    return refuse(
      "not-allowed",
      `${plugin.package} (which provides "${kind}") is not on plugins.allow; add { "package": "${plugin.package}", "range": "^${plugin.version}" } after reviewing it.`,
      who,
    );
  if (!allowed.some((entry) => satisfiesRange(plugin.version, entry.range)))
    return refuse(
      "not-allowed",
      `${plugin.package}@${plugin.version} is installed, but plugins.allow permits ${allowed.map((e) => e.range).join(", ")}; review the new version before widening the range.`,
      who,
    );
  if (plugin.problem !== undefined) return refuse("entry", `${plugin.package}: ${plugin.problem}.`, who);
  return plugin;
}
