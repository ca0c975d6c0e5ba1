/**
 * SchemaRouter `state.availability` (docs/state/postgres.md, "Availability"): any AvailabilityStore
 * can hold the cooldowns, so routers sharing one store share what they learned; the option is
 * validated strictly.
 */
import { describe, expect, it } from "vitest";
import { AvailabilityMemory } from "../../../runtime/governed/availability.js";
import type { AvailabilityStore } from "../../../runtime/governed/state/availability-store.js";
import { faultRouter, OK_READING as OK, pin, startFaultServer } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

describe("SchemaRouter state.availability", () => {
  it("routers sharing one store share cooldowns and probe reopenings", async () => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    const shared = new AvailabilityMemory({ cooldownMs: 60_000 });
    const [a, b] = [
      faultRouter(server, { state: { availability: shared } }),
      faultRouter(server, { state: { availability: shared } }),
    ];
    cleanups.push(() => a.close());
    cleanups.push(() => b.close());
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    await failure(a.call(pin(a, "weather", "current", { city: "seoul" })));
    const skipped = await failure(b.call(pin(b, "weather", "current", { city: "seoul" })));
    expect(skipped).toMatchObject({ code: "INVOCATION_UNAVAILABLE", details: { reason: "cooldown" } });
    expect(server.hits("/weather/seoul")).toBe(1);
    b.registerHealthProbe("weather", () => true);
    expect(await b.checkHealth()).toEqual([{ tool: "weather", healthy: true }]);
    await a.call(pin(a, "weather", "current", { city: "seoul" }));
    expect(server.hits("/weather/seoul")).toBe(2);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ["an unknown state key", { state: { budgets: {} } }],
    ["a store without assertAvailable", { state: { availability: {} } }],
    [
      "cooldown bounds given twice",
      { state: { availability: new AvailabilityMemory() }, availability: { cooldownMs: 1 } },
    ],
  ];
  it.each(invalid)("refuses %s with RUN_CONFIG_INVALID", async (_name, options) => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    expect(() => faultRouter(server, options as { state: { availability: AvailabilityStore } })).toThrow(
      expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
    );
  });
});
