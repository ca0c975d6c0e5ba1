/**
 * The `serve` section of `schemarouter.config.json` (docs/serve.md, "Configuration"): what
 * `schemarouter serve` exposes and how — exposure globs, tool names, top-k listing, the execution
 * policy and its rules, an approval hook, budgets, trusted bindings for OpenAPI and OPTIMADE sources
 * (secrets from named environment variables), traces and the HTTP transport. MCP and local sources
 * are bound from their own source config. Defaults are the runtime's (SERVE_DEFAULTS).
 */
import { SERVE_DEFAULTS } from "schemarouter/internal";
import { ENV_NAME_PATTERN } from "./fragments.js";

/** A secret from a named environment variable, optionally with a fixed prefix (`"Bearer "`). */
export interface SecretRef {
  readonly env: string;
  readonly prefix?: string;
}

export interface ServePolicyRuleConfig {
  readonly action: "allow" | "deny" | "require-approval";
  readonly operation: string;
  readonly effects?: readonly ("read" | "write" | "destructive" | "unclassified")[];
  readonly remote?: boolean;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly unclassified?: boolean;
}

export interface ServeBindingConfig {
  /** OpenAPI: the trusted base URL (required). OPTIMADE: the locked one, when given. OData: the locked service root, when given. */
  readonly baseUrl?: string;
  readonly headers?: Readonly<Record<string, SecretRef>>;
  readonly query?: Readonly<Record<string, SecretRef>>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
}

export interface ServeConfig {
  readonly expose?: readonly string[];
  readonly names?: Readonly<Record<string, string>>;
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  readonly profile?: "mcp" | "portable" | "openai" | "anthropic";
  readonly listing?: { readonly k: number; readonly query?: string; readonly always?: readonly string[] };
  readonly search?: boolean;
  readonly policy?: {
    readonly allowMutations?: boolean;
    readonly allowDestructive?: boolean;
    readonly allowUnclassifiedRemote?: boolean;
    readonly approval?: "never" | "non-read-only" | "all";
    readonly rules?: readonly ServePolicyRuleConfig[];
  };
  readonly approvals?: { readonly module: string; readonly export?: string };
  readonly budget?: {
    readonly session?: {
      readonly maxCalls?: number;
      readonly maxRemoteCalls?: number;
      readonly toolQuotas?: Readonly<Record<string, number>>;
    };
    readonly call?: { readonly maxAttempts?: number; readonly maxWallClockMs?: number };
  };
  readonly bindings?: Readonly<Record<string, ServeBindingConfig>>;
  readonly traces?: { readonly sqlite: string; readonly includePayloads?: boolean };
  readonly http?: {
    readonly host?: string;
    readonly port?: number;
    readonly path?: string;
    readonly tokenEnv?: string;
    readonly allowedHosts?: readonly string[];
    readonly allowedOrigins?: readonly string[];
    readonly maxBodyBytes?: number;
    readonly maxSessions?: number;
    readonly sessionIdleMs?: number;
  };
  readonly maxConcurrentCalls?: number;
  readonly maxQueuedCalls?: number;
  readonly watch?: boolean;
}

const count = { type: "integer", minimum: 0 } as const;
const positive = { type: "integer", minimum: 1 } as const;
const secret = {
  type: "object",
  required: ["env"],
  additionalProperties: false,
  properties: {
    env: { type: "string", pattern: ENV_NAME_PATTERN, description: "Environment variable name." },
    prefix: { type: "string", description: 'Put before the value, e.g. "Bearer ".' },
  },
} as const;
const effect = { enum: ["read", "write", "destructive", "unclassified"] } as const;
const route = { type: "string", minLength: 3, pattern: "^[^.]+\\..+$" } as const;

const rule = {
  type: "object",
  required: ["action", "operation"],
  additionalProperties: false,
  properties: {
    action: { enum: ["allow", "deny", "require-approval"] },
    operation: { type: "string", minLength: 1, description: "Glob over tool.endpoint (`*`, `**`)." },
    effects: { type: "array", minItems: 1, items: effect },
    remote: { type: "boolean" },
    readOnly: { type: "boolean" },
    destructive: { type: "boolean" },
    unclassified: { type: "boolean" },
  },
} as const;

const binding = {
  type: "object",
  additionalProperties: false,
  properties: {
    baseUrl: { type: "string", minLength: 1, description: "OpenAPI: the trusted base URL (required)." },
    headers: { type: "object", additionalProperties: secret, description: "Trusted headers from env." },
    query: { type: "object", additionalProperties: secret, description: "Trusted query parameters." },
    timeoutMs: positive,
    maxResponseBytes: positive,
  },
} as const;

export const serveConfigSchema = {
  type: "object",
  additionalProperties: false,
  description: "`schemarouter serve`: the locked capabilities as an MCP server (docs/serve.md).",
  properties: {
    expose: {
      type: "array",
      minItems: 1,
      items: { type: "string", minLength: 1 },
      default: ["**"],
      description: "Globs over tool.endpoint of the capabilities served.",
    },
    names: { type: "object", additionalProperties: { type: "string" }, description: "Tool names by route." },
    fields: {
      type: "object",
      additionalProperties: { type: "array", items: { type: "string", minLength: 1 } },
      description: "The logical fields a route returns, fixed (default: every declared field).",
    },
    profile: { enum: ["mcp", "portable", "openai", "anthropic"], default: "mcp" },
    listing: {
      type: "object",
      required: ["k"],
      additionalProperties: false,
      description: "List only a retrieved top-k (plus `always` and what search found).",
      properties: {
        k: { type: "integer", minimum: 1, maximum: 200 },
        query: { type: "string", maxLength: 10_000 },
        always: { type: "array", items: route },
      },
    },
    search: { type: "boolean", default: true, description: "Offer the search_capabilities tool." },
    policy: {
      type: "object",
      additionalProperties: false,
      properties: {
        allowMutations: { type: "boolean", default: false },
        allowDestructive: { type: "boolean", default: false },
        allowUnclassifiedRemote: { type: "boolean", default: false },
        approval: { enum: ["never", "non-read-only", "all"], default: "never" },
        rules: { type: "array", items: rule },
      },
    },
    approvals: {
      type: "object",
      required: ["module"],
      additionalProperties: false,
      description: "A trusted module whose export is the approval callback (none: approval means refusal).",
      properties: { module: { type: "string", minLength: 1 }, export: { type: "string", minLength: 1 } },
    },
    budget: {
      type: "object",
      additionalProperties: false,
      properties: {
        session: {
          type: "object",
          additionalProperties: false,
          properties: {
            maxCalls: count,
            maxRemoteCalls: count,
            toolQuotas: { type: "object", additionalProperties: count },
          },
        },
        call: {
          type: "object",
          additionalProperties: false,
          properties: { maxAttempts: count, maxWallClockMs: positive },
        },
      },
    },
    bindings: {
      type: "object",
      additionalProperties: binding,
      description:
        "Trusted bindings of openapi (baseUrl), optimade, odata and graphql (baseUrl: the endpoint URL) sources, by source name.",
    },
    traces: {
      type: "object",
      required: ["sqlite"],
      additionalProperties: false,
      properties: {
        sqlite: { type: "string", minLength: 1, description: "Trace database, relative to this config." },
        includePayloads: { type: "boolean", default: false },
      },
    },
    http: {
      type: "object",
      additionalProperties: false,
      properties: {
        host: { type: "string", minLength: 1, default: SERVE_DEFAULTS.host },
        port: { type: "integer", minimum: 0, maximum: 65_535, default: SERVE_DEFAULTS.port },
        path: { type: "string", pattern: "^/", default: SERVE_DEFAULTS.path },
        tokenEnv: {
          type: "string",
          pattern: ENV_NAME_PATTERN,
          description: "Environment variable holding the bearer token (required off loopback).",
        },
        allowedHosts: { type: "array", items: { type: "string", minLength: 1 } },
        allowedOrigins: { type: "array", items: { type: "string", minLength: 1 } },
        maxBodyBytes: { ...positive, default: SERVE_DEFAULTS.maxBodyBytes },
        maxSessions: { ...positive, default: SERVE_DEFAULTS.maxSessions },
        sessionIdleMs: { ...positive, default: SERVE_DEFAULTS.sessionIdleMs },
      },
    },
    maxConcurrentCalls: { ...positive, default: SERVE_DEFAULTS.maxConcurrentCalls },
    maxQueuedCalls: { ...count, default: SERVE_DEFAULTS.maxQueuedCalls },
    watch: {
      type: "boolean",
      default: true,
      description: "Reload when the lockfile or an artifact changes.",
    },
  },
} as const;
