/**
 * Trusted execution hooks (docs/trust-model.md §22): they run after the schema, policy and approval checks,
 * see detached deep-frozen snapshots, cannot change the call or the result, fail closed with
 * HOOK_FAILED, never turn an after-hook failure into a retried tool failure, and after they awaited
 * the current schema and binding are checked again before anything is sent.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import type { AfterHookSnapshot, ExecutionHooks, HookCallSnapshot } from "../../../runtime/governed/hooks.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import {
  faultRouter,
  OK_READING as OK,
  pin,
  startFaultServer,
  WEATHER,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const FAST = new RetryPolicy({ maxAttempts: 3, initialDelayMs: 1 });

const cleanups = cleanupAfterEach();

async function setup(hooks: ExecutionHooks, options: Parameters<typeof faultRouter>[1] = {}) {
  const server = await startFaultServer();
  cleanups.push(() => server.close());
  server.program("/weather/seoul", [], OK);
  const router = faultRouter(server, { availability: { cooldownMs: 0 }, hooks, ...options });
  cleanups.push(() => router.close());
  const seoul = pin(router, "weather", "current", { city: "seoul" }, ["city", "tempC"]);
  return { server, router, seoul };
}

describe("hook snapshots", () => {
  it("gives before- and after-hooks detached, deep-frozen snapshots", async () => {
    const before: HookCallSnapshot[] = [];
    const after: AfterHookSnapshot[] = [];
    const { router, seoul } = await setup({
      before: [(call) => void before.push(call)],
      after: [(call) => void after.push(call)],
    });
    const result = await router.call(seoul, { runId: "hooks-run" });
    expect(before[0]).toMatchObject({
      runId: "hooks-run",
      callIndex: 0,
      tool: "weather",
      endpoint: "current",
      effect: "read",
      remote: true,
      arguments: { city: "seoul" },
      fields: ["city", "tempC"],
      fallback: false,
    });
    expect(Object.isFrozen(before[0])).toBe(true);
    expect(Object.isFrozen(before[0]!.arguments)).toBe(true);
    expect(() => {
      (before[0]!.arguments as Record<string, unknown>).city = "busan";
    }).toThrow(TypeError);
    expect(after[0]!.result).toEqual(result);
    expect(after[0]!.result).not.toBe(result);
    expect(Object.isFrozen(after[0]!.result.data)).toBe(true);
    expect(Object.isFrozen(result)).toBe(false);
    (result.data as Record<string, unknown>).tempC = 99;
    expect((after[0]!.result.data as Record<string, unknown>).tempC).toBe(21);
  });

  it("runs after schema, policy and approval checks, in that order", async () => {
    const order: string[] = [];
    const policy = new ExecutionPolicy({ approval: "all" });
    const { server, router, seoul } = await setup(
      { before: [() => void order.push("before")], after: [() => void order.push("after")] },
      {
        policy,
        approve: () => {
          order.push("approve");
          return true;
        },
      },
    );
    await router.call(seoul);
    expect(order).toEqual(["approve", "before", "after"]);
    order.length = 0;
    expect((await failure(router.call({ ...seoul, arguments: { city: "NOPE" } }))).code).toBe(
      "INPUT_SCHEMA_VIOLATION",
    );
    expect((await failure(router.call(pin(router, "weather", "purge")))).code).toBe("POLICY_DENIED");
    expect(order).toEqual([]);
    expect(server.hits("/weather/seoul")).toBe(1);
  });

  it("does not run hooks when approval is refused", async () => {
    let ran = false;
    const { router, seoul } = await setup(
      {
        before: [
          () => {
            ran = true;
          },
        ],
      },
      { policy: new ExecutionPolicy({ approval: "all" }), approve: () => false },
    );
    expect((await failure(router.call(seoul))).code).toBe("APPROVAL_DENIED");
    expect(ran).toBe(false);
  });
});

describe("hooks fail closed (HOOK_FAILED)", () => {
  const bad: [string, ExecutionHooks, string][] = [
    [
      "a throwing before-hook",
      {
        before: [
          () => {
            throw new Error("no");
          },
        ],
      },
      "threw",
    ],
    ["a rejecting before-hook", { before: [() => Promise.reject(new Error("no"))] }, "threw"],
    [
      "a before-hook returning a value",
      { before: [() => ({ city: "busan" }) as unknown as undefined] },
      "returned-value",
    ],
    [
      "an async before-hook resolving a value",
      { before: [async () => ({ arguments: {} }) as unknown as undefined] },
      "returned-value",
    ],
    [
      "a before-hook that never settles",
      { before: [() => new Promise<void>(() => {})], timeoutMs: 50 },
      "timeout",
    ],
  ];
  it.each(bad)("refuses the call after %s, sending nothing", async (_name, hooks, reason) => {
    const { server, router, seoul } = await setup(hooks);
    const error = await failure(router.call(seoul, { retry: FAST }));
    expect(error).toMatchObject({ code: "HOOK_FAILED", details: { stage: "before", hook: 0, reason } });
    expect(server.requests).toEqual([]);
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("audit down");
      },
      "threw",
    ],
    ["returns a replacement result", () => ({ data: "forged" }) as unknown as undefined, "returned-value"],
  ])("never retries the tool when an after-hook %s", async (_name, hook, reason) => {
    const { server, router, seoul } = await setup({ after: [hook] });
    const error = await failure(router.call(seoul, { retry: FAST }));
    expect(error).toMatchObject({ code: "HOOK_FAILED", details: { stage: "after", reason } });
    expect(server.hits("/weather/seoul")).toBe(1);
  });

  it("does not fall back after an after-hook failure", async () => {
    const { server, router, seoul } = await setup({
      after: [
        () => {
          throw new Error("no");
        },
      ],
    });
    server.program("/mirror/seoul", [], OK);
    const mirror = pin(router, "mirror", "current", { city: "seoul" }, ["city", "tempC"]);
    expect((await failure(router.call({ ...seoul, fallbacks: [mirror] } as never))).code).toBe("HOOK_FAILED");
    expect(server.hits("/mirror/seoul")).toBe(0);
  });

  it("bounds a hook by the run's wall-clock budget (BUDGET_EXCEEDED)", async () => {
    const { server, router, seoul } = await setup({ before: [() => new Promise<void>(() => {})] });
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 80 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
    expect(server.requests).toEqual([]);
  }, 20_000);

  it.each([[{ before: "audit" }], [{ after: [42] }], [{ timeoutMs: 0 }], [{ around: [] }]])(
    "refuses hook options %j (RUN_CONFIG_INVALID)",
    async (hooks) => {
      const server = await startFaultServer();
      cleanups.push(() => server.close());
      expect(() => faultRouter(server, { hooks: hooks as never })).toThrow(
        expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
      );
    },
  );
});

describe("state re-check after hooks", () => {
  it("refuses the call (STALE_*) when a before-hook replaced the tool contract", async () => {
    let replace: () => void = () => {};
    const { server, router, seoul } = await setup({
      before: [
        async () => {
          await Promise.resolve();
          replace();
        },
      ],
    });
    replace = () =>
      router.replaceTool({
        tool: {
          ...WEATHER,
          endpoints: WEATHER.endpoints.map((endpoint) => ({
            ...endpoint,
            description: `${endpoint.description} v2`,
          })),
        },
        source: "weather",
        sourceKind: "openapi",
        defs: {},
      });
    const error = await failure(router.call(seoul));
    expect(error.code).toMatch(/^STALE_(FINGERPRINT|TOOL_FINGERPRINT)$/);
    expect(server.requests).toEqual([]);
  });

  it("refuses the call (STALE_TOOL_FINGERPRINT) when a synchronous before-hook changed only the tool contract", async () => {
    let replace: () => void = () => {};
    const { server, router } = await setup({ before: [() => replace()] });
    replace = () =>
      router.replaceTool({
        tool: { ...WEATHER, description: "v2" },
        source: "weather",
        sourceKind: "openapi",
        defs: {},
      });
    const error = await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    expect(error.code).toBe("STALE_TOOL_FINGERPRINT");
    expect(server.requests).toEqual([]);
  });
});
