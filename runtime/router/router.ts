/**
 * The public runtime facade: `SchemaRouter.load()` verifies the lockfile and artifacts, binds trusted
 * invokers from local configuration, and runs every call through the executor boundary.
 */

import { type ApprovalCallback, Executor, type ExecutorState } from "../boundary/executor.js";
import type { Binding, Invoker } from "../boundary/invoker.js";
import { ExecutionPolicy } from "../boundary/policy.js";
import { LoadError, SchemaRouterError } from "../errors/errors.js";
import { digestJson, fingerprintTool } from "../format/fingerprint.js";
import type { AvailabilityOptions, AvailabilityStatus } from "../governed/availability.js";
import type { RunConfig } from "../governed/config.js";
import type { GovernedCall, GovernedPlan } from "../governed/fallback.js";
import { RunGovernor } from "../governed/governor.js";
import type {
  AccessHealthMonitor,
  AccessHealthMonitorOptions,
  HealthCheckResult,
  HealthProbe,
  HealthProbeOptions,
} from "../governed/health.js";
import type { ExecutionHooks } from "../governed/hooks.js";
import type { RunInput } from "../governed/runner.js";
import type { AvailabilityStore } from "../governed/state/availability-store.js";
import type { CapabilityGraph } from "../graph/graph.js";
import { RegistryGraph } from "../graph/registry-graph.js";
import { type LoadedCatalog, loadCatalog, type VerifyMode } from "../load/load.js";
import { type RegisteredTool, type Registry, registerTool, type ToolRegistration } from "../load/registry.js";
import type { Effect, ToolResult } from "../model/specs.js";
import {
  type DecisionBackend,
  type DecisionPlanOptions,
  type ExecutionPlan,
  type PlanOptions,
  plan,
  planWithDecision,
  withArgumentSuppliers,
} from "../planner/index.js";
import { CatalogEmbeddings } from "../retrieval/embeddings/catalog-embeddings.js";
import {
  type EmbeddingCandidate,
  type EmbeddingRetrieveOptions,
  retrieveWithEmbeddings,
} from "../retrieval/embeddings/retrieve.js";
import {
  type EmbeddingRouteOptions,
  type EmbeddingRouteResult,
  routeWithEmbeddings,
} from "../retrieval/embeddings/route.js";
import type { Embedder } from "../retrieval/embeddings/types.js";
import {
  type CapabilityCandidate,
  createRetriever,
  type RetrievalRequest,
  type RetrieveOptions,
  type Retriever,
  type StateAwareOptions,
} from "../retrieval/index.js";
import type { RunEvent } from "../traces/events.js";
import { createGraphqlBinding, type GraphqlBindingSettings } from "../transports/graphql/transport.js";
import { createHttpInvoker, type HttpBindingOptions } from "../transports/http/transport.js";
import {
  createLocalInvoker,
  type LocalToolDefinition,
  localToolSpec,
} from "../transports/local/transport.js";
import { resolveStdioEnv, sameStdioIdentity } from "../transports/mcp/target.js";
import {
  createMcpInvoker,
  type McpConnectionOptions,
  type McpRelistPolicy,
  mcpClientFactory,
  mcpExecutionIdentity,
} from "../transports/mcp/transport.js";
import { createOdataBinding, type OdataBindingSettings } from "../transports/odata/transport.js";
import { createOpenRpcBinding, type OpenRpcBindingSettings } from "../transports/openrpc/transport.js";
import { createOptimadeBinding, type OptimadeBindingSettings } from "../transports/optimade/transport.js";
import { checkBindingShape, unknownBindingTool } from "./binding-check.js";
import {
  type ReloadResult,
  type RouterSnapshot,
  snapshotOf,
  type WatchOptions,
  watchLockfile,
} from "./snapshot.js";

/** Trusted MCP binding: how to reach the server (credentials only here, never in schemas). */
export interface McpBindingOptions {
  readonly mcp: McpConnectionOptions;
  /** Bound of every MCP request (default 30 s). */
  readonly timeoutMs?: number;
  /** Which calls re-list the server's tools first (default `"non-read"`; see McpInvokerOptions). */
  readonly relistBefore?: McpRelistPolicy;
}

/**
 * Trusted OPTIMADE binding: local page/record/byte/time limits and headers. The base URL defaults to
 * the locked one (the trusted config's location); a different one is refused (LOCK_MISMATCH).
 */
export interface OptimadeBindingOptions {
  readonly optimade: OptimadeBindingSettings;
}

/**
 * Trusted OData binding: headers, page/record/byte/time limits. The service root defaults to the
 * locked one; a different one is refused (LOCK_MISMATCH).
 */
export interface OdataBindingOptions {
  readonly odata: OdataBindingSettings;
}

/**
 * Trusted GraphQL binding: the endpoint URL (required for a source compiled from an SDL file; the
 * locked one otherwise, LOCK_MISMATCH when another is given), headers and limits.
 */
export interface GraphqlBindingOptions {
  readonly graphql: GraphqlBindingSettings;
}

/**
 * Trusted OpenRPC binding: headers and limits of the JSON-RPC endpoint. The URL defaults to the locked
 * one (the trusted config's `url`); a different one is refused (LOCK_MISMATCH).
 */
export interface OpenRpcBindingOptions {
  readonly openrpc: OpenRpcBindingSettings;
}

/** Trusted binding configuration for one tool (keyed by tool name, which is the source name). */
export type BindingConfig =
  | HttpBindingOptions
  | McpBindingOptions
  | OptimadeBindingOptions
  | OdataBindingOptions
  | GraphqlBindingOptions
  | OpenRpcBindingOptions
  | { readonly invoker: Invoker };

/** Bindings by tool name; a generated `RouterBindings` type narrows it to one project's sources. */
export type BindingMap = Readonly<Record<string, BindingConfig>>;

export interface SchemaRouterOptions<B extends BindingMap = BindingMap> {
  readonly root?: string;
  readonly lockfile?: string;
  /**
   * When each endpoint contract is verified against its locked fingerprint: on its first use
   * (`"first-use"`, the default; load verifies the file, the entries and every tool fingerprint), or
   * every endpoint during load (`"full"`). See docs/runtime/loading-and-verification.md.
   */
  readonly verify?: VerifyMode;
  /**
   * Trusted bindings by tool name. `SchemaRouter.load<RouterBindings>({ bindings })`, with the
   * `RouterBindings` type the compiler generates, checks names and shapes per source
   * (docs/runtime/bindings.md).
   */
  readonly bindings?: B;
  /** Local tool definitions by source name (the same modules the config compiles). */
  readonly local?: Readonly<Record<string, LocalToolDefinition>>;
  readonly policy?: ExecutionPolicy;
  readonly approve?: ApprovalCallback;
  readonly approvalTimeoutMs?: number;
  /** Trusted before/after execution hooks (snapshot-only; they can refuse, never change). */
  readonly hooks?: ExecutionHooks;
  /** Cooldown bounds of the availability memory (timeouts, connection failures, 429, exhausted 5xx). */
  readonly availability?: AvailabilityOptions;
  /**
   * Router state kept outside this process (docs/state/postgres.md): `availability` shares cooldowns
   * and health-probe verdicts with every process using the same store (its own cooldown bounds
   * replace `availability`). Budgets and traces are per run: RunConfig `sharedBudget`, `traceStore`.
   */
  readonly state?: RouterState;
  /**
   * The application's embedder (docs/runtime/embeddings.md): `retrieveWithEmbeddings` embeds each
   * request with it. Its model must be the one the artifacts were compiled with (checked at load).
   */
  readonly embedder?: Embedder;
}

/** Shared router state (docs/state/postgres.md). */
export interface RouterState {
  readonly availability?: AvailabilityStore;
}

export class SchemaRouter {
  private currentRegistry: Registry;
  private bindingMap = new Map<string, Binding>();
  private readonly executor: Executor;
  /** Retrieval index over the current registry (rebuilt when the registry version changes). */
  private readonly retriever: Retriever = createRetriever(() => this.currentRegistry);
  private readonly governor: RunGovernor;
  private readonly graphs = new RegistryGraph();
  private closed = false;
  private currentCatalog: LoadedCatalog | undefined;
  private currentSnapshot: RouterSnapshot | undefined;
  /** The options `load()` was given: a reload binds the successor from them. */
  private loadOptions: SchemaRouterOptions | undefined;
  private reloading: Promise<unknown> = Promise.resolve();
  private readonly retiring = new Set<Promise<void>>();
  private readonly watchers = new Set<() => void>();
  private readonly embeddings: CatalogEmbeddings;

  private constructor(
    registry: Registry,
    readonly policy: ExecutionPolicy,
    options: SchemaRouterOptions,
    catalog?: LoadedCatalog,
  ) {
    this.currentRegistry = registry;
    this.currentCatalog = catalog;
    this.currentSnapshot = catalog !== undefined ? snapshotOf(catalog) : undefined;
    this.embeddings = new CatalogEmbeddings(options.embedder);
    // One state object whose getters read the current registry and bindings: nothing is allocated
    // per call, and a reload's swap is seen at once.
    const router = this;
    const state: ExecutorState = {
      get registry() {
        return router.currentRegistry;
      },
      get bindings() {
        return router.bindingMap;
      },
    };
    this.executor = new Executor(() => state, {
      policy,
      ...(options.approve ? { approve: options.approve } : {}),
      ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    });
    const store = availabilityStoreOf(options);
    this.governor = new RunGovernor(this.executor, () => this.currentRegistry, {
      ...(options.hooks !== undefined ? { hooks: options.hooks } : {}),
      ...(options.availability !== undefined ? { availability: options.availability } : {}),
      ...(store !== undefined ? { availabilityStore: store } : {}),
    });
  }

  /** Loads and verifies `schemarouter.lock.json` and its artifacts, then binds trusted invokers. */
  static async load<B extends BindingMap = BindingMap>(
    options: SchemaRouterOptions<NoInfer<B>> = {},
  ): Promise<SchemaRouter> {
    const catalog = await loadCatalog({
      ...(options.root !== undefined ? { root: options.root } : {}),
      ...(options.lockfile !== undefined ? { lockfile: options.lockfile } : {}),
      ...(options.verify !== undefined ? { verify: options.verify } : {}),
    });
    const router = new SchemaRouter(
      catalog.registry,
      options.policy ?? new ExecutionPolicy(),
      options,
      catalog,
    );
    // A configured embedder must match the compiled vectors now, not at the first retrieval.
    if (options.embedder !== undefined) router.embeddings.indexFor(catalog);
    router.bindFromOptions(options);
    router.loadOptions = options;
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

  /** The loaded lockfile and artifacts of the snapshot in use (undefined for `fromRegistry`). */
  get catalog(): LoadedCatalog | undefined {
    return this.currentCatalog;
  }

  /** The snapshot in use: its id is the digest of the verified lockfile (docs/runtime/snapshots.md). */
  get snapshot(): RouterSnapshot | undefined {
    return this.currentSnapshot;
  }

  /**
   * Reads the lockfile again; when it names another snapshot, verifies the successor completely (every
   * artifact and endpoint, `verify: "full"`), binds it from the options `load()` was given, and swaps
   * registry and bindings in one step: a call observes the old snapshot or the new, never a mix. A
   * refused successor (corrupt, half-written, drifted) leaves the current snapshot in use and throws.
   * Reloads run one at a time (docs/runtime/snapshots.md).
   */
  reload(): Promise<ReloadResult> {
    const run = this.reloading.then(() => this.reloadNow());
    this.reloading = run.catch(() => undefined);
    return run;
  }

  /** Reloads whenever the lockfile changes (polled, unref'd); returns a function that stops watching. */
  watch(options: WatchOptions = {}): () => void {
    this.assertOpen();
    this.requireLoaded("watch");
    const catalog = this.currentCatalog!;
    const stop = watchLockfile(catalog.lockfilePath, catalog.lockfileStamp, () => this.reload(), options);
    this.watchers.add(stop);
    return () => {
      this.watchers.delete(stop);
      stop();
    };
  }

  private requireLoaded(what: string): SchemaRouterOptions {
    if (this.loadOptions === undefined || this.currentCatalog === undefined) {
      throw new SchemaRouterError(
        "RELOAD_UNAVAILABLE",
        `${what}: this router was not created by SchemaRouter.load(), so it has no lockfile to reload. Use replaceTool() for hand-registered tools.`,
        {},
      );
    }
    return this.loadOptions;
  }

  private async reloadNow(): Promise<ReloadResult> {
    this.assertOpen();
    const options = this.requireLoaded("reload");
    const previous = this.currentSnapshot!;
    const catalog = await loadCatalog({ lockfile: this.currentCatalog!.lockfilePath, verify: "full" });
    const snapshot = snapshotOf(catalog);
    if (snapshot.id === previous.id) return { changed: false, previous, snapshot: previous };
    // Bind the successor completely before anything is swapped.
    const successor = new SchemaRouter(catalog.registry, this.policy, options, catalog);
    // A successor whose vectors do not match the embedder is refused like any other (EMBEDDING_MISMATCH).
    if (options.embedder !== undefined) successor.embeddings.indexFor(catalog);
    successor.bindFromOptions(options);
    this.assertOpen();
    const old = this.bindingMap;
    const bindings = new Map<string, Binding>();
    const unused = new Set<Invoker>();
    for (const [tool, binding] of successor.bindingMap) {
      const before = old.get(tool);
      // An unchanged tool keeps its live invoker (and its connections); the fresh one is never used.
      if (before !== undefined && before.toolFingerprint === binding.toolFingerprint) {
        bindings.set(tool, { ...binding, invoker: before.invoker });
        unused.add(binding.invoker);
      } else bindings.set(tool, binding);
    }
    const kept = new Set([...bindings.values()].map((binding) => binding.invoker));
    // The swap: one synchronous step.
    this.currentRegistry = catalog.registry;
    this.bindingMap = bindings;
    this.currentCatalog = catalog;
    this.currentSnapshot = snapshot;
    for (const tool of old.keys()) {
      if (bindings.get(tool)?.toolFingerprint !== old.get(tool)?.toolFingerprint) this.governor.forget(tool);
    }
    for (const invoker of unused) if (!kept.has(invoker)) void invoker.close?.();
    for (const binding of old.values()) {
      if (kept.has(binding.invoker)) continue;
      const retire = this.executor.inflight
        .idle(binding.invoker)
        .then(() => binding.invoker.close?.())
        .then(
          () => undefined,
          () => undefined,
        );
      this.retiring.add(retire);
      void retire.then(() => this.retiring.delete(retire));
    }
    return { changed: true, previous, snapshot };
  }

  private bindFromOptions(options: SchemaRouterOptions): void {
    for (const [tool, config] of Object.entries(options.bindings ?? {})) {
      const registered = this.currentRegistry.get(tool);
      if (registered === undefined) throw unknownBindingTool(tool, this.currentRegistry.toolNames());
      checkBindingShape(tool, registered, config);
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
    // The new contract starts with fresh availability and no health probe (re-register it).
    this.governor.forget(registration.tool.name);
  }

  // --- retrieval and planning (no execution authority) ---

  /** Bounded, typed candidates from the registered contracts. Executes nothing. */
  retrieve(request: RetrievalRequest, options: RetrieveOptions = {}): CapabilityCandidate[] {
    return this.retriever.retrieve(request, options);
  }

  /** Like `retrieve`, restricted to capabilities with a ready trusted binding. */
  retrieveExecutable(request: RetrievalRequest, options: RetrieveOptions = {}): CapabilityCandidate[] {
    return this.retriever.retrieveExecutable(request, { ...options, isReady: (tool) => this.isReady(tool) });
  }

  /** Filters the fixed top-K by host-supplied typed state (never widens visibility). */
  retrieveStateAware<S>(
    request: RetrievalRequest,
    state: S,
    options: StateAwareOptions<S>,
  ): CapabilityCandidate[] {
    return this.retriever.retrieveStateAware(request, state, options);
  }

  /** Refills from the same ranked surface until K eligible candidates or the surface is exhausted. */
  reretrieveStateAware<S>(
    request: RetrievalRequest,
    state: S,
    options: StateAwareOptions<S>,
  ): CapabilityCandidate[] {
    return this.retriever.reretrieveStateAware(request, state, options);
  }

  /** Field-first plan: ToolCalls pinned to both fingerprints with the minimal declared fields. */
  /**
   * The lexical top k, re-ranked and extended by the configured embedder's vectors; never drops a
   * lexical top-k candidate, never grants authority (docs/runtime/embeddings.md).
   */
  async retrieveWithEmbeddings(
    request: RetrievalRequest,
    options: EmbeddingRetrieveOptions = {},
  ): Promise<EmbeddingCandidate[]> {
    const embedder = this.embeddings.requireEmbedder();
    const index = this.embeddings.indexFor(this.currentCatalog);
    return await retrieveWithEmbeddings(this.retriever, index, embedder, request, options);
  }

  /**
   * Routing with rejection where a need lexical coverage leaves uncovered may be covered by a declared
   * field's vector; never drops a candidate route() returns, never grants authority
   * (docs/runtime/embeddings.md, "Routing with vectors").
   */
  async routeWithEmbeddings(
    request: RetrievalRequest,
    options: EmbeddingRouteOptions = {},
  ): Promise<EmbeddingRouteResult> {
    const embedder = this.embeddings.requireEmbedder();
    const index = this.embeddings.indexFor(this.currentCatalog);
    return await routeWithEmbeddings(this.retriever, index, embedder, request, options);
  }

  plan(request: RetrievalRequest, options: PlanOptions = {}): ExecutionPlan {
    return withArgumentSuppliers(plan(this.retriever, request, this.withAvailability(options)), () =>
      this.capabilityGraph(),
    );
  }

  /**
   * The capability graph of the current registry: which locked output fields can supply which
   * parameters, and declared preconditions (docs/runtime/capability-graph.md). It informs; it never runs.
   */
  capabilityGraph(): CapabilityGraph {
    return this.graphs.graphFor(this.currentRegistry);
  }

  /** Plan with a bounded, untrusted decision backend choosing among locally generated options. */
  planWithDecision(
    request: RetrievalRequest,
    backend: DecisionBackend,
    options: DecisionPlanOptions = {},
  ): Promise<ExecutionPlan> {
    return planWithDecision(this.retriever, request, backend, this.withAvailability(options)).then(
      (planned) => withArgumentSuppliers(planned, () => this.capabilityGraph()),
    );
  }

  /** Plans see this router's availability state unless the caller gives its own. */
  private withAvailability<O extends PlanOptions>(options: O): O {
    if (options.availability !== undefined) return options;
    return {
      ...options,
      availability: (tool: string, effect: Effect) => this.governor.pathAvailabilityOf(tool, effect),
    };
  }

  isReady(tool: string): boolean {
    const binding = this.bindingMap.get(tool);
    return binding !== undefined && binding.toolFingerprint === this.currentRegistry.get(tool)?.fingerprint;
  }

  /**
   * Runs one call through the fail-closed governed boundary (budget, availability, approval, hooks,
   * retries and fallbacks as the run config and the call's precompiled fallbacks say).
   */
  call(call: GovernedCall, config: RunConfig = {}): Promise<ToolResult> {
    // Not async: one promise layer less on every call's path (a closed router still rejects).
    if (this.closed) return Promise.reject(closedError());
    return this.governor.call(call, config);
  }

  /** Runs a call, a list of calls or a plan (`{ calls }`) as one run; the first refusal or failure rejects. */
  async invoke(callOrPlan: RunInput, config: RunConfig = {}): Promise<ToolResult[]> {
    this.assertOpen();
    return this.governor.run(callOrPlan, config);
  }

  /**
   * Runs a flat batch of explicitly read-only calls concurrently (RunConfig.concurrency, default 4)
   * under one shared budget. Every call is preflighted before any starts; results keep input order.
   */
  async invokeBatch(
    calls: readonly GovernedCall[] | GovernedPlan,
    config: RunConfig = {},
  ): Promise<ToolResult[]> {
    this.assertOpen();
    return this.governor.run(calls, config, true);
  }

  /** The run's typed RunEvents as they happen (`for await (const event of router.stream(plan))`). */
  stream(plan: RunInput, config: RunConfig = {}): AsyncGenerator<RunEvent> {
    this.assertOpen();
    return this.governor.stream(plan, config);
  }

  /**
   * Whether a tool's access path is eligible now, or cooling down until when and why: its read path, or
   * with an `effect` other than `"read"` what such a call sees (a health probe reopens reads only).
   */
  availability(tool: string, effect: Effect = "read"): AvailabilityStatus {
    return this.governor.pathAvailabilityOf(tool, effect);
  }

  /** Registers a trusted read-only health probe for a tool (local code only). */
  registerHealthProbe(tool: string, probe: HealthProbe, options?: HealthProbeOptions): void {
    this.governor.registerHealthProbe(tool, probe, options);
  }

  /** Runs the registered health probes now (all, or the named tools): success reopens a path. */
  checkHealth(tools?: readonly string[]): Promise<HealthCheckResult[]> {
    return this.governor.checkHealth(tools);
  }

  /** Starts the background health monitor (unref'd timers); `stopHealthMonitor` or `close` stops it. */
  startHealthMonitor(options: AccessHealthMonitorOptions): Promise<AccessHealthMonitor> {
    this.assertOpen();
    return this.governor.startHealthMonitor(options);
  }

  stopHealthMonitor(): Promise<void> {
    return this.governor.stopHealthMonitor();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.watchers) stop();
    this.watchers.clear();
    await this.reloading;
    await this.governor.close();
    await Promise.all(this.retiring);
    const invokers = new Set([...this.bindingMap.values()].map((binding) => binding.invoker));
    this.bindingMap.clear();
    await Promise.all([...invokers].map((invoker) => invoker.close?.()));
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

/** The shared availability store of `options.state`, checked (undefined: the in-memory default). */
function availabilityStoreOf(options: SchemaRouterOptions): AvailabilityStore | undefined {
  const state = options.state;
  if (state === undefined) return undefined;
  if (
    state === null ||
    typeof state !== "object" ||
    Object.keys(state).some((key) => key !== "availability")
  ) {
    throw new SchemaRouterError("RUN_CONFIG_INVALID", "state: takes only { availability }.", {
      option: "state",
    });
  }
  const store = state.availability;
  if (store === undefined) return undefined;
  if (store === null || typeof store !== "object" || typeof store.assertAvailable !== "function") {
    throw new SchemaRouterError(
      "RUN_CONFIG_INVALID",
      "state.availability must implement AvailabilityStore (e.g. the PostgreSQL state's availability()).",
      { option: "state.availability" },
    );
  }
  if (options.availability !== undefined) {
    throw new SchemaRouterError(
      "RUN_CONFIG_INVALID",
      "Give cooldown bounds either as `availability` or to the store in `state.availability`, not both.",
      { option: "availability" },
    );
  }
  return store;
}

function closedError(): SchemaRouterError {
  return new SchemaRouterError("BINDING_NOT_READY", "The router is closed.", {});
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
    const same =
      identity.identity === execution.identity ||
      (identity.server === "stdio" && sameStdioIdentity(identity.identity, execution.identity));
    if (identity.server !== execution.server || !same) {
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
      // What the server was trusted with; its error text never repeats them (docs/trust-model.md §7).
      secrets: Object.values(
        config.mcp.stdio !== undefined ? resolveStdioEnv(config.mcp.stdio.env) : (config.mcp.headers ?? {}),
      ),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      ...(config.relistBefore !== undefined ? { relistBefore: config.relistBefore } : {}),
    });
  }
  if ("optimade" in config) {
    if (execution.transport !== "optimade") {
      throw new SchemaRouterError(
        "BINDING_NOT_READY",
        `bindings.${tool}: an OPTIMADE binding was given for a ${execution.transport} tool.`,
        { tool },
      );
    }
    return createOptimadeBinding(tool, execution.baseUrl, config.optimade);
  }
  if ("odata" in config) {
    if (execution.transport !== "odata") {
      throw new SchemaRouterError(
        "BINDING_NOT_READY",
        `bindings.${tool}: an OData binding was given for a ${execution.transport} tool.`,
        { tool },
      );
    }
    return createOdataBinding(tool, execution.serviceRoot, config.odata);
  }
  if ("graphql" in config) {
    if (execution.transport !== "graphql") {
      throw new SchemaRouterError(
        "BINDING_NOT_READY",
        `bindings.${tool}: a GraphQL binding was given for a ${execution.transport} tool.`,
        { tool },
      );
    }
    return createGraphqlBinding(tool, execution.url, config.graphql);
  }
  if ("openrpc" in config) {
    if (execution.transport !== "openrpc") {
      throw new SchemaRouterError(
        "BINDING_NOT_READY",
        `bindings.${tool}: an OpenRPC binding was given for a ${execution.transport} tool.`,
        { tool },
      );
    }
    return createOpenRpcBinding(tool, execution.rpcUrl, config.openrpc);
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
