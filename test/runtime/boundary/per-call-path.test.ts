/**
 * The per-call path's shortcuts keep the boundary's guarantees (issue 8, target 5): the invoker gets
 * one frozen, detached copy of the checked call; a prepared call is re-checked in full whenever the
 * registry, the endpoint contract or the binding it was prepared with was replaced; remembered field
 * selections answer exactly as a fresh check; the default RunConfig equals the validated one; the
 * HTTP exchange bounds, aborts and samples as the stream reader did.
 */
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import type { InvocationContext } from "../../../runtime/boundary/invoker.js";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import { selectFields } from "../../../runtime/boundary/projection.js";
import { InvocationError } from "../../../runtime/errors/errors.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { type RunConfig, resolveRunConfig } from "../../../runtime/governed/config.js";
import type { EndpointSpec, FieldSpec } from "../../../runtime/model/specs.js";
import {
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
    availability: { cooldownMs: 0 },
    ...options,
  });
  return { server, router, seoul: pin(router, "weather", "current", { city: "seoul" }) };
}

describe("the call an invoker receives", () => {
  it("is frozen, arguments included, and detached from the caller's object", async () => {
    const { router, seoul } = await setup();
    const seen: InvocationContext[] = [];
    router.bind("weather", {
      invoke: async (context) => {
        seen.push(context);
        return OK.reply === "json" ? OK.body : null;
      },
    });
    const args: Record<string, unknown> = { city: "seoul" };
    const pending = router.call({ ...seoul, arguments: args });
    args.city = "busan";
    await pending;
    const call = seen[0]!.call;
    expect(call.arguments).toEqual({ city: "seoul" });
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(typeof seen[0]!.onStop).toBe("function");
  });

  it("carries frozen field IDs equal to the call's, whether or not the selection was seen before", async () => {
    const { router } = await setup();
    const seen: InvocationContext[] = [];
    router.bind("weather", {
      invoke: async (context) => {
        seen.push(context);
        return OK.reply === "json" ? OK.body : null;
      },
    });
    const selections = [["tempC"], ["tempC"], ["humidity", "tempC"], ["tempC"]];
    for (const fields of selections) {
      const requested = [...fields];
      const pending = router.call(pin(router, "weather", "current", { city: "seoul" }, requested));
      requested.push("city");
      await pending;
    }
    expect(seen.map((context) => context.call.fields)).toEqual(selections);
    for (const context of seen) expect(Object.isFrozen(context.call.fields)).toBe(true);
    expect(() => (seen[1]!.call.fields as string[]).push("city")).toThrow(TypeError);
    expect(seen[3]!.call.fields).toEqual(["tempC"]);
  });

  it("refuses an invoker's attempt to change it (TOOL_ERROR), so a retry sends what was checked", async () => {
    const { router, seoul } = await setup();
    router.bind("weather", {
      invoke: async (context) => {
        (context.call.arguments as Record<string, unknown>).city = "elsewhere";
        return null;
      },
    });
    const error = await failure(router.call(seoul));
    expect(error.code).toBe("TOOL_ERROR");
  });

  it("keeps an own __proto__ argument as data, without touching prototypes", async () => {
    const { router, seoul } = await setup();
    const seen: unknown[] = [];
    router.bind("weather", {
      invoke: async (context) => {
        seen.push(context.call.arguments);
        return null;
      },
    });
    const args = JSON.parse('{"city":"seoul","__proto__":{"polluted":true}}') as Record<string, unknown>;
    // The input schema refuses the undeclared argument; the copy made before that must be inert.
    const error = await failure(router.call({ ...seoul, arguments: args }));
    expect(error.code).toBe("UNDECLARED_ARGUMENT");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it("copies non-plain argument data the way structuredClone does (and refuses what it cannot copy)", async () => {
    const { router, seoul } = await setup();
    const error = await failure(router.call({ ...seoul, arguments: { city: () => "seoul" } }));
    expect(error.code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(error.message).toContain("could not be copied");
  });
});

describe("re-checks of a prepared call", () => {
  it("re-checks in full when the tool is replaced while an approval is pending (STALE_FINGERPRINT)", async () => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    server.program("/weather/seoul", [], OK);
    const router = faultRouter(server, {
      policy: new ExecutionPolicy({ approval: "all" }),
      approve: async () => {
        router.replaceTool({
          tool: {
            ...WEATHER,
            endpoints: WEATHER.endpoints.map((endpoint) => ({ ...endpoint, description: "changed" })),
          },
          source: "meteo",
          sourceKind: "openapi",
          defs: {},
        });
        return true;
      },
    });
    cleanups.push(() => router.close());
    const error = await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    expect(error.code).toBe("STALE_FINGERPRINT");
    expect(server.hits("/weather/seoul")).toBe(0);
  });

  it("re-checks in full when the tool is re-bound during a before-hook (the new binding runs the call)", async () => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    server.program("/weather/seoul", [], OK);
    const router = faultRouter(server, {
      hooks: {
        before: [
          () => {
            router.bind("weather", { invoke: async () => ({ city: "seoul", tempC: 0, humidity: 0 }) });
          },
        ],
      },
    });
    cleanups.push(() => router.close());
    const result = await router.call(pin(router, "weather", "current", { city: "seoul" }));
    // The new binding is for the same tool contract: the call runs through it, not the old invoker.
    expect(result.data).toMatchObject({ tempC: 0 });
    expect(server.hits("/weather/seoul")).toBe(0);
  });
});

describe("remembered field selections", () => {
  const endpoint = WEATHER.endpoints[0]! as EndpointSpec;
  const ids = endpoint.fields.map((field: FieldSpec) => field.id);

  it("answer like a fresh check: same fields in declaration order, whatever the argument order", () => {
    const forward = selectFields(endpoint, ids, "weather.current");
    const backward = selectFields(endpoint, [...ids].reverse(), "weather.current");
    expect(backward.map((field) => field.id)).toEqual(forward.map((field) => field.id));
    expect(selectFields(endpoint, ids, "weather.current")).toBe(forward);
    expect(Object.isFrozen(forward)).toBe(true);
  });

  it("never remember a refusal: an undeclared or repeated field is refused every time", () => {
    for (let i = 0; i < 3; i++) {
      expect(() => selectFields(endpoint, ["nope"], "weather.current")).toThrow(/does not declare/);
      expect(() => selectFields(endpoint, [ids[0]!, ids[0]!], "weather.current")).toThrow(/selected twice/);
    }
  });

  it("never confuse two different lists that join to the same text", () => {
    expect(() => selectFields(endpoint, [], "weather.current")).toThrow(/fields is empty/);
    expect(() => selectFields(endpoint, [""], "weather.current")).toThrow(/does not declare/);
    selectFields(endpoint, [ids[0]!, ids[1]!], "weather.current");
    expect(() => selectFields(endpoint, [`${ids[0]}\u0000${ids[1]}`], "weather.current")).toThrow(
      /does not declare/,
    );
  });

  it("keep refusing non-string IDs (no key is made for them)", () => {
    expect(() => selectFields(endpoint, [1 as unknown as string], "weather.current")).toThrow(
      /does not declare/,
    );
  });
});

describe("the default RunConfig", () => {
  it("is the validated config of an empty object, with a fresh run id each time", () => {
    const fast = resolveRunConfig({});
    const full = resolveRunConfig({ mode: "sequential" });
    const { runId: a, ...restFast } = fast;
    const { runId: b, ...restFull } = full;
    expect(restFast).toEqual(restFull);
    expect(Object.isFrozen(fast)).toBe(true);
    expect(a).not.toBe(b);
    expect(resolveRunConfig({}).runId).not.toBe(a);
  });
});

describe("run stops", () => {
  it("an invoker's onStop listener that throws never keeps the wall-clock budget from ending the call", async () => {
    const { router, seoul } = await setup();
    router.bind("weather", {
      invoke: (context) => {
        context.onStop?.(() => {
          throw new Error("listener failed");
        });
        return new Promise(() => {});
      },
    });
    const error = await failure(router.call(seoul, { budget: new ExecutionBudget({ maxWallClockMs: 100 }) }));
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", details: { limit: "wallClock" } });
  }, 10_000);

  it("a caller abort aborts the request in flight and names the route it stopped (RUN_ABORTED)", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [{ reply: "hang" }], OK);
    const controller = new AbortController();
    const pending = router.call(seoul, { signal: controller.signal });
    await expect.poll(() => server.inFlight.current, { timeout: 5_000 }).toBe(1);
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({
      code: "RUN_ABORTED",
      details: { route: "weather.current", reason: "signal" },
    });
    expect(error.message).toMatch(/^weather\.current: /);
    await expect.poll(() => server.inFlight.current, { timeout: 5_000 }).toBe(0);
  });

  it("options a RunConfig inherits are not skipped by the empty-config fast path", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    const inherited = Object.create({ budget: new ExecutionBudget({ maxCalls: 0 }) }) as RunConfig;
    const error = await failure(router.call(seoul, inherited));
    expect(error.code).toBe("BUDGET_EXCEEDED");
    expect(server.hits("/weather/seoul")).toBe(0);
  });
});

describe("the HTTP exchange", () => {
  it("works with a dispatcher that speaks only the older undici handler API", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], OK);
    const { Agent } = await import("undici");
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const legacyMethods = ["onConnect", "onHeaders", "onData", "onComplete", "onError"] as const;
    // What an undici 6 Agent accepts: the five legacy callbacks, and nothing of the new API.
    const legacyOnly = {
      dispatch(options: object, handler: Record<string, unknown>) {
        for (const method of legacyMethods)
          if (typeof handler[method] !== "function") throw new TypeError(`invalid ${method} method`);
        const forwarded = Object.fromEntries(
          legacyMethods.map((method) => [
            method,
            (handler[method] as (...a: unknown[]) => unknown).bind(handler),
          ]),
        );
        return agent.dispatch(options as never, forwarded as never);
      },
    };
    const { createHttpInvoker } = await import("../../../runtime/transports/http/transport.js");
    router.bind("weather", createHttpInvoker({ baseUrl: server.url, dispatcher: legacyOnly }));
    const result = await router.call(seoul);
    expect(result.data).toMatchObject({ city: "seoul" });
    server.program("/weather/seoul", [], { reply: "status", status: 503 });
    const error = await failure(router.call(seoul));
    expect(error).toMatchObject({ code: "HTTP_STATUS", details: { status: 503 } });
  });

  it("skips 1xx informational responses and reads the final one", async () => {
    const server = createServer((_request, response) => {
      response.writeEarlyHints({ link: "</style.css>; rel=preload" });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ city: "seoul", tempC: 3, humidity: 1 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const address = server.address() as { port: number };
    const fault = await startFaultServer();
    cleanups.push(() => fault.close());
    const router = faultRouter(fault, {});
    cleanups.push(() => router.close());
    const { createHttpInvoker } = await import("../../../runtime/transports/http/transport.js");
    router.bind("weather", createHttpInvoker({ baseUrl: `http://127.0.0.1:${address.port}` }));
    const result = await router.call(pin(router, "weather", "current", { city: "seoul" }));
    expect(result.data).toMatchObject({ tempC: 3 });
  });

  it("reports a body cut off mid-way as unavailable, never as partial JSON", async () => {
    const { server, router, seoul } = await setup();
    server.program("/weather/seoul", [], { reply: "truncate", body: OK.reply === "json" ? OK.body : {} });
    const error = await failure(router.call(seoul));
    expect(error).toBeInstanceOf(InvocationError);
    expect(error.code).toBe("INVOCATION_UNAVAILABLE");
    expect(error.message).toContain("reading the response");
  });
});
