/**
 * The governed-execution state of one router: availability memory, trusted health probes and their
 * optional monitor, hooks, and the runner every call goes through. The router owns one instance and
 * delegates `call`, `invoke`, `invokeBatch`, `stream` and the health methods to it.
 */

import type { Executor } from "../boundary/executor.js";
import type { Registry } from "../load/registry.js";
import type { Effect, ToolResult } from "../model/specs.js";
import type { RunEvent } from "../traces/events.js";
import { AvailabilityMemory, type AvailabilityOptions, type AvailabilityStatus } from "./availability.js";
import type { RunConfig } from "./config.js";
import type { GovernedCall } from "./fallback.js";
import {
  AccessHealthMonitor,
  type AccessHealthMonitorOptions,
  type HealthCheckResult,
  type HealthProbe,
  type HealthProbeOptions,
  HealthProbes,
} from "./health.js";
import { type ExecutionHooks, resolveHooks } from "./hooks.js";
import { GovernedRunner, type RunInput } from "./runner.js";
import { type AvailabilityStore, pendingOf } from "./state/availability-store.js";
import { pathStatus, writePathKey } from "./write-path.js";

const PARALLEL = Object.freeze({ mode: "parallelReadOnly" } as const);

export interface GovernorOptions {
  readonly hooks?: ExecutionHooks;
  readonly availability?: AvailabilityOptions;
  /** A shared availability store (docs/state/postgres.md); default: this process's memory. */
  readonly availabilityStore?: AvailabilityStore;
}

export class RunGovernor {
  readonly availability: AvailabilityStore;
  readonly probes: HealthProbes;
  readonly #runner: GovernedRunner;
  #monitor: AccessHealthMonitor | undefined;

  constructor(executor: Executor, registry: () => Registry, options: GovernorOptions = {}) {
    this.availability = options.availabilityStore ?? new AvailabilityMemory(options.availability ?? {});
    this.probes = new HealthProbes(registry, this.availability);
    const env = Object.freeze({
      executor,
      availability: this.availability,
      hooks: resolveHooks(options.hooks),
    });
    this.#runner = new GovernedRunner(() => env);
  }

  run(input: RunInput, config: RunConfig | undefined, parallel = false): Promise<ToolResult[]> {
    return this.#runner.run(input, config, parallel ? PARALLEL : undefined);
  }

  /** One call as a run of its own, resolving with its result. */
  call(call: GovernedCall, config: RunConfig | undefined): Promise<ToolResult> {
    return this.#runner.call(call, config);
  }

  stream(input: RunInput, config: RunConfig | undefined): AsyncGenerator<RunEvent> {
    return this.#runner.stream(input, config);
  }

  availabilityOf(tool: string): AvailabilityStatus {
    return this.availability.status(tool);
  }

  /** What a call of `effect` to `tool` sees: non-read calls also need the write path open. */
  pathAvailabilityOf(tool: string, effect: Effect): AvailabilityStatus {
    return pathStatus(this.availability, tool, effect);
  }

  registerHealthProbe(tool: string, probe: HealthProbe, options?: HealthProbeOptions): void {
    this.probes.register(tool, probe, options);
  }

  checkHealth(tools?: readonly string[]): Promise<HealthCheckResult[]> {
    return this.probes.run(tools);
  }

  /** Starts the background monitor (replacing a running one after stopping it). */
  async startHealthMonitor(options: AccessHealthMonitorOptions): Promise<AccessHealthMonitor> {
    const monitor = new AccessHealthMonitor(this.probes, options);
    await this.stopHealthMonitor();
    this.#monitor = monitor.start();
    return monitor;
  }

  async stopHealthMonitor(): Promise<void> {
    const monitor = this.#monitor;
    this.#monitor = undefined;
    await monitor?.stop();
  }

  /** A tool contract was replaced: its availability state and health probe no longer apply. */
  forget(tool: string): void {
    // A shared store forgets in the background (replaceTool is synchronous); a failure only leaves
    // the shared cooldown to expire on its own.
    pendingOf(this.availability.clear(tool))?.catch(() => undefined);
    pendingOf(this.availability.clear(writePathKey(tool)))?.catch(() => undefined);
    this.probes.unregister(tool);
  }

  async close(): Promise<void> {
    await this.stopHealthMonitor();
  }
}
