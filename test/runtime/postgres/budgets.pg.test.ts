/**
 * Shared budgets on PostgreSQL (docs/state/postgres.md, "Budgets"): the same refusals as the
 * in-memory store for every limit, atomic under concurrency across connection pools, release and
 * settle, limits pinned to the key, and fail-closed refusals (STATE_UNAVAILABLE, nothing sent, no
 * hang) when the database stops answering.
 */
import { expect, it } from "vitest";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import type { SharedBudgetStore } from "../../../runtime/governed/state/budget-store.js";
import { MemoryBudgetStore } from "../../../runtime/governed/state/memory-budget.js";
import { SharedBudget, type SharedBudgetOptions } from "../../../runtime/governed/state/shared-budget.js";
import { connectPostgres } from "../../../runtime/postgres/index.js";
import { OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres, freshSchema, freshState, postgresUrl } from "../../helpers/postgres.js";
import { failure } from "../../helpers/refusal.js";
import { startProxy } from "../../helpers/tcp-proxy.js";

const cleanups = cleanupAfterEach();

type Limits = Omit<SharedBudgetOptions, "key" | "store">;
const subject = (tool: string, remote: boolean) => ({
  tool,
  endpoint: "e",
  effect: "read" as const,
  remote,
  attempt: 1,
});
const A = subject("a", true);
const B = subject("b", false);
type Step = readonly [typeof A, boolean];

/** Reserves each step in order; returns what each did (reserved, or the refusal's limit and numbers). */
async function play(store: SharedBudgetStore, limits: Limits, steps: readonly Step[]): Promise<unknown[]> {
  const budget = new SharedBudget({ key: "k", store, ...limits });
  const outcomes: unknown[] = [];
  for (const [who, first] of steps) {
    try {
      await budget.reserve(who, first, "t.e");
      outcomes.push("reserved");
    } catch (error) {
      const { code, details, message } = error as { code: string; details: object; message: string };
      outcomes.push({ code, details, message });
    }
  }
  outcomes.push(await budget.usage());
  return outcomes;
}

describePostgres("PostgresBudgetStore", () => {
  const cases: [string, Limits, Step[]][] = [
    [
      "calls",
      { maxCalls: 2 },
      [
        [A, true],
        [A, false],
        [B, true],
        [A, true],
        [B, false],
      ],
    ],
    [
      "attempts",
      { maxAttempts: 3 },
      [
        [A, true],
        [A, false],
        [B, true],
        [B, false],
      ],
    ],
    [
      "remote attempts",
      { maxRemoteAttempts: 1 },
      [
        [A, true],
        [B, true],
        [A, true],
        [B, true],
      ],
    ],
    [
      "tool quotas",
      { toolQuotas: { a: 1, b: 2 } },
      [
        [A, true],
        [A, true],
        [B, true],
        [B, true],
        [B, true],
      ],
    ],
    [
      "cost",
      { maxCost: 1, cost: ({ tool }) => (tool === "a" ? 0.4 : 0.25) },
      [
        [A, true],
        [B, true],
        [A, true],
        [B, true],
      ],
    ],
    [
      "several limits at once",
      { maxCalls: 3, maxAttempts: 4, toolQuotas: { b: 1 } },
      [
        [A, true],
        [B, true],
        [B, true],
        [A, false],
        [A, true],
        [A, true],
      ],
    ],
  ];
  it.each(cases)("refuses %s exactly as the in-memory store does", async (_name, limits, steps) => {
    const state = await freshState(cleanups);
    const expected = await play(new MemoryBudgetStore(), limits, steps);
    expect(expected).toContainEqual(expect.objectContaining({ code: "BUDGET_EXCEEDED" }));
    expect(await play(state.budgets, limits, steps)).toEqual(expected);
  });

  it("reserves atomically under concurrency: 400 racers from 4 pools, 100 calls, exactly 100 reserved", async () => {
    const schema = freshSchema();
    const pools = [];
    for (let i = 0; i < 4; i++)
      pools.push(await connectPostgres({ url: postgresUrl(), schema, migrate: i === 0 }));
    for (const state of pools) cleanups.push(() => state.close());
    const budgets = pools.map(
      (state) => new SharedBudget({ key: "fleet", store: state.budgets, maxCalls: 100 }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 400 }, (_, i) => budgets[i % 4]!.reserve(A, true, "t.e")),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(100);
    const refused = results.filter((result) => result.status === "rejected");
    expect(new Set(refused.map((result) => (result.reason as { code: string }).code))).toEqual(
      new Set(["BUDGET_EXCEEDED"]),
    );
    expect(await budgets[0]!.usage()).toMatchObject({ calls: 100, attempts: 100, inFlight: 100 });
  });

  it("settles sent attempts and gives back released ones", async () => {
    const state = await freshState(cleanups);
    const budget = new SharedBudget({ key: "k", store: state.budgets, maxCalls: 1, toolQuotas: { a: 5 } });
    const sent = await budget.reserve(A, true, "t.e");
    await state.budgets.settle("k", sent.request);
    expect(await budget.usage()).toMatchObject({ calls: 1, attempts: 1, inFlight: 0 });
    expect((await failure(budget.reserve(A, true, "t.e"))).code).toBe("BUDGET_EXCEEDED");
    const retry = await budget.reserve(A, false, "t.e");
    await state.budgets.release("k", retry.request);
    expect(await budget.usage()).toMatchObject({
      calls: 1,
      attempts: 1,
      remoteAttempts: 1,
      toolAttempts: { a: 1 },
      inFlight: 0,
    });
  });

  it("pins the limits to the key: other limits are STATE_BUDGET_CONFLICT, in memory and in PostgreSQL", async () => {
    const state = await freshState(cleanups);
    for (const store of [new MemoryBudgetStore(), state.budgets] as SharedBudgetStore[]) {
      await new SharedBudget({ key: "k", store, maxCalls: 5 }).reserve(A, true, "t.e");
      const error = await failure(new SharedBudget({ key: "k", store, maxCalls: 6 }).reserve(A, true, "t.e"));
      expect(error).toMatchObject({ code: "STATE_BUDGET_CONFLICT", details: { budget: "k", route: "t.e" } });
      expect(error.message).toContain("use a new key");
    }
  });

  it("enforces a rate quota per window of the database clock", async () => {
    const state = await freshState(cleanups);
    const budget = new SharedBudget({
      key: "r",
      store: state.budgets,
      rate: { maxAttempts: 3, windowMs: 1_000 },
    });
    // Start right after a window boundary so the three reservations share one window.
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
    for (let i = 0; i < 3; i++) await budget.reserve(A, true, "t.e");
    expect((await failure(budget.reserve(A, true, "t.e"))).details).toMatchObject({
      limit: "rate",
      max: 3,
      used: 3,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await budget.reserve(A, true, "t.e");
    expect(await budget.usage()).toMatchObject({ calls: 4, windowAttempts: 1 });
  });

  it("counts a logical call once and every retry as an attempt, through the router", async () => {
    const state = await freshState(cleanups);
    const { server, router } = await startFaultRouter(cleanups, { availability: { cooldownMs: 0 } });
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK_READING);
    const sharedBudget = new SharedBudget({ key: "k", store: state.budgets, maxCalls: 10 });
    await router.call(pin(router, "weather", "current", { city: "seoul" }), {
      sharedBudget,
      retry: new RetryPolicy({ maxAttempts: 3, initialDelayMs: 1 }),
    });
    expect(server.hits("/weather/seoul")).toBe(2);
    expect(await sharedBudget.usage()).toMatchObject({
      calls: 1,
      attempts: 2,
      remoteAttempts: 2,
      inFlight: 0,
    });
  });

  it("fails closed when the database stops answering: typed refusal, nothing sent, no hang", async () => {
    const proxy = await startProxy(Number(new URL(postgresUrl()).port));
    cleanups.push(() => proxy.close());
    const schema = freshSchema();
    await (await connectPostgres({ url: postgresUrl(), schema, migrate: true })).close();
    const state = await connectPostgres({
      url: proxy.via(postgresUrl()),
      schema,
      connectTimeoutMs: 500,
      queryTimeoutMs: 500,
    });
    cleanups.push(() => state.close());
    const { server, router } = await startFaultRouter(cleanups);
    server.program("/weather/seoul", [], OK_READING);
    const call = pin(router, "weather", "current", { city: "seoul" });
    const sharedBudget = new SharedBudget({ key: "k", store: state.budgets, maxCalls: 100 });
    await router.call(call, { sharedBudget });
    expect(await sharedBudget.usage()).toMatchObject({ calls: 1, inFlight: 0 });
    for (const mode of ["refuse", "blackhole"] as const) {
      proxy.set(mode);
      const started = performance.now();
      const error = await failure(router.call(call, { sharedBudget }));
      const took = performance.now() - started;
      expect(error).toMatchObject({
        code: "STATE_UNAVAILABLE",
        details: { budget: "k", route: "weather.current" },
      });
      expect(error.message).toContain("nothing was sent");
      expect(took).toBeLessThan(2_500);
      expect(server.hits("/weather/seoul")).toBe(1);
      proxy.set("forward");
    }
    // Reachable again: metering and work continue.
    await router.call(call, { sharedBudget });
    expect(server.hits("/weather/seoul")).toBe(2);
    expect(await sharedBudget.usage()).toMatchObject({ calls: 2, inFlight: 0 });
  });

  it("refuses to connect to an unreachable or silent server within the connect bound", async () => {
    const proxy = await startProxy(Number(new URL(postgresUrl()).port));
    cleanups.push(() => proxy.close());
    for (const mode of ["refuse", "blackhole"] as const) {
      proxy.set(mode);
      const started = performance.now();
      const error = await failure(connectPostgres({ url: proxy.via(postgresUrl()), connectTimeoutMs: 300 }));
      expect(error.code).toBe("STATE_UNAVAILABLE");
      expect(error.message).not.toContain(new URL(postgresUrl()).password);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});
