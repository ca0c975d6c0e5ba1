/**
 * A health probe reopens only the read-only path it probed (docs/runtime/governed-execution.md):
 * after a real 503 cools a tool down, a successful probe lets its read endpoints through again while
 * its writes stay refused without sending until the cooldown ends.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import { type Fault, OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();
const BUSY: Fault = { reply: "status", status: 503 };
const ACCEPTED: Fault = { reply: "json", body: {} };

async function setup(cooldownMs: number) {
  const { server, router } = await startFaultRouter(cleanups, {
    availability: { cooldownMs },
    policy: new ExecutionPolicy({ allowMutations: true }),
  });
  server.program("/weather/seoul", [BUSY], OK_READING);
  server.program("/weather/report", [], ACCEPTED);
  const read = pin(router, "weather", "current", { city: "seoul" });
  const write = pin(router, "weather", "report");
  // A real exhausted 503 on a read cools the whole tool down, reads and writes.
  await failure(router.call(read));
  router.registerHealthProbe("weather", () => true);
  return { server, router, read, write };
}

describe("health probes reopen the read-only path only", () => {
  it("before the probe, reads and writes are both refused without sending", async () => {
    const { server, router, read, write } = await setup(60_000);
    expect(router.availability("weather").available).toBe(false);
    expect(router.availability("weather", "write").available).toBe(false);
    await expect(router.call(read)).rejects.toMatchObject({ code: "INVOCATION_UNAVAILABLE" });
    await expect(router.call(write)).rejects.toMatchObject({ code: "INVOCATION_UNAVAILABLE" });
    expect(server.hits("/weather/report")).toBe(0);
  });

  it("a successful probe reopens the reads; the writes stay cooling down and nothing is sent", async () => {
    const { server, router, read, write } = await setup(60_000);
    expect(await router.checkHealth(["weather"])).toEqual([{ tool: "weather", healthy: true }]);
    expect(router.availability("weather")).toMatchObject({ available: true });
    const writes = router.availability("weather", "write");
    expect(writes).toMatchObject({ tool: "weather", available: false, reason: "http-5xx" });

    await expect(router.call(read)).resolves.toMatchObject({ data: { tempC: 21 } });
    const error = await failure(router.call(write));
    expect(error).toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      details: { reason: "cooldown", tool: "weather", cause: "http-5xx", until: writes.until },
    });
    expect(error.message).toBe(
      `weather.report: the write path of "weather" is cooling down after http-5xx until ${writes.until}; nothing was sent. A health probe reopens only read endpoints; writes reopen when the cooldown ends.`,
    );
    expect(server.hits("/weather/report")).toBe(0);
    // Plans see the same: the write endpoint is marked, the read one is not.
    expect(router.availability("weather", "destructive").available).toBe(false);
  });

  it("the writes reopen by themselves when their cooldown ends", async () => {
    const { server, router, write } = await setup(1_500);
    await router.checkHealth(["weather"]);
    await expect(router.call(write)).rejects.toMatchObject({ code: "INVOCATION_UNAVAILABLE" });
    await expect
      .poll(() => router.availability("weather", "write").available, { timeout: 10_000, interval: 50 })
      .toBe(true);
    await expect(router.call(write)).resolves.toMatchObject({ endpoint: "report" });
    expect(server.hits("/weather/report")).toBe(1);
  });

  it("replacing the tool's contract clears both paths", async () => {
    const { router } = await setup(60_000);
    const registered = router.registry.get("weather")!;
    router.replaceTool({
      tool: { ...registered.tool, description: "v2" },
      source: "weather",
      sourceKind: "openapi",
      defs: {},
    });
    expect(router.availability("weather", "write")).toMatchObject({ available: true, failures: 0 });
  });
});
