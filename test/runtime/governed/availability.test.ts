/**
 * Availability memory and health (docs/trust-model.md §30): timeouts, connection failures, 429 and exhausted
 * 5xx put an access path in a bounded cooldown (INVOCATION_UNAVAILABLE without sending); it reopens
 * when the cooldown ends or a trusted read-only health probe succeeds; the background monitor stops
 * cleanly; replacing a tool contract clears its state.
 */
import { describe, expect, it } from "vitest";
import { AvailabilityMemory } from "../../../runtime/governed/availability.js";
import { AccessHealthMonitor, HealthProbes } from "../../../runtime/governed/health.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import {
  type Fault,
  faultRouter,
  OK_READING as OK,
  pin,
  startFaultRouter,
  startFaultServer,
  WEATHER,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const { server, router } = await startFaultRouter(cleanups, {
    availability: { cooldownMs: 60_000 },
    ...options,
  });
  const seoul = pin(router, "weather", "current", { city: "seoul" });
  return { server, router, seoul };
}

describe("passive failures start a bounded cooldown", () => {
  const causes: [string, Fault, string][] = [
    ["HTTP 429", { reply: "status", status: 429, retryAfter: "1" }, "http-429"],
    ["exhausted HTTP 503", { reply: "status", status: 503 }, "http-5xx"],
    ["a connection reset", { reply: "reset" }, "connection"],
  ];
  it.each(causes)("cools down after %s and refuses without sending", async (_name, fault, reason) => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [fault], OK);
    await failure(router.call(seoul));
    expect(router.availability("weather")).toMatchObject({ available: false, reason, failures: 1 });
    const error = await failure(router.call(seoul));
    expect(error).toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      details: { reason: "cooldown", tool: "weather" },
    });
    expect(server.hits("/weather/seoul")).toBe(1);
    expect(router.availability("mirror").available).toBe(true);
  });

  it("cools down after a timeout", async () => {
    const { server, router, seoul } = await setup({ timeoutMs: 100 });
    server.program("/weather/seoul", [{ reply: "hang" }], OK);
    expect((await failure(router.call(seoul))).code).toBe("INVOCATION_UNAVAILABLE");
    expect(router.availability("weather").available).toBe(false);
  }, 20_000);

  it("does not cool down after a deterministic 4xx or a refusal", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 404 }], OK);
    expect((await failure(router.call(seoul))).code).toBe("HTTP_STATUS");
    expect((await failure(router.call({ ...seoul, arguments: { city: "X" } }))).code).toBe(
      "INPUT_SCHEMA_VIOLATION",
    );
    expect(router.availability("weather").available).toBe(true);
    await expect(router.call(seoul)).resolves.toMatchObject({ attempts: 1 });
  });

  it("only marks the path after same-route retries are exhausted", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    const retry = new RetryPolicy({ maxAttempts: 2, initialDelayMs: 1 });
    await expect(router.call(seoul, { retry })).resolves.toMatchObject({ attempts: 2 });
    expect(router.availability("weather")).toMatchObject({ available: true, failures: 0 });
  });

  it("becomes eligible again by itself when the cooldown ends", async () => {
    const { server, router, seoul } = await setup({ availability: { cooldownMs: 50, maxCooldownMs: 50 } });
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    await failure(router.call(seoul));
    await expect.poll(() => router.availability("weather").available, { timeout: 10_000 }).toBe(true);
    await expect(router.call(seoul)).resolves.toMatchObject({ attempts: 1 });
    expect(server.hits("/weather/seoul")).toBe(2);
    expect(router.availability("weather").failures).toBe(0);
  });

  it("clears the state of a tool whose contract is replaced", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    router.registerHealthProbe("weather", () => true);
    router.replaceTool({
      tool: { ...WEATHER, description: "v2" },
      source: "weather",
      sourceKind: "openapi",
      defs: {},
    });
    expect(router.availability("weather")).toMatchObject({ available: true, failures: 0 });
    expect((await failure(router.checkHealth(["weather"]))).code).toBe("HEALTH_PROBE_REFUSED");
  });
});

describe("AvailabilityMemory", () => {
  it("doubles the cooldown per consecutive failure up to the bound, honours Retry-After, resets on success", () => {
    let now = 0;
    const memory = new AvailabilityMemory({ cooldownMs: 100, maxCooldownMs: 350 }, () => now);
    const until = () => Date.parse(memory.status("t").until ?? "1970-01-01T00:00:00.000Z");
    memory.markUnavailable("t", "http-5xx");
    expect(until()).toBe(100);
    memory.markUnavailable("t", "http-5xx");
    expect(until()).toBe(200);
    memory.markUnavailable("t", "http-5xx");
    expect(until()).toBe(350);
    memory.markUnavailable("t", "http-429", 10_000);
    expect(until()).toBe(350);
    now = 350;
    expect(memory.status("t")).toMatchObject({ available: true, failures: 4 });
    memory.markAvailable("t");
    memory.markUnavailable("t", "http-429", 300);
    expect(until()).toBe(650);
    expect(() => memory.assertAvailable("t", "t.e")).toThrow(
      expect.objectContaining({ code: "INVOCATION_UNAVAILABLE" }),
    );
  });

  it("turns cooldowns off with cooldownMs 0", () => {
    const memory = new AvailabilityMemory({ cooldownMs: 0 });
    memory.markUnavailable("t", "timeout");
    expect(memory.status("t").available).toBe(true);
  });

  it.each([[{ cooldownMs: -1 }], [{ cooldownMs: 1.5 }], [{ maxCooldownMs: 86_400_001 }], [{ cooldown: 5 }]])(
    "refuses options %j (RUN_CONFIG_INVALID)",
    async (options) => {
      const server = await startFaultServer();
      cleanups.push(() => server.close());
      expect(() => faultRouter(server, { availability: options as never })).toThrow(
        expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
      );
    },
  );
});

describe("trusted health probes", () => {
  it("reopens a path early when its probe succeeds", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    let healthy = false;
    const seen: unknown[] = [];
    router.registerHealthProbe("weather", (context) => {
      seen.push(context.tool);
      return healthy;
    });
    await failure(router.call(seoul));
    expect(await router.checkHealth()).toEqual([
      { tool: "weather", healthy: false, reason: "returned-false" },
    ]);
    expect(router.availability("weather")).toMatchObject({ available: false, reason: "probe-failed" });
    healthy = true;
    expect(await router.checkHealth(["weather"])).toEqual([{ tool: "weather", healthy: true }]);
    expect(router.availability("weather").available).toBe(true);
    await expect(router.call(seoul)).resolves.toMatchObject({ attempts: 1 });
    expect(seen).toEqual(["weather", "weather"]);
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("down");
      },
      "threw",
    ],
    ["rejects", () => Promise.reject(new Error("down")), "threw"],
    ["answers something other than true", () => "yes" as unknown as boolean, "returned-false"],
    ["times out", () => new Promise<boolean>(() => {}), "timeout"],
  ])("marks the path unavailable when the probe %s", async (_name, probe, reason) => {
    const { router } = await setup();
    router.registerHealthProbe("weather", probe, { timeoutMs: 50 });
    expect(await router.checkHealth()).toEqual([{ tool: "weather", healthy: false, reason }]);
    expect(router.availability("weather")).toMatchObject({ available: false, reason: "probe-failed" });
  });

  it.each([
    ["an unknown tool", "nowhere", "unknown-tool"],
    ["a tool without read-only endpoints", "writer", "not-read-only"],
  ])("refuses a probe for %s (HEALTH_PROBE_REFUSED)", async (_name, tool, reason) => {
    const { router } = await setup();
    expect(() => router.registerHealthProbe(tool, () => true)).toThrow(
      expect.objectContaining({ code: "HEALTH_PROBE_REFUSED", details: { tool, reason } }),
    );
  });

  it("refuses a probe that is not a function, and running an unregistered probe", async () => {
    const { router } = await setup();
    expect(() => router.registerHealthProbe("weather", "GET /health" as never)).toThrow(
      expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
    );
    expect((await failure(router.checkHealth(["mirror"]))).code).toBe("HEALTH_PROBE_REFUSED");
  });
});

describe("AccessHealthMonitor", () => {
  it("runs the probes on an interval, reopens the path, and stops cleanly", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    await failure(router.call(seoul));
    let probes = 0;
    router.registerHealthProbe("weather", () => {
      probes++;
      return true;
    });
    const monitor = await router.startHealthMonitor({ intervalMs: 10 });
    expect(monitor.running).toBe(true);
    await expect.poll(() => router.availability("weather").available, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => monitor.rounds, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await router.stopHealthMonitor();
    expect(monitor.running).toBe(false);
    const after = probes;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(probes).toBe(after);
  });

  it("stop() aborts and awaits the probes in flight", async () => {
    const memory = new AvailabilityMemory({ cooldownMs: 1_000 });
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    const router = faultRouter(server);
    cleanups.push(() => router.close());
    const probes = new HealthProbes(() => router.registry, memory);
    let started = false;
    let settled = false;
    probes.register(
      "weather",
      ({ signal }) =>
        new Promise<boolean>((resolve) => {
          started = true;
          signal.addEventListener("abort", () => {
            settled = true;
            resolve(true);
          });
        }),
      { timeoutMs: 60_000 },
    );
    const monitor = new AccessHealthMonitor(probes, { intervalMs: 10 }).start();
    await expect.poll(() => started, { timeout: 10_000 }).toBe(true);
    await monitor.stop();
    expect(settled).toBe(true);
    expect(monitor.rounds).toBe(0);
    expect(memory.status("weather").available).toBe(true);
  });

  it("is stopped by router.close()", async () => {
    const { router } = await setup();
    router.registerHealthProbe("weather", () => true);
    const monitor = await router.startHealthMonitor({ intervalMs: 10 });
    await router.close();
    expect(monitor.running).toBe(false);
  });

  it.each([[{ intervalMs: 1 }], [{}], [{ intervalMs: 100, every: 5 }]])(
    "refuses options %j (RUN_CONFIG_INVALID)",
    async (options) => {
      const { router } = await setup();
      expect((await failure(router.startHealthMonitor(options as never))).code).toBe("RUN_CONFIG_INVALID");
    },
  );
});
