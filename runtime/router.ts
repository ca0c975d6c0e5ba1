/**
 * The public runtime facade: `SchemaRouter.load()` verifies the lockfile and artifacts, binds trusted
 * invokers from local configuration, and runs every call through the executor boundary.
 */
import { LoadError, SchemaRouterError } from "./errors.js";
import { type ApprovalCallback, type CallContext, Executor } from "./executor.js";
import { digestJson, fingerprintTool } from "./fingerprint.js";
import type { Binding, Invoker } from "./invoker.js";
import { type LoadedCatalog, loadCatalog } from "./load.js";
import type { ToolCall, ToolResult } from "./model.js";
import { ExecutionPolicy } from "./policy.js";
import { type RegisteredTool, type Registry, registerTool, type ToolRegistration } from "./registry.js";
import { createHttpInvoker, type HttpBindingOptions } from "./transports/http.js";
import { createLocalInvoker, type LocalToolDefinition, localToolSpec } from "./transports/local.js";
import {
  createMcpInvoker,
  type McpConnectionOptions,
  mcpClientFactory,
  mcpExecutionIdentity,
} from "./transports/mcp.js";

/** Trusted MCP binding: how to reach the server (credentials only here, never in schemas). */
export interface McpBindingOptions {
  readonly mcp: McpConnectionOptions;
  /** Bound of every MCP request (default 30 s). */
  readonly timeoutMs?: number;
}

/** Trusted binding configuration for one tool (keyed by tool name, which is the source name). */
export type BindingConfig = HttpBindingOptions | McpBindingOptions | { readonly invoker: Invoker };

export interface SchemaRouterOptions {
  readonly root?: string;
  readonly lockfile?: string;
  readonly bindings?: Readonly<Record<string, BindingConfig>>;
  /** Local tool definitions by source name (the same modules the config compiles). */
  readonly local?: Readonly<Record<string, LocalToolDefinition>>;
  readonly policy?: ExecutionPolicy;
  readonly approve?: ApprovalCallback;
  readonly approvalTimeoutMs?: number;
}

export class SchemaRouter {
  private currentRegistry: Registry;
  private readonly bindingMap = new Map<string, Binding>();
  private readonly executor: Executor;
  private closed = false;

  private constructor(
    registry: Registry,
    readonly policy: ExecutionPolicy,
    options: SchemaRouterOptions,
    readonly catalog?: LoadedCatalog,
  ) {
    this.currentRegistry = registry;
    this.executor = new Executor(() => ({ registry: this.currentRegistry, bindings: this.bindingMap }), {
      policy,
      ...(options.approve ? { approve: options.approve } : {}),
      ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    });
  }

  /** Loads and verifies `schemarouter.lock.json` and its artifacts, then binds trusted invokers. */
  static async load(options: SchemaRouterOptions = {}): Promise<SchemaRouter> {
    const catalog = await loadCatalog({
      ...(options.root !== undefined ? { root: options.root } : {}),
      ...(options.lockfile !== undefined ? { lockfile: options.lockfile } : {}),
    });
    const router = new SchemaRouter(
      catalog.registry,
      options.policy ?? new ExecutionPolicy(),
      options,
      catalog,
    );
    router.bindFromOptions(options);
    return router;
  }

  /** A router over an explicit registry (tests, embedding); no lockfile is read. */
  static fromRegistry(registry: Registry, options: SchemaRouterOptions = {}): SchemaRouter {
    const router = new SchemaRouter(registry, options.policy ?? new ExecutionPolicy(), options);
    router.bindFromOptions(options);
    return router;
  }

  get registry(): Registry {
    return this.currentRegistry;
  }

  private bindFromOptions(options: SchemaRouterOptions): void {
    for (const [tool, config] of Object.entries(options.bindings ?? {})) {
      const registered = this.currentRegistry.get(tool);
      if (registered === undefined) {
        throw new SchemaRouterError("UNKNOWN_TOOL", `bindings.${tool}: no such tool in the lockfile.`, {
          tool,
        });
      }
      this.bind(tool, invokerFor(registered, config));
    }
    for (const [source, definition] of Object.entries(options.local ?? {})) {
      const registered = this.currentRegistry.get(definition.name);
      if (registered === undefined || registered.source !== source) {
        throw new SchemaRouterError(
          "UNKNOWN_TOOL",
          `local.${source}: no local tool "${definition.name}" is locked.`,
          {
            source,
          },
        );
      }
      // Compare the live definition with the one compiled (before overlays, which only the compiler applies).
      const spec = localToolSpec(definition);
      const compiled = this.catalog?.artifacts.get(source)?.source.documentDigest;
      const live = compiled !== undefined ? digestJson(spec) : fingerprintTool(spec, registered.defs).tool;
      const expected = compiled ?? registered.fingerprint;
      if (live !== expected) {
        throw new LoadError(
          "LOCK_MISMATCH",
          `Local tool "${definition.name}" changed since it was compiled. Re-run \`schemarouter compile\` and review the lockfile diff.`,
          { source, reason: "local-definition-changed", expected, actual: live },
        );
      }
      this.bind(definition.name, createLocalInvoker(definition));
    }
  }

  /** Binds a trusted invoker to the tool's current contract (trusted local code only). */
  bind(tool: string, invoker: Invoker): void {
    const registered = this.currentRegistry.get(tool);
    if (registered === undefined)
      throw new SchemaRouterError("UNKNOWN_TOOL", `Cannot bind unknown tool "${tool}".`, { tool });
    this.bindingMap.set(tool, { tool, toolFingerprint: registered.fingerprint, invoker });
  }

  /**
   * Replaces (or adds) a tool contract: a new registry version. Calls and bindings pinned to the old
   * contract are refused until re-planned and re-bound.
   */
  replaceTool(registration: ToolRegistration): void {
    this.currentRegistry = this.currentRegistry.withTool(registerTool(registration));
  }

  isReady(tool: string): boolean {
    const binding = this.bindingMap.get(tool);
    return binding !== undefined && binding.toolFingerprint === this.currentRegistry.get(tool)?.fingerprint;
  }

  /** Runs one call through the fail-closed boundary. */
  async call(call: ToolCall, context: CallContext = {}): Promise<ToolResult> {
    this.assertOpen();
    return this.executor.execute(call, context);
  }

  /** Runs calls (or a plan's calls) in order; the first refusal or failure rejects. */
  async invoke(
    calls: ToolCall | readonly ToolCall[] | { readonly calls: readonly ToolCall[] },
    context: CallContext = {},
  ): Promise<ToolResult[]> {
    const list = Array.isArray(calls)
      ? calls
      : "calls" in (calls as object)
        ? (calls as { calls: readonly ToolCall[] }).calls
        : [calls as ToolCall];
    const results: ToolResult[] = [];
    for (const call of list) results.push(await this.call(call, context));
    return results;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const invokers = new Set([...this.bindingMap.values()].map((binding) => binding.invoker));
    this.bindingMap.clear();
    await Promise.all([...invokers].map((invoker) => invoker.close?.()));
  }

  private assertOpen(): void {
    if (this.closed) throw new SchemaRouterError("BINDING_NOT_READY", "The router is closed.", {});
  }
}

/** Builds the trusted invoker a binding config describes, checking it fits the locked tool identity. */
function invokerFor(registered: RegisteredTool, config: BindingConfig): Invoker {
  const tool = registered.tool.name;
  if ("invoker" in config) return config.invoker;
  const execution = registered.tool.execution;
  if ("mcp" in config) {
    if (execution.transport !== "mcp") {
      throw new SchemaRouterError(
        "BINDING_NOT_READY",
        `bindings.${tool}: an MCP binding was given for a ${execution.transport} tool.`,
        { tool },
      );
    }
    const identity = mcpExecutionIdentity(config.mcp);
    if (identity.server !== execution.server || identity.identity !== execution.identity) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `bindings.${tool}: the MCP server (${identity.identity}) is not the one that was compiled and locked (${execution.identity}). Bind the locked server, or recompile.`,
        { tool, reason: "binding-identity", expected: execution.identity, actual: identity.identity },
      );
    }
    return createMcpInvoker({
      source: registered.source,
      connect: mcpClientFactory(config.mcp),
      expected: registered.remoteDigests,
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    });
  }
  if (execution.transport !== "http") {
    throw new SchemaRouterError(
      "BINDING_NOT_READY",
      `bindings.${tool}: an HTTP binding (baseUrl) was given for a ${execution.transport} tool.`,
      { tool },
    );
  }
  return createHttpInvoker(config);
}
