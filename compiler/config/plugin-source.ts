/**
 * Configuration of adapter plugins (docs/plugins.md): the `plugins` allowlist (package name and version
 * range) and a `plugin` source, which names the plugin's source kind, its options, and the effects
 * local config confirms. Types and JSON Schema fragments; the config schema supplies `overlays`.
 */
import type { Overlays } from "./config.js";

export interface PluginAllowEntry {
  readonly package: string;
  /** An exact version, `^x.y.z` or `~x.y.z` (docs/plugins.md, "The allowlist"). */
  readonly range: string;
}

export interface PluginsConfig {
  readonly allow: readonly PluginAllowEntry[];
  /** Time limit of one plugin `resolve` (default 60000). */
  readonly timeoutMs?: number;
}

export interface PluginSourceConfig {
  readonly kind: "plugin";
  /** The source kind a plugin package declares in its package.json. */
  readonly plugin: string;
  /** Passed to the plugin's `resolve` as given. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The only effects the compiled endpoints get; an endpoint not listed is `unclassified`. */
  readonly effects?: Readonly<Record<string, "read" | "write" | "destructive">>;
  readonly overlays?: Overlays;
}

export const RANGE_PATTERN = "^(\\^|~)?(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$";

export const pluginsSchema = {
  type: "object",
  required: ["allow"],
  additionalProperties: false,
  description:
    "Adapter plugins that may be loaded (docs/plugins.md). Nothing is loaded without an entry here.",
  properties: {
    allow: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["package", "range"],
        additionalProperties: false,
        properties: {
          package: { type: "string", minLength: 1, description: "The npm package name." },
          range: {
            type: "string",
            pattern: RANGE_PATTERN,
            description: "An exact version, ^x.y.z or ~x.y.z.",
          },
        },
      },
    },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      description: "Time limit of one plugin resolve (default 60000).",
    },
  },
} as const;

export const pluginSourceSchema = {
  type: "object",
  required: ["kind", "plugin"],
  additionalProperties: false,
  properties: {
    kind: { const: "plugin" },
    plugin: { type: "string", pattern: "^[a-z][a-z0-9-]*$", description: "The plugin's source kind." },
    options: { type: "object", description: "Passed to the plugin's resolve as given." },
    effects: {
      type: "object",
      additionalProperties: { enum: ["read", "write", "destructive"] },
      description: "Effects local config confirms, per endpoint; others are unclassified.",
    },
  },
} as const;
