/**
 * `schemarouter serve`: the config's `serve` section as router and server options (docs/serve.md,
 * "Configuration"). Everything with authority comes from this trusted config and the environment:
 * OpenAPI base URLs and credentials (`serve.bindings`, secrets from named variables), MCP servers
 * from their source config (the locked command or URL, the env allowlist), OPTIMADE providers at
 * their locked base URL, local tools from their modules, the policy, the approval hook.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { ApprovalCallback, BindingConfig, LocalToolDefinition } from "schemarouter";
import { ExecutionBudget, ExecutionPolicy, PolicyRule, SchemaRouter } from "schemarouter";
import type { McpServerOptions } from "schemarouter/serve";
import type { ResolvedConfig } from "../config/config.js";
import type { SecretRef, ServeBindingConfig, ServeConfig } from "../config/serve.js";
import { ConfigError } from "../errors/errors.js";
import { importTrustedModule, loadLocalDefinition } from "../sources/local/index.js";
import { mcpConnection } from "../sources/mcp/connection.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface ServeSetup {
  /** Loads and fully verifies the router (the first one and every successor). */
  readonly load: () => Promise<SchemaRouter>;
  readonly server: Omit<McpServerOptions, "reload" | "watch" | "log">;
  readonly close: () => Promise<void>;
}

export async function serveSetup(config: ResolvedConfig, env: Env): Promise<ServeSetup> {
  const serve = config.file.serve ?? {};
  for (const name of Object.keys(serve.bindings ?? {})) {
    const kind = Object.hasOwn(config.sources, name) ? config.sources[name]!.kind : undefined;
    if (kind === undefined) throw invalid(config, `serve.bindings.${name}: there is no source "${name}".`);
    if (
      kind !== "openapi" &&
      kind !== "optimade" &&
      kind !== "proposal" &&
      kind !== "plugin" &&
      kind !== "odata" &&
      kind !== "graphql"
    ) {
      throw invalid(
        config,
        `serve.bindings.${name}: only openapi, optimade, odata and graphql sources take a binding here (${kind} sources are bound from their source config).`,
      );
    }
  }
  const policy = policyOf(config, serve);
  const approve = serve.approvals !== undefined ? await approvalOf(config, serve.approvals) : undefined;
  const traces = serve.traces;
  const traceStore =
    traces !== undefined
      ? await (await import("schemarouter/traces")).SqliteTraceStore.open(
          resolve(config.dir, traces.sqlite),
          {
            includePayloads: traces.includePayloads === true,
          },
        )
      : undefined;
  const load = async (): Promise<SchemaRouter> => {
    const locked = await lockedSources(config.lockfile);
    const bindings: Record<string, BindingConfig> = {};
    const local: Record<string, LocalToolDefinition> = {};
    for (const [name, source] of Object.entries(config.sources)) {
      if (!locked.has(name)) continue;
      const binding = serve.bindings?.[name];
      if (source.kind === "openapi" || source.kind === "plugin") {
        if (binding?.baseUrl === undefined) continue;
        bindings[name] = httpBinding(name, binding, env);
      } else if (source.kind === "optimade") {
        bindings[name] = {
          optimade: {
            ...(binding?.baseUrl !== undefined ? { baseUrl: binding.baseUrl } : {}),
            ...(binding?.headers !== undefined
              ? { headers: secrets(name, "headers", binding.headers, env) }
              : {}),
          },
        };
      } else if (source.kind === "proposal") {
        // The approved base URL (docs/sources/proposals.md); serve.bindings may add headers.
        bindings[name] = httpBinding(name, { ...binding, baseUrl: source.baseUrl }, env);
      } else if (source.kind === "odata") {
        bindings[name] = {
          odata: {
            ...(binding?.baseUrl !== undefined ? { serviceRoot: binding.baseUrl } : {}),
            ...(binding?.headers !== undefined
              ? { headers: secrets(name, "headers", binding.headers, env) }
              : {}),
          },
        };
      } else if (source.kind === "graphql") {
        // An SDL source has no locked endpoint: without a baseUrl here its calls are refused.
        if (binding?.baseUrl === undefined && !/^https?:\/\//i.test(source.location)) continue;
        bindings[name] = {
          graphql: {
            ...(binding?.baseUrl !== undefined ? { url: binding.baseUrl } : {}),
            ...(binding?.headers !== undefined
              ? { headers: secrets(name, "headers", binding.headers, env) }
              : {}),
          },
        };
      } else if (source.kind === "mcp") {
        const { options } = mcpConnection(name, source, {
          cwd: config.dir,
          env,
          allowInsecureHttp: config.allowInsecureHttp,
        });
        bindings[name] = {
          mcp: options,
          ...(binding?.timeoutMs !== undefined ? { timeoutMs: binding.timeoutMs } : {}),
        };
      } else if (source.kind === "openrpc") {
        // The locked JSON-RPC endpoint from the source config (docs/sources/openrpc.md).
        bindings[name] = { openrpc: {} };
      } else {
        local[name] = (await loadLocalDefinition(name, source, config.dir)).definition;
      }
    }
    return SchemaRouter.load({
      lockfile: config.lockfile,
      verify: "full",
      bindings,
      local,
      policy,
      ...(approve !== undefined ? { approve } : {}),
    });
  };
  const session = serve.budget?.session;
  const call = serve.budget?.call;
  return {
    load,
    server: {
      ...(serve.expose !== undefined ? { expose: serve.expose } : {}),
      ...(serve.names !== undefined ? { names: serve.names } : {}),
      ...(serve.fields !== undefined ? { fields: serve.fields } : {}),
      ...(serve.profile !== undefined ? { profile: serve.profile } : {}),
      ...(serve.listing !== undefined ? { listing: serve.listing } : {}),
      ...(serve.search !== undefined ? { search: serve.search } : {}),
      ...(session !== undefined ? { sessionBudget: session } : {}),
      ...(call !== undefined ? { callBudget: new ExecutionBudget(call) } : {}),
      ...(traceStore !== undefined ? { traceStore, includePayloads: traces?.includePayloads === true } : {}),
      ...(serve.maxConcurrentCalls !== undefined ? { maxConcurrentCalls: serve.maxConcurrentCalls } : {}),
      ...(serve.maxQueuedCalls !== undefined ? { maxQueuedCalls: serve.maxQueuedCalls } : {}),
    },
    close: async () => {
      await traceStore?.close();
    },
  };
}

/** The HTTP transport's options: the token comes from the named environment variable only. */
export function httpOptionsOf(config: ResolvedConfig, env: Env, address: string | undefined) {
  const http = config.file.serve?.http ?? {};
  let host = http.host;
  let port = http.port;
  if (address !== undefined) {
    const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(address);
    if (match === null || Number(match[3]) > 65_535) {
      throw invalid(config, `--http ${address}: give host:port, e.g. 127.0.0.1:8931 or [::1]:8931.`);
    }
    host = match[1] ?? match[2];
    port = Number(match[3]);
  }
  let token: string | undefined;
  if (http.tokenEnv !== undefined) {
    token = env[http.tokenEnv];
    if (token === undefined || token.length === 0)
      throw invalid(
        config,
        `serve.http.tokenEnv names ${http.tokenEnv}, which is not set. Set it to the bearer token clients must send.`,
      );
  }
  return {
    ...(host !== undefined ? { host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(http.path !== undefined ? { path: http.path } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(http.allowedHosts !== undefined ? { allowedHosts: http.allowedHosts } : {}),
    ...(http.allowedOrigins !== undefined ? { allowedOrigins: http.allowedOrigins } : {}),
    ...(http.maxBodyBytes !== undefined ? { maxBodyBytes: http.maxBodyBytes } : {}),
    ...(http.maxSessions !== undefined ? { maxSessions: http.maxSessions } : {}),
    ...(http.sessionIdleMs !== undefined ? { sessionIdleMs: http.sessionIdleMs } : {}),
  };
}

async function lockedSources(lockfile: string): Promise<Set<string>> {
  try {
    const lock = JSON.parse(await readFile(lockfile, "utf8")) as { sources?: Record<string, unknown> };
    return new Set(Object.keys(lock.sources ?? {}));
  } catch {
    // SchemaRouter.load reports a missing or unreadable lockfile with its own code.
    return new Set();
  }
}

function httpBinding(name: string, binding: ServeBindingConfig, env: Env): BindingConfig {
  return {
    baseUrl: binding.baseUrl!,
    ...(binding.headers !== undefined ? { headers: secrets(name, "headers", binding.headers, env) } : {}),
    ...(binding.query !== undefined ? { query: secrets(name, "query", binding.query, env) } : {}),
    ...(binding.timeoutMs !== undefined ? { timeoutMs: binding.timeoutMs } : {}),
    ...(binding.maxResponseBytes !== undefined ? { maxResponseBytes: binding.maxResponseBytes } : {}),
  };
}

function secrets(source: string, what: string, refs: Readonly<Record<string, SecretRef>>, env: Env) {
  const out: Record<string, string> = {};
  for (const [key, ref] of Object.entries(refs)) {
    const value = env[ref.env];
    if (value === undefined) {
      throw new ConfigError(
        "CONFIG_INVALID",
        `serve.bindings.${source}.${what}.${key} reads environment variable ${ref.env}, which is not set. Set it before serving.`,
        { source },
      );
    }
    out[key] = `${ref.prefix ?? ""}${value}`;
  }
  return out;
}

function policyOf(config: ResolvedConfig, serve: ServeConfig): ExecutionPolicy {
  const { rules, ...flags } = serve.policy ?? {};
  try {
    return new ExecutionPolicy({ ...flags, rules: (rules ?? []).map((rule) => new PolicyRule(rule)) });
  } catch (error) {
    throw invalid(config, `serve.policy: ${(error as Error).message}`);
  }
}

async function approvalOf(
  config: ResolvedConfig,
  approvals: NonNullable<ServeConfig["approvals"]>,
): Promise<ApprovalCallback> {
  const module = await importTrustedModule(
    "serve.approvals",
    resolve(config.dir, approvals.module),
    approvals.module,
  );
  const exported = module[approvals.export ?? "default"];
  if (typeof exported !== "function") {
    throw invalid(
      config,
      `serve.approvals: ${approvals.module} does not export ${approvals.export ?? "a default"} function (request) => boolean.`,
    );
  }
  return exported as ApprovalCallback;
}

function invalid(config: ResolvedConfig, message: string): ConfigError {
  return new ConfigError("CONFIG_INVALID", `${config.path}: ${message}`, { path: config.path });
}
