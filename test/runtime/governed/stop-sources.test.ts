/**
 * What stops a run while a step awaits (docs/runtime/execution-boundary.md, after step 20): the caller's
 * RunConfig.signal and the wall-clock budget stop a single call or a sequential plan whose invoker never
 * settles and ignores its abort signal; a run with neither has nothing to stop it and ends when its
 * invoker answers, with the same checks (an output that breaks the locked schema is still refused).
 */
import { describe, expect, it } from "vitest";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { OK_READING as OK, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function setup() {
  const { server, router } = await startFaultRouter(cleanups, { availability: { cooldownMs: 0 } });
  const seoul = pin(router, "weather", "current", { city: "seoul" });
  let started = 0;
  // An invoker that never settles and never reads its signal: only the run's stop can end the call.
  const hanging = {
    invoke: () => {
      started++;
      return new Promise<never>(() => {});
    },
  };
  return { server, router, seoul, hanging, started: () => started };
}

describe("stopping a run while its invoker awaits", () => {
  it("RunConfig.signal stops router.call (RUN_ABORTED naming the route)", async () => {
    const { router, seoul, hanging, started } = await setup();
    router.bind("weather", hanging);
    const controller = new AbortController();
    const pending = router.call(seoul, { signal: controller.signal });
    await expect.poll(started, { timeout: 5_000 }).toBe(1);
    controller.abort();
    expect(await failure(pending)).toMatchObject({
      code: "RUN_ABORTED",
      details: { route: "weather.current", reason: "signal" },
    });
  }, 20_000);

  it("RunConfig.signal stops a sequential plan (router.invoke), and no later call starts", async () => {
    const { router, seoul, hanging, started } = await setup();
    router.bind("weather", hanging);
    const controller = new AbortController();
    const pending = router.invoke([seoul, seoul], { signal: controller.signal });
    await expect.poll(started, { timeout: 5_000 }).toBe(1);
    controller.abort();
    expect((await failure(pending)).code).toBe("RUN_ABORTED");
    expect(started()).toBe(1);
  }, 20_000);

  it("the wall-clock budget stops a sequential plan (BUDGET_EXCEEDED)", async () => {
    const { router, seoul, hanging } = await setup();
    router.bind("weather", hanging);
    const error = await failure(
      router.invoke([seoul], { budget: new ExecutionBudget({ maxWallClockMs: 100 }) }),
    );
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
  }, 20_000);

  it("a run without signal or deadline ends when the invoker answers, with every check", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    const result = await router.call(seoul);
    expect(result).toMatchObject({ tool: "weather", endpoint: "current", attempts: 1 });
    let answer: ((value: unknown) => void) | undefined;
    router.bind("weather", { invoke: () => new Promise((resolve) => (answer = resolve)) });
    const pending = router.call(seoul);
    await expect.poll(() => answer !== undefined, { timeout: 5_000 }).toBe(true);
    answer?.({ city: 42, tempC: "warm", humidity: 40 });
    expect((await failure(pending)).code).toBe("OUTPUT_SCHEMA_VIOLATION");
  }, 20_000);
});
