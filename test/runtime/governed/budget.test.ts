/**
 * ExecutionBudget (docs/trust-model.md §19): logical calls, total attempts, remote attempts, wall-clock
 * time, per-tool quotas and cost units, checked before each logical call and consumed before every
 * attempt (retries included). Each refusal is BUDGET_EXCEEDED naming the limit; the fault server's
 * request log proves that a refused attempt was never sent.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy, PolicyRule } from "../../../runtime/boundary/policy.js";
import { BudgetLedger, type CostSubject, ExecutionBudget } from "../../../runtime/governed/budget.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import {
  type Fault,
  type faultRouter,
  OK_READING as OK,
  pin,
  startFaultRouter,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const BUSY: Fault = { reply: "status", status: 503 };
const FAST = new RetryPolicy({ maxAttempts: 5, initialDelayMs: 1, maxDelayMs: 5 });

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const { server, router } = await startFaultRouter(cleanups, {
    availability: { cooldownMs: 0 },
    ...options,
  });
  const seoul = pin(router, "weather", "current", { city: "seoul" });
  const busan = pin(router, "weather", "current", { city: "busan" });
  return { server, router, seoul, busan };
}

describe("budget limits", () => {
  it("counts logical calls (maxCalls), before the call runs", async () => {
    const { server, router, seoul, busan } = await setup();
    server.program("/weather/seoul", [], OK);
    server.program("/weather/busan", [], OK);
    const error = await failure(
      router.invoke([seoul, busan], { budget: new ExecutionBudget({ maxCalls: 1 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "calls", max: 1, used: 1 } });
    expect(server.hits("/weather/busan")).toBe(0);
  });

  it("counts every attempt, retries included, and consumes before the attempt runs (maxAttempts)", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], BUSY);
    const error = await failure(
      router.call(seoul, { retry: FAST, budget: new ExecutionBudget({ maxAttempts: 2 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "attempts", max: 2, used: 2 } });
    expect(server.hits("/weather/seoul")).toBe(2);
  });

  it("shares one budget across the calls of a run", async () => {
    const { server, router, seoul, busan } = await setup();
    server.program("/weather/seoul", [BUSY], OK);
    server.program("/weather/busan", [], OK);
    const error = await failure(
      router.invoke([seoul, busan], { retry: FAST, budget: new ExecutionBudget({ maxAttempts: 2 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "attempts" } });
    expect(server.hits("/weather/seoul")).toBe(2);
    expect(server.hits("/weather/busan")).toBe(0);
  });

  it("counts remote attempts separately (maxRemoteAttempts)", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], BUSY);
    const error = await failure(
      router.call(seoul, {
        retry: FAST,
        budget: new ExecutionBudget({ maxAttempts: 10, maxRemoteAttempts: 3 }),
      }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "remoteAttempts", max: 3 } });
    expect(server.hits("/weather/seoul")).toBe(3);
  });

  it("enforces per-tool attempt quotas (toolQuotas)", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    server.program("/mirror/seoul", [], OK);
    const budget = new ExecutionBudget({ toolQuotas: { weather: 1 } });
    const mirror = pin(router, "mirror", "current", { city: "seoul" });
    await expect(router.invoke([seoul, mirror, mirror], { budget })).resolves.toHaveLength(3);
    const error = await failure(router.invoke([seoul, mirror, seoul], { budget }));
    expect(error).toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: { limit: "toolQuota", tool: "weather" },
    });
    expect(server.hits("/weather/seoul")).toBe(2);
  });

  it("prices attempts with a local cost function and stops at maxCost", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], BUSY);
    const seen: CostSubject[] = [];
    const budget = new ExecutionBudget({
      maxCost: 5,
      cost: (subject) => {
        seen.push(subject);
        return 2;
      },
    });
    const error = await failure(router.call(seoul, { retry: FAST, budget }));
    expect(error).toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: { limit: "cost", max: 5, used: 4, price: 2 },
    });
    expect(server.hits("/weather/seoul")).toBe(2);
    expect(seen.map((subject) => subject.attempt)).toEqual([1, 2, 3]);
    expect(seen[0]).toMatchObject({ tool: "weather", endpoint: "current", effect: "read", remote: true });
  });

  it.each([
    ["returns a negative price", () => -1, "cost-function-result"],
    ["returns NaN", () => Number.NaN, "cost-function-result"],
    [
      "throws",
      () => {
        throw new Error("pricing down");
      },
      "cost-function-threw",
    ],
  ])("fails closed when the cost function %s (RUN_CONFIG_INVALID)", async (_name, cost, reason) => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ cost }) }));
    expect(error).toMatchObject({ code: "RUN_CONFIG_INVALID", details: { reason } });
    expect(server.requests).toEqual([]);
  });
});

describe("wall-clock budget", () => {
  it("bounds a slow invocation (the request is aborted)", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "hang" }], OK);
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 150 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock", max: 150 } });
    await expect.poll(() => server.inFlight.current, { timeout: 5_000 }).toBe(0);
  }, 20_000);

  it("bounds a call whose invoker ignores the abort signal", async () => {
    const { router, seoul } = await setup();
    router.bind("weather", { invoke: () => new Promise(() => {}) });
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 100 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
  }, 20_000);

  it("refuses a retry whose backoff would outlast the remaining budget", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], BUSY);
    const retry = new RetryPolicy({ maxAttempts: 3, initialDelayMs: 60_000, maxDelayMs: 60_000 });
    const error = await failure(
      router.call(seoul, { retry, budget: new ExecutionBudget({ maxWallClockMs: 10_000 }) }),
    );
    expect(error).toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: { limit: "wallClock", retryDelayMs: 60_000 },
    });
    expect(server.hits("/weather/seoul")).toBe(1);
  });

  it("bounds a pending asynchronous approval callback", async () => {
    const policy = new ExecutionPolicy({
      rules: [new PolicyRule({ action: "require-approval", operation: "weather.*" })],
    });
    const { server, router, seoul } = await setup({ policy, approve: () => new Promise<boolean>(() => {}) });
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 100 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
    expect(server.requests).toEqual([]);
  }, 20_000);

  it("checks a synchronous approval callback right after it returns", async () => {
    const policy = new ExecutionPolicy({ approval: "all" });
    const busyWait = () => {
      const until = performance.now() + 120;
      while (performance.now() < until) {
        // a synchronous callback that overruns the budget
      }
      return true;
    };
    const { server, router, seoul } = await setup({ policy, approve: busyWait });
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 50 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
    expect(server.requests).toEqual([]);
  });
});

describe("ExecutionBudget options", () => {
  it.each([
    [{ maxCalls: -1 }],
    [{ maxAttempts: 1.5 }],
    [{ maxWallClockMs: 0 }],
    [{ maxCost: 3 }],
    [{ maxCost: -1, cost: () => 1 }],
    [{ cost: 5 }],
    [{ toolQuotas: { weather: -2 } }],
    [{ maxAttempt: 3 }],
  ])("refuses %j (RUN_CONFIG_INVALID)", (options) => {
    expect(() => new ExecutionBudget(options as never)).toThrow(
      expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
    );
  });

  it("refuses a budget that is not an ExecutionBudget instance (RUN_CONFIG_INVALID)", async () => {
    const { router, seoul } = await setup();
    expect((await failure(router.call(seoul, { budget: { maxCalls: 1 } as never }))).code).toBe(
      "RUN_CONFIG_INVALID",
    );
  });

  it("is immutable and reusable: every run gets its own ledger", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    const budget = new ExecutionBudget({ maxCalls: 1 });
    expect(Object.isFrozen(budget)).toBe(true);
    await router.call(seoul, { budget });
    await expect(router.call(seoul, { budget })).resolves.toMatchObject({ attempts: 1 });
  });
});

describe("the ledger's per-tool counts", () => {
  it("keep each tool's quota apart across several tools, and report them in first-attempt order", () => {
    const ledger = new BudgetLedger(new ExecutionBudget({ toolQuotas: { a: 1, b: 2 } }), () => 0);
    const subject = (tool: string) => ({
      tool,
      endpoint: "e",
      effect: "read" as const,
      remote: true,
      attempt: 1,
    });
    ledger.startAttempt(subject("b"), "b.e");
    ledger.startAttempt(subject("a"), "a.e");
    ledger.startAttempt(subject("c"), "c.e");
    ledger.startAttempt(subject("b"), "b.e");
    expect(() => ledger.startAttempt(subject("a"), "a.e")).toThrow(
      expect.objectContaining({ code: "BUDGET_EXCEEDED", details: expect.objectContaining({ tool: "a" }) }),
    );
    expect(() => ledger.startAttempt(subject("b"), "b.e")).toThrow(
      expect.objectContaining({ code: "BUDGET_EXCEEDED", details: expect.objectContaining({ tool: "b" }) }),
    );
    ledger.refundAttempt(subject("b"), 0);
    ledger.startAttempt(subject("b"), "b.e");
    const usage = ledger.usage();
    expect(Object.entries(usage.toolAttempts)).toEqual([
      ["b", 2],
      ["a", 1],
      ["c", 1],
    ]);
    expect(usage.attempts).toBe(4);
  });
});
