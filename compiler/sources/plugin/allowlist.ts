/**
 * The plugin allowlist (docs/plugins.md, "The allowlist"): a plugin source kind is loaded only when
 * exactly one installed package declares it, it is not a built-in kind, and that package and its
 * installed version are on the config's non-empty `plugins.allow` list. All of this is decided from
 * package.json metadata, before anything is imported.
 */
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
];

type Version = readonly [number, number, number];

function parseVersion(text: string): Version | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether `version` satisfies `range`: an exact `x.y.z`, `^x.y.z` (same left-most non-zero part) or
 * `~x.y.z` (same major and minor). Pre-release and build versions never satisfy a range.
 */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  const operator = range.startsWith("^") ? "^" : range.startsWith("~") ? "~" : "";
  const base = parseVersion(range.slice(operator.length));
  if (v === undefined || base === undefined) return false;
  if (operator === "") return compare(v, base) === 0;
  if (compare(v, base) < 0) return false;
  if (operator === "~") return v[0] === base[0] && v[1] === base[1];
  if (base[0] > 0) return v[0] === base[0];
  if (base[1] > 0) return v[0] === 0 && v[1] === base[1];
  return v[0] === 0 && v[1] === 0 && v[2] === base[2];
}

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
  if (!allowed.some((entry) => satisfies(plugin.version, entry.range)))
    return refuse(
      "not-allowed",
      `${plugin.package}@${plugin.version} is installed, but plugins.allow permits ${allowed.map((e) => e.range).join(", ")}; review the new version before widening the range.`,
      who,
    );
  if (plugin.problem !== undefined) return refuse("entry", `${plugin.package}: ${plugin.problem}.`, who);
  return plugin;
}
