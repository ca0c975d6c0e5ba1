/**
 * Precompiled fallback routes (docs/trust-model.md §29): only after same-route retries end unavailable,
 * only for explicitly read-only calls, with the whole chain preflighted before the primary is sent,
 * same provider first, each alternative with its own fingerprints, never broadening the planned fields.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import type { FallbackRoute, GovernedCall } from "../../../runtime/governed/fallback.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import type { ToolCall } from "../../../runtime/model/specs.js";
import type { RunEvent } from "../../../runtime/traces/events.js";
import { type Fault, type faultRouter, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const SEOUL = { city: "seoul", tempC: 21, humidity: 40 };
const OK: Fault = { reply: "json", body: SEOUL };
const BUSY: Fault = { reply: "status", status: 503 };
const FAST = new RetryPolicy({ maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 5 });

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const { server, router } = await startFaultRouter(cleanups, {
    availability: { cooldownMs: 0 },
    ...options,
  });
  const primary = pin(router, "weather", "current", { city: "seoul" }, ["city", "tempC"]);
  const mirror: FallbackRoute = {
    ...pin(router, "mirror", "current", { city: "seoul" }, ["city", "tempC"]),
    sameProvider: true,
  };
  const other: FallbackRoute = {
    ...pin(router, "other", "now", { city: "seoul" }, ["city", "temperature"]),
    sameProvider: false,
    fieldMap: { tempC: "temperature" },
  };
  return { server, router, primary, mirror, other };
}

const withFallbacks = (call: ToolCall, fallbacks: readonly FallbackRoute[]): GovernedCall => ({
  ...call,
  fallbacks,
});

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("fallback runs only after the route ends unavailable", () => {
  const unavailable: [string, Fault][] = [
    ["exhausted 5xx", BUSY],
    ["429", { reply: "status", status: 429, retryAfter: "0" }],
    ["connection resets", { reply: "reset" }],
  ];
  it.each(unavailable)("falls back to the same-provider alternative after %s", async (_name, fault) => {
    const { server, router, primary, mirror } = await setup();
    server.program("/weather/seoul", [], fault);
    server.program("/mirror/seoul", [], OK);
    const result = await router.call(withFallbacks(primary, [mirror]), { retry: FAST });
    expect(result).toMatchObject({
      tool: "mirror",
      endpoint: "current",
      data: { city: "seoul", tempC: 21 },
      endpointFingerprint: mirror.endpointFingerprint,
      toolFingerprint: mirror.toolFingerprint,
      attempts: 1,
    });
    expect(server.hits("/weather/seoul")).toBe(2);
  });

  it("falls back after a timeout", async () => {
    const { server, router, primary, mirror } = await setup({ timeoutMs: 100 });
    server.program("/weather/seoul", [], { reply: "hang" });
    server.program("/mirror/seoul", [], OK);
    await expect(router.call(withFallbacks(primary, [mirror]))).resolves.toMatchObject({ tool: "mirror" });
  }, 20_000);

  const final: [string, Fault, string][] = [
    ["a deterministic 4xx", { reply: "status", status: 404 }, "HTTP_STATUS"],
    ["an output contract violation", { reply: "json", body: { city: 5 } }, "OUTPUT_SCHEMA_VIOLATION"],
  ];
  it.each(final)("does not fall back after %s", async (_name, fault, code) => {
    const { server, router, primary, mirror } = await setup();
    server.program("/weather/seoul", [], fault);
    server.program("/mirror/seoul", [], OK);
    expect((await failure(router.call(withFallbacks(primary, [mirror]), { retry: FAST }))).code).toBe(code);
    expect(server.hits("/mirror/seoul")).toBe(0);
  });

  it("does not fall back after an approval refusal", async () => {
    const policy = new ExecutionPolicy({ approval: "all" });
    const { server, router, primary, mirror } = await setup({ policy, approve: () => false });
    expect((await failure(router.call(withFallbacks(primary, [mirror])))).code).toBe("APPROVAL_DENIED");
    expect(server.requests).toEqual([]);
  });

  it("tries same-provider alternatives first, then cross-provider ones (mapped fields)", async () => {
    const { server, router, primary, mirror, other } = await setup();
    server.program("/weather/seoul", [], BUSY);
    server.program("/mirror/seoul", [], BUSY);
    server.program("/other/seoul", [], {
      reply: "json",
      body: { city: "seoul", temperature: 20, humidity: 1 },
    });
    const events = await collect(router.stream({ calls: [withFallbacks(primary, [other, mirror])] }));
    const path = events.filter((event) => event.type === "tool.start").map((event) => event.tool);
    expect(path).toEqual(["weather", "mirror", "other"]);
    const fallbacks = events.filter((event) => event.type === "tool.fallback");
    expect(fallbacks).toMatchObject([
      { fromTool: "weather", toTool: "mirror", reason: "HTTP_STATUS" },
      { fromTool: "mirror", toTool: "other", reason: "HTTP_STATUS" },
    ]);
    expect(events.at(-2)).toMatchObject({ type: "tool.end", tool: "other", fields: ["city", "temperature"] });
    expect(events.at(-1)?.type).toBe("run.end");
  });

  it("reports INVOCATION_UNAVAILABLE with every cause when the whole chain is unavailable", async () => {
    const { server, router, primary, mirror, other } = await setup();
    for (const path of ["/weather/seoul", "/mirror/seoul", "/other/seoul"]) server.program(path, [], BUSY);
    const error = await failure(router.call(withFallbacks(primary, [mirror, other])));
    expect(error).toMatchObject({
      code: "INVOCATION_UNAVAILABLE",
      details: {
        route: "weather.current",
        fallbacks: ["mirror.current", "other.now"],
        causes: ["HTTP_STATUS", "HTTP_STATUS", "HTTP_STATUS"],
      },
    });
  });

  it("skips a primary in cooldown without sending to it", async () => {
    const { server, router, primary, mirror } = await setup({ availability: { cooldownMs: 60_000 } });
    server.program("/weather/seoul", [], BUSY);
    server.program("/mirror/seoul", [], OK);
    await router.call(withFallbacks(primary, [mirror]));
    expect(server.hits("/weather/seoul")).toBe(1);
    await expect(router.call(withFallbacks(primary, [mirror]))).resolves.toMatchObject({ tool: "mirror" });
    expect(server.hits("/weather/seoul")).toBe(1);
    expect(server.hits("/mirror/seoul")).toBe(2);
  });
});

describe("the whole chain is preflighted before the primary is sent", () => {
  it.each([
    [
      "a stale fallback fingerprint",
      { endpointFingerprint: `sha256:${"1".repeat(64)}` },
      "STALE_FINGERPRINT",
    ],
    [
      "a stale fallback tool fingerprint",
      { toolFingerprint: `sha256:${"2".repeat(64)}` },
      "STALE_TOOL_FINGERPRINT",
    ],
    ["an invalid fallback argument", { arguments: { city: "Not Valid" } }, "INPUT_SCHEMA_VIOLATION"],
    ["an undeclared fallback field", { fields: ["pressure"] }, "UNDECLARED_FIELD"],
    ["an unknown fallback tool", { tool: "nowhere" }, "UNKNOWN_TOOL"],
  ] as const)("refuses %s", async (_name, change, code) => {
    const { server, router, primary, mirror } = await setup();
    server.program("/weather/seoul", [], OK);
    const error = await failure(router.call(withFallbacks(primary, [{ ...mirror, ...change }])));
    expect(error).toMatchObject({ code, details: { fallback: 0, primary: "weather.current" } });
    expect(server.requests).toEqual([]);
  });

  it("refuses a fallback that selects fields the primary did not plan (broadens-fields)", async () => {
    const { server, router, primary, mirror } = await setup();
    const wider = { ...mirror, fields: ["city", "tempC", "humidity"] };
    const error = await failure(router.call(withFallbacks(primary, [wider])));
    expect(error).toMatchObject({
      code: "FALLBACK_REFUSED",
      details: { reason: "broadens-fields", fields: ["humidity"] },
    });
    const everything = { ...mirror, fields: undefined } as unknown as FallbackRoute;
    expect((await failure(router.call(withFallbacks(primary, [everything])))).details).toMatchObject({
      reason: "broadens-fields",
    });
    expect(server.requests).toEqual([]);
  });

  it("refuses a fieldMap that maps fields outside the planned need", async () => {
    const { router, primary, other } = await setup();
    const sneaky = {
      ...other,
      fields: ["city", "temperature", "humidity"],
      fieldMap: { tempC: "temperature", humidity: "humidity" },
    };
    const error = await failure(router.call(withFallbacks(primary, [sneaky])));
    expect(error).toMatchObject({ code: "FALLBACK_REFUSED", details: { reason: "broadens-fields" } });
    const unmapped = { ...other, fieldMap: undefined } as unknown as FallbackRoute;
    expect((await failure(router.call(withFallbacks(primary, [unmapped])))).details).toMatchObject({
      reason: "broadens-fields",
      fields: ["temperature"],
    });
  });

  it("refuses fallbacks of a call that is not read-only", async () => {
    const { server, router, mirror } = await setup({ policy: new ExecutionPolicy({ allowMutations: true }) });
    const write = pin(router, "weather", "report");
    const error = await failure(router.call(withFallbacks(write, [mirror])));
    expect(error).toMatchObject({ code: "FALLBACK_REFUSED", details: { reason: "primary-not-read-only" } });
    expect(server.requests).toEqual([]);
  });

  it("refuses a fallback that is not read-only", async () => {
    const { router, primary } = await setup({ policy: new ExecutionPolicy({ allowMutations: true }) });
    const write = pin(router, "writer", "report");
    const error = await failure(router.call(withFallbacks(primary, [write])));
    expect(error).toMatchObject({
      code: "FALLBACK_REFUSED",
      details: { reason: "not-read-only", fallback: 0 },
    });
  });

  it("refuses a fallback the policy denies (POLICY_DENIED)", async () => {
    const { PolicyRule } = await import("../../../runtime/boundary/policy.js");
    const policy = new ExecutionPolicy({
      rules: [new PolicyRule({ action: "deny", operation: "mirror.**" })],
    });
    const { server, router, primary, mirror } = await setup({ policy });
    expect((await failure(router.call(withFallbacks(primary, [mirror])))).code).toBe("POLICY_DENIED");
    expect(server.requests).toEqual([]);
  });

  it.each([
    ["the primary repeated", (s: Awaited<ReturnType<typeof setup>>) => [s.primary], "duplicate-route"],
    [
      "a fallback repeated",
      (s: Awaited<ReturnType<typeof setup>>) => [s.mirror, s.mirror],
      "duplicate-route",
    ],
    [
      "too many fallbacks",
      (s: Awaited<ReturnType<typeof setup>>) => Array.from({ length: 9 }, () => s.mirror),
      "too-many",
    ],
  ])("refuses %s", async (_name, build, reason) => {
    const state = await setup();
    const error = await failure(state.router.call(withFallbacks(state.primary, build(state))));
    expect(error).toMatchObject({ code: "FALLBACK_REFUSED", details: { reason } });
  });

  it("refuses a fallback list that is not an array", async () => {
    const { router, primary } = await setup();
    const error = await failure(router.call({ ...primary, fallbacks: "mirror" } as unknown as GovernedCall));
    expect(error).toMatchObject({ code: "FALLBACK_REFUSED", details: { reason: "malformed" } });
  });
});

describe("plans from the planner", () => {
  it("executes a planned call's precompiled fallbacks when its primary is unavailable", async () => {
    const { server, router } = await setup();
    const plan = router.plan({
      query: "current temperature",
      fields: ["tempC"],
      arguments: { city: "seoul" },
      fallbacks: true,
    });
    const primary = plan.calls[0]!;
    const alternative = primary.fallbacks?.[0];
    expect(alternative).toBeDefined();
    server.program(`/${primary.tool === "weather" ? "weather" : "mirror"}/seoul`, [], BUSY);
    server.program(`/${alternative!.tool === "weather" ? "weather" : "mirror"}/seoul`, [], OK);
    const [result] = await router.invoke(plan);
    expect(result).toMatchObject({
      tool: alternative!.tool,
      data: { city: "seoul", tempC: 21 },
      endpointFingerprint: alternative!.endpointFingerprint,
    });
  });
});
