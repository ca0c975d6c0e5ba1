/**
 * The served state (docs/serve.md, "Lock changes"): the current catalog, the open sessions and the
 * concurrency bound. A swap replaces the whole catalog in one assignment — a call holds the catalog
 * it started with — then tells every session its tool list changed; the replaced catalog's router is
 * closed once its last call has finished (when the server owns it).
 */
import type { ExecutionBudget } from "../governed/budget.js";
import type { SchemaRouter } from "../router/router.js";
import type { TraceStore } from "../traces/store.js";
import { Catalog, type CatalogOptions } from "./catalog.js";
import type { Limiter } from "./limiter.js";
import type { ServeSession } from "./session.js";
import type { SessionBudgetOptions } from "./session-budget.js";

export interface ResolvedServeOptions {
  readonly catalog: CatalogOptions;
  readonly sessionBudget: SessionBudgetOptions;
  readonly callBudget: ExecutionBudget | undefined;
  readonly traceStore: TraceStore | undefined;
  readonly includePayloads: boolean;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly log: (line: string) => void;
}

export type SwapResult =
  | { readonly status: "swapped"; readonly tools: number }
  | { readonly status: "unchanged" }
  | { readonly status: "refused"; readonly error: unknown };

export class ServeState {
  #catalog: Catalog;
  readonly sessions = new Set<ServeSession>();
  /** Routers the server loaded itself (closed when replaced, or on close). */
  readonly #owned = new WeakSet<SchemaRouter>();
  readonly #retiring = new Set<Promise<void>>();

  constructor(
    initial: Catalog,
    readonly options: ResolvedServeOptions,
    readonly limiter: Limiter,
  ) {
    this.#catalog = initial;
  }

  /** Makes the server responsible for closing `router`. */
  own(router: SchemaRouter): void {
    this.#owned.add(router);
  }

  get catalog(): Catalog {
    return this.#catalog;
  }

  /** The current catalog, held until `release` (its router stays open until then). */
  enter(): { readonly catalog: Catalog; readonly release: () => void } {
    const catalog = this.#catalog;
    return { catalog, release: catalog.enter() };
  }

  /**
   * Builds a catalog from `router` and, when it serves something else than the current one, makes it
   * current and notifies every session. A router whose catalog cannot be built is closed (when owned)
   * and the current catalog stays.
   */
  async swap(router: SchemaRouter, owned: boolean): Promise<SwapResult> {
    if (owned) this.#owned.add(router);
    let next: Catalog;
    try {
      next = Catalog.build(router, this.options.catalog);
    } catch (error) {
      if (owned) await router.close().catch(() => undefined);
      return { status: "refused", error };
    }
    const previous = this.#catalog;
    if (next.digest === previous.digest) {
      if (owned) await router.close();
      return { status: "unchanged" };
    }
    this.#catalog = next;
    for (const session of this.sessions) session.notifyListChanged();
    this.#retire(previous);
    return { status: "swapped", tools: next.tools.size };
  }

  /** Sends a log line to stderr (or the configured logger) and to sessions that asked for logs. */
  log(level: "notice" | "warning", message: string): void {
    this.options.log(`schemarouter serve: ${message}`);
    for (const session of this.sessions) {
      if (session.logLevel !== undefined) session.log(level, { message });
    }
  }

  /** Closes the current router when owned, after every replaced one has drained. */
  async close(): Promise<void> {
    await Promise.all([...this.#retiring]);
    const current = this.#catalog;
    await current.drained();
    if (this.#owned.has(current.router)) await current.router.close();
  }

  #retire(catalog: Catalog): void {
    if (!this.#owned.has(catalog.router)) return;
    const done = catalog
      .drained()
      .then(() => catalog.router.close())
      .catch((error: unknown) =>
        this.options.log(`schemarouter serve: closing a replaced router failed: ${String(error)}`),
      )
      .finally(() => this.#retiring.delete(done));
    this.#retiring.add(done);
  }
}
