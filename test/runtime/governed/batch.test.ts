/**
 * Batch and parallel execution (docs/trust-model.md §28): invokeBatch and mode "parallelReadOnly"
 * accept only flat plans whose calls all preflight as explicitly read-only, validated before any task
 * starts; all tasks share one budget and one concurrency bound; the first failure aborts the rest.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { type Fault, faultRouter, pin, startFaultServer } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const CITIES = ["seoul", "busan", "daegu", "incheon", "gwangju", "daejeon", "ulsan", "suwon"];
const reading = (city: string, delayMs?: number): Fault => ({
  reply: "json",
  body: { city, tempC: city.length, humidity: 50 },
  ...(delayMs !== undefined ? { delayMs } : {}),
});

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const server = await startFaultServer();
  cleanups.push(() => server.close());
  for (const city of CITIES) server.program(`/weather/${city}`, [], reading(city, 20));
  const router = faultRouter(server, { availability: { cooldownMs: 0 }, ...options });
  cleanups.push(() => router.close());
  const calls = CITIES.map((city) => pin(router, "weather", "current", { city }, ["city", "tempC"]));
  return { server, router, calls };
}

describe("invokeBatch", () => {
  it("runs read-only calls concurrently within the bound and keeps input order", async () => {
    const { server, router, calls } = await setup();
    const results = await router.invokeBatch(calls, { concurrency: 3 });
    expect(results.map((result) => (result.data as { city: string }).city)).toEqual(CITIES);
    expect(server.requests).toHaveLength(CITIES.length);
    expect(server.inFlight.max).toBeLessThanOrEqual(3);
  });

  it("accepts a plan and mode parallelReadOnly through invoke", async () => {
    const { server, router, calls } = await setup();
    const results = await router.invoke({ calls }, { mode: "parallelReadOnly", concurrency: 2 });
    expect(results).toHaveLength(CITIES.length);
    expect(server.inFlight.max).toBeLessThanOrEqual(2);
  });

  it("refuses the whole batch before any task starts when a call is not read-only", async () => {
    const { server, router, calls } = await setup({ policy: new ExecutionPolicy({ allowMutations: true }) });
    const error = await failure(router.invokeBatch([...calls, pin(router, "weather", "report")]));
    expect(error).toMatchObject({
      code: "PARALLEL_NOT_READ_ONLY",
      details: { route: "weather.report", call: 8 },
    });
    expect(server.requests).toEqual([]);
  });

  it.each([
    ["a stale call", { toolFingerprint: `sha256:${"3".repeat(64)}` }, "STALE_TOOL_FINGERPRINT"],
    ["an invalid argument", { arguments: { city: 42 } }, "INPUT_SCHEMA_VIOLATION"],
    ["an unknown endpoint", { endpoint: "forecast" }, "UNKNOWN_ENDPOINT"],
  ] as const)("refuses the whole batch before any task starts for %s", async (_name, change, code) => {
    const { server, router, calls } = await setup();
    const last = { ...calls.at(-1)!, ...change };
    expect((await failure(router.invokeBatch([...calls.slice(0, -1), last]))).code).toBe(code);
    expect(server.requests).toEqual([]);
  });

  it("shares one budget across concurrent tasks", async () => {
    const { server, router, calls } = await setup();
    const error = await failure(
      router.invokeBatch(calls, { concurrency: 4, budget: new ExecutionBudget({ maxAttempts: 5 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "attempts", max: 5 } });
    expect(server.requests.length).toBeLessThanOrEqual(5);
  });

  it("aborts the other tasks after the first failure (RUN_ABORTED in their events)", async () => {
    const { server, router, calls } = await setup();
    server.program("/weather/seoul", [], { reply: "status", status: 404 });
    for (const city of CITIES.slice(1)) server.program(`/weather/${city}`, [], { reply: "hang" });
    const events: RunEvent[] = [];
    for await (const event of router.stream(calls, { mode: "parallelReadOnly", concurrency: 3 }))
      events.push(event);
    const errors = events.filter((event) => event.type === "tool.error");
    expect(errors.find((event) => event.callIndex === 0)).toMatchObject({ code: "HTTP_STATUS" });
    const others = errors.filter((event) => event.callIndex !== 0);
    expect(others.length).toBeGreaterThan(0);
    for (const event of others) expect(event).toMatchObject({ code: "RUN_ABORTED" });
    // Calls 3… never started: the failure stopped new launches, the bound kept 3 in flight at most.
    const started = events.filter((event) => event.type === "tool.start").map((event) => event.callIndex);
    expect(Math.max(...started)).toBeLessThan(3);
    expect(others.map((event) => event.callIndex).sort()).toEqual([1, 2]);
    expect(events.at(-1)).toMatchObject({ type: "run.error", code: "HTTP_STATUS" });
    expect(server.requests.length).toBeLessThanOrEqual(3);
    await expect.poll(() => server.inFlight.current, { timeout: 5_000 }).toBe(0);
  }, 20_000);

  it("runs an empty batch as an empty run", async () => {
    const { router } = await setup();
    await expect(router.invokeBatch([])).resolves.toEqual([]);
  });
});

describe("run input and config validation", () => {
  it.each([
    ["a string", "weather.current"],
    ["null", null],
    ["a plan whose calls are not an array", { calls: "all" }],
    ["a nested list", [[{ tool: "weather" }]]],
  ])("refuses %s (PLAN_INVALID)", async (_name, input) => {
    const { router } = await setup();
    expect((await failure(router.invoke(input as never))).code).toBe("PLAN_INVALID");
  });

  it.each([
    [{ concurrency: 0 }],
    [{ concurrency: 65 }],
    [{ mode: "dag" }],
    [{ runId: "" }],
    [{ tags: ["ok", ""] }],
    [{ metadata: { user: 7 } }],
    [{ includePayloads: "yes" }],
    [{ traceStore: {} }],
    [{ retries: 3 }],
  ])("refuses run config %j (RUN_CONFIG_INVALID) before any event", async (config) => {
    const { server, router, calls } = await setup();
    expect((await failure(router.invokeBatch(calls, config as never))).code).toBe("RUN_CONFIG_INVALID");
    expect(server.requests).toEqual([]);
  });

  it("aborts a run through RunConfig.signal (RUN_ABORTED)", async () => {
    const { server, router, calls } = await setup();
    for (const city of CITIES) server.program(`/weather/${city}`, [], { reply: "hang" });
    const controller = new AbortController();
    const pending = router.invokeBatch(calls, { signal: controller.signal, concurrency: 2 });
    await expect.poll(() => server.requests.length, { timeout: 5_000 }).toBe(2);
    controller.abort();
    expect((await failure(pending)).code).toBe("RUN_ABORTED");
    expect(server.requests).toHaveLength(2);
  }, 20_000);

  it("refuses arguments that are not plain data (INPUT_SCHEMA_VIOLATION)", async () => {
    const { server, router, calls } = await setup();
    const forged = { ...calls[0]!, arguments: { city: () => "seoul" } };
    expect((await failure(router.invoke([forged]))).code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(server.requests).toEqual([]);
  });

  it("refuses calls on a closed router", async () => {
    const { router, calls } = await setup();
    await router.close();
    expect((await failure(router.invokeBatch(calls))).code).toBe("BINDING_NOT_READY");
  });
});
