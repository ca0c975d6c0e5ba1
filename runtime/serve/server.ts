/**
 * `createMcpServer(router, options)` (docs/serve.md): the locked, governed capabilities of a router
 * as an MCP server. It builds the catalog now (so a bad option or a name collision fails here),
 * then serves sessions over stdio, Streamable HTTP or any SDK transport. With `reload`, a change of
 * the lockfile or an artifact on disk loads a new router (the caller's function verifies it: use
 * `verify: "full"`), swaps it in whole and sends `notifications/tools/list_changed`; a lock that fails
 * to load or to build keeps the old registry serving, and the log says why.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isSchemaRouterError } from "../errors/errors.js";
import { ExecutionBudget } from "../governed/budget.js";
import type { SchemaRouter } from "../router/router.js";
import type { TraceStore } from "../traces/store.js";
import { Catalog, type CatalogOptions, invalid } from "./catalog.js";
import { SERVE_DEFAULTS } from "./defaults.js";
import { type HttpServeHandle, type HttpServeOptions, listenHttp } from "./http.js";
import { Limiter } from "./limiter.js";
import { loadSdk, type Sdk } from "./sdk.js";
import { ServeSession, type SessionTransport } from "./session.js";
import { checkSessionBudget, type SessionBudgetOptions } from "./session-budget.js";
import { ServeState, type SwapResult } from "./state.js";
import { type StdioServeHandle, type StdioServeOptions, serveStdio } from "./stdio.js";
import { FileWatcher, lockFilesOf, watchedFilesOf } from "./watch.js";

export interface McpServerOptions extends CatalogOptions {
  /** Limits per MCP session (calls in all, to remote tools, per tool). */
  readonly sessionBudget?: SessionBudgetOptions;
  /** The ExecutionBudget of every single call (e.g. `maxWallClockMs`). */
  readonly callBudget?: ExecutionBudget;
  /** Every served call's run events go here, with the MCP session id as run metadata. */
  readonly traceStore?: TraceStore;
  /** Arguments and results in the events (the store still redacts them unless it includes payloads). */
  readonly includePayloads?: boolean;
  /** Calls that run at once, across all sessions (default 16). */
  readonly maxConcurrentCalls?: number;
  /** Calls that may wait for a slot; more are refused with SERVE_BUSY (default 256). */
  readonly maxQueuedCalls?: number;
  /** Loads the successor router when the lock changes (e.g. `SchemaRouter.load({ …, verify: "full" })`). */
  readonly reload?: () => Promise<SchemaRouter>;
  /** The server closes `router` when a reload replaces it, and on close() (default false: it stays yours). */
  readonly ownsRouter?: boolean;
  /** Watch the lockfile and artifacts and reload on change (default: true when `reload` is given). */
  readonly watch?: boolean;
  /** Where operational lines go (default: stderr, never stdout: stdio carries the protocol). */
  readonly log?: (line: string) => void;
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

export class SchemaRouterMcpServer {
  readonly #state: ServeState;
  readonly #sdk: Sdk;
  readonly #reload: (() => Promise<SchemaRouter>) | undefined;
  readonly #watcher: FileWatcher | undefined;
  #reloading: Promise<SwapResult> = Promise.resolve({ status: "unchanged" });
  readonly #handles = new Set<{ close(): Promise<void> }>();

  /** @internal use createMcpServer */
  constructor(state: ServeState, sdk: Sdk, options: McpServerOptions) {
    this.#state = state;
    this.#sdk = sdk;
    this.#reload = options.reload;
    if (options.reload !== undefined && options.watch !== false) {
      this.#watcher = new FileWatcher(() => void this.reload());
      this.#watcher.watch(...watchedFilesOf(state.catalog.router));
    }
  }

  /** The router whose registry is served now. */
  get router(): SchemaRouter {
    return this.#state.catalog.router;
  }

  /** The definitions every session gets from `tools/list` (before any search). */
  listTools() {
    return this.#state.catalog.list();
  }

  get sessionCount(): number {
    return this.#state.sessions.size;
  }

  /** A new session with its own SDK Server, connected to `transport` (e.g. an in-memory transport). */
  async connect(transport: Transport, kind: SessionTransport = "stdio", id?: string): Promise<ServeSession> {
    const session = this.session(kind, id);
    await session.server.connect(transport);
    return session;
  }

  /** A new, unconnected session (its `server` is the SDK's low-level Server). */
  session(kind: SessionTransport, id?: string): ServeSession {
    const session = new ServeSession(this.#state, kind, this.#sdk, id);
    this.#state.sessions.add(session);
    const previous = session.server.onclose;
    session.server.onclose = () => {
      this.#state.sessions.delete(session);
      previous?.();
    };
    return session;
  }

  /** Serves one session over stdin/stdout until the input ends. */
  async serveStdio(options: StdioServeOptions = {}): Promise<StdioServeHandle> {
    const handle = await serveStdio(this, options);
    return this.#track(handle);
  }

  /** Serves Streamable HTTP (127.0.0.1 by default; a bearer token is required for any other host). */
  async listen(options: HttpServeOptions = {}): Promise<HttpServeHandle> {
    const handle = await listenHttp(this, options);
    return this.#track(handle);
  }

  /** Loads, verifies and swaps in the successor registry now (also what the file watcher does). */
  reload(): Promise<SwapResult> {
    const load = this.#reload;
    if (load === undefined) throw invalid("reload", "no reload function was given to createMcpServer.");
    const run = async (): Promise<SwapResult> => {
      let router: SchemaRouter;
      try {
        router = await load();
      } catch (error) {
        this.#state.log(
          "warning",
          `the lock changed but does not verify (${describe(error)}); still serving the previous registry.`,
        );
        return { status: "refused", error };
      }
      const result = await this.#state.swap(router, true);
      if (result.status === "refused") {
        this.#state.log(
          "warning",
          `the new lock cannot be served (${describe(result.error)}); still serving the previous registry.`,
        );
      } else if (result.status === "swapped") {
        this.#state.log(
          "notice",
          `lock changed: now serving ${result.tools} tools (notifications/tools/list_changed sent).`,
        );
      }
      // Not re-checked against the lockfile's stamp here: after a refused successor the lockfile still
      // differs from the router in use, and that would reload again and again. Changes made while
      // this reload ran were seen by the watchers still open.
      this.#watcher?.watch(lockFilesOf(this.#state.catalog.router));
      return result;
    };
    this.#reloading = this.#reloading.then(run, run);
    return this.#reloading;
  }

  /** Stops watching, closes every transport it serves, and the routers it loaded itself. */
  async close(): Promise<void> {
    this.#watcher?.close();
    await this.#reloading.catch(() => undefined);
    await Promise.all([...this.#handles].map((handle) => handle.close()));
    await Promise.all([...this.#state.sessions].map((session) => session.server.close()));
    await this.#state.close();
  }

  /** @internal the HTTP and stdio transports log through the same channel. */
  log(level: "notice" | "warning", message: string): void {
    this.#state.log(level, message);
  }

  #track<T extends { close(): Promise<void>; readonly closed: Promise<void> }>(handle: T): T {
    this.#handles.add(handle);
    void handle.closed.then(() => this.#handles.delete(handle));
    return handle;
  }
}

/** Builds the MCP server over `router`'s current registry (see the module comment). */
export async function createMcpServer(
  router: SchemaRouter,
  options: McpServerOptions = {},
): Promise<SchemaRouterMcpServer> {
  const sdk = await loadSdk();
  const limit = bounded(
    "maxConcurrentCalls",
    options.maxConcurrentCalls ?? SERVE_DEFAULTS.maxConcurrentCalls,
    1,
  );
  const queued = bounded("maxQueuedCalls", options.maxQueuedCalls ?? SERVE_DEFAULTS.maxQueuedCalls, 0);
  if (options.callBudget !== undefined && !(options.callBudget instanceof ExecutionBudget))
    throw invalid("callBudget", "must be an ExecutionBudget (new ExecutionBudget({ … })).");
  if (options.reload !== undefined && typeof options.reload !== "function")
    throw invalid("reload", "must be a function that loads the successor router.");
  const catalog = Catalog.build(router, options);
  const state = new ServeState(
    catalog,
    {
      catalog: options,
      sessionBudget: checkSessionBudget(options.sessionBudget),
      callBudget: options.callBudget,
      traceStore: options.traceStore,
      includePayloads: options.includePayloads === true,
      serverInfo: options.serverInfo ?? { name: "schemarouter", version: "0.1.0" },
      log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    },
    new Limiter(limit, queued),
  );
  if (options.ownsRouter === true) state.own(router);
  return new SchemaRouterMcpServer(state, sdk, options);
}

function bounded(option: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > 100_000)
    throw invalid(option, `must be an integer from ${min} to 100000.`);
  return value;
}

function describe(error: unknown): string {
  return isSchemaRouterError(error) ? `[${error.code}] ${error.message}` : String(error);
}
