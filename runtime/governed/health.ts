/**
 * Trusted health probes and the optional background AccessHealthMonitor (docs/trust-model.md §30). Probes
 * are callbacks registered by local code only, for tools with read-only endpoints; a model or a
 * remote schema can neither define one nor set health state. A probe that answers exactly `true`
 * reopens the path at once; false, a throw or a timeout puts it in cooldown (in a shared availability
 * store, for every process: docs/state/postgres.md). The monitor runs the
 * registered probes on an interval with unref'd timers, never overlaps runs, and `stop()` waits for
 * the probes in flight.
 */
import { SchemaRouterError } from "../errors/errors.js";
import type { Registry } from "../load/registry.js";
import { assertOptionKeys, configInvalid, integerOption } from "./refusals.js";
import { type AvailabilityStore, pendingOf } from "./state/availability-store.js";

export interface HealthProbeContext {
  readonly tool: string;
  /** Aborted when the probe times out or the monitor stops. */
  readonly signal: AbortSignal;
}

/** A trusted read-only check of one access path: resolve `true` when it is healthy. */
export type HealthProbe = (context: HealthProbeContext) => boolean | Promise<boolean>;

export interface HealthProbeOptions {
  /** Bound of one probe run (default 5 000 ms). */
  readonly timeoutMs?: number;
}

export interface HealthCheckResult {
  readonly tool: string;
  readonly healthy: boolean;
  /** Why it is not: `returned-false`, `threw`, `timeout`, `stopped`. */
  readonly reason?: string;
}

interface Registered {
  readonly probe: HealthProbe;
  readonly timeoutMs: number;
}

const MAX_TIMEOUT_MS = 600_000;

/** The probes of one router, keyed by tool name. */
export class HealthProbes {
  readonly #probes = new Map<string, Registered>();

  constructor(
    private readonly registry: () => Registry,
    private readonly availability: AvailabilityStore,
  ) {}

  register(tool: string, probe: HealthProbe, options: HealthProbeOptions = {}): void {
    assertOptionKeys("registerHealthProbe", options, ["timeoutMs"]);
    if (typeof probe !== "function") throw configInvalid("registerHealthProbe: probe must be a function.");
    const registered = this.registry().get(tool);
    if (registered === undefined) {
      throw new SchemaRouterError(
        "HEALTH_PROBE_REFUSED",
        `Cannot register a health probe for unknown tool "${tool}".`,
        {
          tool,
          reason: "unknown-tool",
        },
      );
    }
    if (!registered.tool.endpoints.some((endpoint) => endpoint.effect === "read")) {
      throw new SchemaRouterError(
        "HEALTH_PROBE_REFUSED",
        `Tool "${tool}" has no read-only endpoint, so it cannot have a health probe; probes reopen read-only access paths only.`,
        { tool, reason: "not-read-only" },
      );
    }
    const timeoutMs =
      integerOption("registerHealthProbe", "timeoutMs", options.timeoutMs, 1, MAX_TIMEOUT_MS) ?? 5_000;
    this.#probes.set(tool, { probe, timeoutMs });
  }

  unregister(tool: string): void {
    this.#probes.delete(tool);
  }

  tools(): string[] {
    return [...this.#probes.keys()];
  }

  /** Runs the probes of `tools` (default: all) concurrently and applies their verdicts. */
  async run(tools: readonly string[] = this.tools(), signal?: AbortSignal): Promise<HealthCheckResult[]> {
    for (const tool of tools) {
      if (!this.#probes.has(tool)) {
        throw new SchemaRouterError("HEALTH_PROBE_REFUSED", `No health probe is registered for "${tool}".`, {
          tool,
          reason: "no-probe",
        });
      }
    }
    return Promise.all(tools.map((tool) => this.#runOne(tool, this.#probes.get(tool)!, signal)));
  }

  async #runOne(tool: string, entry: Registered, outer: AbortSignal | undefined): Promise<HealthCheckResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    let reason: string | undefined;
    try {
      const verdict = await new Promise<unknown>((resolve, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new ProbeTimeout());
        }, entry.timeoutMs);
        controller.signal.addEventListener("abort", () => reject(new ProbeTimeout()), { once: true });
        Promise.resolve()
          .then(() => entry.probe(Object.freeze({ tool, signal: controller.signal })))
          .then(resolve, reject);
      });
      if (verdict !== true) reason = "returned-false";
    } catch (error) {
      reason = error instanceof ProbeTimeout ? (outer?.aborted ? "stopped" : "timeout") : "threw";
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
    // A stopped monitor says nothing about the path; neither does a probe for a replaced contract.
    if (reason === "stopped" || this.#probes.get(tool) !== entry) {
      return Object.freeze({ tool, healthy: false, reason: reason ?? "stopped" });
    }
    // A shared store (docs/state/postgres.md) publishes the verdict to every process before it resolves.
    const verdict: HealthCheckResult = Object.freeze(
      reason === undefined ? { tool, healthy: true } : { tool, healthy: false, reason },
    );
    const applied = pendingOf(
      reason === undefined
        ? this.availability.markAvailable(tool)
        : this.availability.markUnavailable(tool, "probe-failed"),
    );
    if (applied !== undefined) await applied;
    const recorded = this.availability.recordProbe?.(verdict);
    if (recorded !== undefined) await recorded;
    return verdict;
  }
}

class ProbeTimeout extends Error {}

export interface AccessHealthMonitorOptions {
  /** Time between the end of one probe round and the start of the next (10 ms … 1 day). */
  readonly intervalMs: number;
  /** Trusted observer of each round's results. Its failures are ignored. */
  readonly onResults?: (results: readonly HealthCheckResult[]) => void;
}

/** Runs every registered probe on an interval until stopped. */
export class AccessHealthMonitor {
  readonly intervalMs: number;
  readonly #onResults: ((results: readonly HealthCheckResult[]) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #controller: AbortController | undefined;
  #rounds = 0;

  constructor(
    private readonly probes: HealthProbes,
    options: AccessHealthMonitorOptions,
  ) {
    assertOptionKeys("AccessHealthMonitor", options, ["intervalMs", "onResults"]);
    if (options.intervalMs === undefined) throw configInvalid("AccessHealthMonitor: intervalMs is required.");
    this.intervalMs = integerOption("AccessHealthMonitor", "intervalMs", options.intervalMs, 10, 86_400_000)!;
    if (options.onResults !== undefined && typeof options.onResults !== "function") {
      throw configInvalid("AccessHealthMonitor: onResults must be a function.");
    }
    this.#onResults = options.onResults;
  }

  get running(): boolean {
    return this.#controller !== undefined;
  }

  /** Completed probe rounds since the monitor was created. */
  get rounds(): number {
    return this.#rounds;
  }

  start(): this {
    if (this.#controller !== undefined) return this;
    this.#controller = new AbortController();
    this.#schedule(this.#controller);
    return this;
  }

  /** Stops the interval, aborts probes in flight and waits for them to settle. */
  async stop(): Promise<void> {
    const controller = this.#controller;
    this.#controller = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    controller?.abort();
    await this.#round;
  }

  #schedule(controller: AbortController): void {
    this.#timer = setTimeout(() => {
      this.#round = this.#tick(controller);
    }, this.intervalMs);
    this.#timer.unref?.();
  }

  async #tick(controller: AbortController): Promise<void> {
    const results = await this.probes.run(this.probes.tools(), controller.signal).catch(() => []);
    if (controller.signal.aborted) return;
    this.#rounds++;
    try {
      this.#onResults?.(results);
    } catch {
      // A failing observer must not stop health monitoring.
    }
    if (this.#controller === controller) this.#schedule(controller);
  }
}
