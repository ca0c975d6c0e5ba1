/**
 * plan() around cooling-down routes (docs/runtime/retrieval-and-planning.md): after a real 503 puts an
 * access path in cooldown, the next plan picks a ready alternative instead of handing the agent a call
 * that fails fast; when nothing ready covers the need, the call is planned and marked with the
 * cooldown's end.
 */
import { describe, expect, it } from "vitest";
import { type Fault, OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();
const BUSY: Fault = { reply: "status", status: 503 };
const REQUEST = { query: "current temperature", fields: ["tempC"], arguments: { city: "seoul" } };

async function setup() {
  const { server, router } = await startFaultRouter(cleanups, { availability: { cooldownMs: 60_000 } });
  server.program("/weather/seoul", [], OK_READING);
  server.program("/mirror/seoul", [], OK_READING);
  return { server, router };
}

/** Cools `tool` down through a real failed call (exhausted 503), as a run would. */
async function coolDown(
  router: Awaited<ReturnType<typeof setup>>["router"],
  server: Awaited<ReturnType<typeof setup>>["server"],
  tool: string,
) {
  server.program(`/${tool}/seoul`, [BUSY], OK_READING);
  await failure(router.call(pin(router, tool, "current", { city: "seoul" })));
  expect(router.availability(tool).available).toBe(false);
}

describe("plan() and cooling-down routes", () => {
  it("a ready plan has no cooling-down routes", async () => {
    const { router } = await setup();
    const plan = router.plan(REQUEST);
    expect(plan.coolingDown).toEqual([]);
    expect(plan.explanations[0]!.coolingDown).toBeUndefined();
  });

  it("prefers a ready alternative to the top-ranked route while it cools down, and executes it", async () => {
    const { server, router } = await setup();
    const first = router.plan(REQUEST).calls[0]!.tool;
    const other = first === "weather" ? "mirror" : "weather";
    await coolDown(router, server, first);

    const plan = router.plan(REQUEST);
    expect(plan.calls.map((call) => call.tool)).toEqual([other]);
    expect(plan.explanations[0]!.coolingDown).toBeUndefined();
    const status = router.availability(first);
    expect(plan.coolingDown).toEqual([
      { route: `${first}.current`, tool: first, until: status.until, reason: "http-5xx" },
    ]);
    const before = server.hits(`/${first}/seoul`);
    await expect(router.invoke(plan)).resolves.toMatchObject([{ tool: other, data: { tempC: 21 } }]);
    expect(server.hits(`/${first}/seoul`)).toBe(before);
  });

  it("when every route covering the need cools down, the call is planned and marked with the cooldown's end", async () => {
    const { server, router } = await setup();
    const first = router.plan(REQUEST).calls[0]!.tool;
    await coolDown(router, server, "weather");
    await coolDown(router, server, "mirror");

    const plan = router.plan(REQUEST);
    expect(plan.calls[0]!.tool).toBe(first);
    const status = router.availability(first);
    expect(plan.explanations[0]!.coolingDown).toEqual({
      route: `${first}.current`,
      tool: first,
      until: status.until,
      reason: "http-5xx",
    });
    expect(Date.parse(plan.explanations[0]!.coolingDown!.until)).toBeGreaterThan(Date.now());
    // What the mark warns of: the call is refused without sending until then.
    const error = await failure(router.invoke(plan));
    expect(error).toMatchObject({ code: "INVOCATION_UNAVAILABLE", details: { reason: "cooldown" } });
  });

  it("a successful health probe reopens the route for the next plan", async () => {
    const { server, router } = await setup();
    const first = router.plan(REQUEST).calls[0]!.tool;
    await coolDown(router, server, first);
    router.registerHealthProbe(first, async () => true);
    await router.checkHealth([first]);
    const plan = router.plan(REQUEST);
    expect(plan.calls[0]!.tool).toBe(first);
    expect(plan.coolingDown).toEqual([]);
  });
});
