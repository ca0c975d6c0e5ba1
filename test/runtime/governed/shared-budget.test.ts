/**
 * SharedBudget over the in-memory store (docs/state/postgres.md, "Budgets"): one budget spent by
 * many runs, reserved before each attempt after the run's own ExecutionBudget, released when the
 * attempt was never sent, refused with STATE_UNAVAILABLE when its store fails, validated strictly.
 */
import { describe, expect, it } from "vitest";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import type {
  BudgetRequest,
  ReserveResult,
  SharedBudgetLimits,
  SharedBudgetStore,
  SharedBudgetUsage,
} from "../../../runtime/governed/state/budget-store.js";
import { MemoryBudgetStore } from "../../../runtime/governed/state/memory-budget.js";
import { SharedBudget } from "../../../runtime/governed/state/shared-budget.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import type { TraceStore } from "../../../runtime/traces/store.js";
import { OK_READING as OK, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function setup() {
  const { server, router } = await startFaultRouter(cleanups, { availability: { cooldownMs: 0 } });
  server.program("/weather/seoul", [], OK);
  return { server, router, seoul: pin(router, "weather", "current", { city: "seoul" }) };
}

/** A store that delegates to memory, failing or stalling reservations on demand. */
class ControlledStore implements SharedBudgetStore {
  readonly inner = new MemoryBudgetStore();
  fail: Error | undefined;
  stall: Promise<void> | undefined;
  async reserve(key: string, limits: SharedBudgetLimits, request: BudgetRequest): Promise<ReserveResult> {
    if (this.fail !== undefined) throw this.fail;
    const result = await this.inner.reserve(key, limits, request);
    if (this.stall !== undefined) await this.stall;
    return result;
  }
  settle(key: string, request: BudgetRequest): Promise<void> {
    return this.inner.settle(key, request);
  }
  release(key: string, request: BudgetRequest): Promise<void> {
    return this.inner.release(key, request);
  }
  usage(key: string): Promise<SharedBudgetUsage | undefined> {
    return this.inner.usage(key);
  }
}

describe("SharedBudget", () => {
  it("is spent by every run that names it, and refuses before sending once it is exhausted", async () => {
    const { server, router, seoul } = await setup();
    const sharedBudget = new SharedBudget({ key: "day", store: new MemoryBudgetStore(), maxCalls: 3 });
    for (let run = 0; run < 3; run++) await router.call(seoul, { sharedBudget });
    const error = await failure(router.call(seoul, { sharedBudget }));
    expect(error).toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: { limit: "calls", max: 3, used: 3, budget: "day", route: "weather.current" },
    });
    expect(error.message).toContain('the shared budget "day" is exhausted');
    expect(server.hits("/weather/seoul")).toBe(3);
    expect(await sharedBudget.usage()).toMatchObject({
      calls: 3,
      attempts: 3,
      remoteAttempts: 3,
      inFlight: 0,
    });
  });

  it("is reserved after the run's own budget: a run refusal leaves the shared budget untouched", async () => {
    const { router, seoul } = await setup();
    const sharedBudget = new SharedBudget({ key: "k", store: new MemoryBudgetStore(), maxCalls: 10 });
    const error = await failure(
      router.invoke([seoul, seoul], { sharedBudget, budget: new ExecutionBudget({ maxAttempts: 1 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "attempts" } });
    expect(error.details).not.toHaveProperty("budget");
    expect(await sharedBudget.usage()).toMatchObject({ calls: 1, attempts: 1 });
  });

  it("gives back an attempt that was reserved but never sent (its tool.start could not be stored)", async () => {
    const { server, router, seoul } = await setup();
    const sharedBudget = new SharedBudget({ key: "k", store: new MemoryBudgetStore(), maxCalls: 10 });
    const failing: TraceStore = {
      append: async (event: RunEvent) => {
        if (event.type === "tool.start") throw new Error("disk full");
      },
      readRun: async () => [],
      listRuns: async () => [],
      close: async () => undefined,
    };
    expect((await failure(router.call(seoul, { sharedBudget, traceStore: failing }))).message).toBe(
      "disk full",
    );
    expect(server.hits("/weather/seoul")).toBe(0);
    expect(await sharedBudget.usage()).toMatchObject({
      calls: 0,
      attempts: 0,
      remoteAttempts: 0,
      inFlight: 0,
    });
  });

  it("refuses with STATE_UNAVAILABLE when its store fails: nothing is sent", async () => {
    const { server, router, seoul } = await setup();
    const store = new ControlledStore();
    store.fail = new Error("connection refused");
    const sharedBudget = new SharedBudget({ key: "k", store, maxCalls: 10 });
    const error = await failure(router.call(seoul, { sharedBudget }));
    expect(error).toMatchObject({
      code: "STATE_UNAVAILABLE",
      details: { budget: "k", route: "weather.current" },
    });
    expect(error.message).toContain("nothing was sent");
    expect(server.hits("/weather/seoul")).toBe(0);
  });

  it("stops waiting for a stalled store at the run's deadline, and releases the late reservation", async () => {
    const { server, router, seoul } = await setup();
    const store = new ControlledStore();
    let unstall: () => void = () => undefined;
    store.stall = new Promise((resolve) => (unstall = resolve));
    const sharedBudget = new SharedBudget({ key: "k", store, maxCalls: 10 });
    const error = await failure(
      router.call(seoul, { sharedBudget, budget: new ExecutionBudget({ maxWallClockMs: 50 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
    unstall();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.hits("/weather/seoul")).toBe(0);
    expect(await sharedBudget.usage()).toMatchObject({ calls: 0, attempts: 0, inFlight: 0 });
  });

  it("limits attempts per rate window", async () => {
    let now = 10_000;
    const store = new MemoryBudgetStore(() => now);
    const budget = new SharedBudget({ key: "r", store, rate: { maxAttempts: 2, windowMs: 1_000 } });
    const subject = { tool: "t", endpoint: "e", effect: "read" as const, remote: false, attempt: 1 };
    await budget.reserve(subject, true, "t.e");
    await budget.reserve(subject, true, "t.e");
    expect((await failure(budget.reserve(subject, true, "t.e"))).details).toMatchObject({
      limit: "rate",
      max: 2,
    });
    now += 1_000;
    await budget.reserve(subject, true, "t.e");
    expect(await budget.usage()).toMatchObject({ calls: 3, windowAttempts: 1 });
  });

  const invalid: [string, Record<string, unknown>][] = [
    ["an unknown option", { maxCall: 1 }],
    ["an empty key", { key: "" }],
    ["no store", { store: undefined }],
    ["maxCost without a cost function", { maxCost: 1 }],
    ["a negative quota", { toolQuotas: { a: -1 } }],
    ["a rate without a window", { rate: { maxAttempts: 1 } }],
    ["a rate with an unknown key", { rate: { maxAttempts: 1, windowMs: 10, burst: 2 } }],
  ];
  it.each(invalid)("refuses %s with RUN_CONFIG_INVALID", (_name, options) => {
    const build = () =>
      new SharedBudget({ key: "k", store: new MemoryBudgetStore(), ...options } as ConstructorParameters<
        typeof SharedBudget
      >[0]);
    expect(build).toThrow(expect.objectContaining({ code: "RUN_CONFIG_INVALID" }));
  });

  it("is refused in RunConfig when it is not a SharedBudget", async () => {
    const { router, seoul } = await setup();
    const error = await failure(
      router.call(seoul, { sharedBudget: { key: "k" } as unknown as SharedBudget }),
    );
    expect(error).toMatchObject({ code: "RUN_CONFIG_INVALID", details: { option: "sharedBudget" } });
  });
});
