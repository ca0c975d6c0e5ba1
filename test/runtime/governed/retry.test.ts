/**
 * Same-route retries (docs/trust-model.md, core invariants): only transient failures (timeouts, connection
 * errors, 408/425/429/5xx), only read-only calls unless local code opts in, bounded exponential
 * backoff that honours Retry-After within limits, never validation/policy/4xx/application errors.
 * Driven for real over HTTP against the fault-injecting server.
 */
import { describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import {
  CallRefusedError,
  InvocationError,
  InvocationUnavailableError,
  NonRetryableInvocationError,
} from "../../../runtime/errors/errors.js";
import { isTransient, RetryPolicy, retryAfterMs } from "../../../runtime/governed/retry.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import {
  type Fault,
  type faultRouter,
  OK_READING as OK,
  pin,
  startFaultRouter,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const FAST = new RetryPolicy({ maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 });

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const { server, router } = await startFaultRouter(cleanups, {
    availability: { cooldownMs: 0 },
    ...options,
  });
  return { server, router };
}

describe("transient failures of read-only calls are retried on the same route", () => {
  const transient: [string, Fault][] = [
    ["HTTP 503", { reply: "status", status: 503 }],
    ["HTTP 500", { reply: "status", status: 500 }],
    ["HTTP 429", { reply: "status", status: 429, retryAfter: "0" }],
    ["HTTP 408", { reply: "status", status: 408 }],
    ["HTTP 425", { reply: "status", status: 425 }],
    ["a connection reset", { reply: "reset" }],
    ["a truncated body", { reply: "truncate", body: { city: "seoul", tempC: 21, humidity: 40 } }],
  ];
  it.each(transient)("retries after %s and succeeds", async (_name, fault) => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [fault, fault], OK);
    const result = await router.call(pin(router, "weather", "current", { city: "seoul" }, ["tempC"]), {
      retry: FAST,
    });
    expect(result).toMatchObject({ data: { tempC: 21 }, attempts: 3 });
    expect(server.hits("/weather/seoul")).toBe(3);
  });

  it("retries a timeout (slow server beyond the binding timeout)", async () => {
    const { server, router } = await setup({ timeoutMs: 100 });
    server.program("/weather/seoul", [{ reply: "hang" }], OK);
    const result = await router.call(pin(router, "weather", "current", { city: "seoul" }), { retry: FAST });
    expect(result.attempts).toBe(2);
  }, 20_000);

  it("stops after maxAttempts and reports the last transient error", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [], { reply: "status", status: 503 });
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), { retry: FAST }),
    );
    expect(error).toMatchObject({ code: "HTTP_STATUS", details: { status: 503 } });
    expect(server.hits("/weather/seoul")).toBe(3);
  });

  it("makes one attempt without a retry policy (the default)", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 503 }], OK);
    const error = await failure(router.call(pin(router, "weather", "current", { city: "seoul" })));
    expect(error.code).toBe("HTTP_STATUS");
    expect(server.hits("/weather/seoul")).toBe(1);
  });
});

describe("what is never retried", () => {
  const permanent: [string, Fault, string][] = [
    ["HTTP 404", { reply: "status", status: 404 }, "HTTP_STATUS"],
    ["HTTP 400", { reply: "status", status: 400 }, "HTTP_STATUS"],
    ["HTTP 403", { reply: "status", status: 403 }, "HTTP_STATUS"],
    ["an output contract violation", { reply: "json", body: { city: 7 } }, "OUTPUT_SCHEMA_VIOLATION"],
    ["a non-JSON body", { reply: "raw", text: "<html>busy</html>" }, "RESPONSE_NOT_JSON"],
  ];
  it.each(permanent)("does not retry %s", async (_name, fault, code) => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [fault], OK);
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), { retry: FAST }),
    );
    expect(error.code).toBe(code);
    expect(server.hits("/weather/seoul")).toBe(1);
  });

  it.each([
    ["validation", { arguments: { city: "NOT VALID" } }, "INPUT_SCHEMA_VIOLATION"],
    ["staleness", { endpointFingerprint: `sha256:${"0".repeat(64)}` }, "STALE_FINGERPRINT"],
  ] as const)("refuses %s before any attempt", async (_name, change, code) => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [], OK);
    const call = { ...pin(router, "weather", "current", { city: "seoul" }), ...change };
    expect((await failure(router.call(call, { retry: FAST }))).code).toBe(code);
    expect(server.requests).toEqual([]);
  });

  it("does not retry a policy refusal", async () => {
    const { server, router } = await setup();
    expect((await failure(router.call(pin(router, "weather", "report"), { retry: FAST }))).code).toBe(
      "POLICY_DENIED",
    );
    expect(server.requests).toEqual([]);
  });

  it("does not retry a write call unless local code opts in (retryNonReadOnly)", async () => {
    const { server, router } = await setup({ policy: new ExecutionPolicy({ allowMutations: true }) });
    server.program("/weather/report", [{ reply: "status", status: 503 }], { reply: "json", body: {} });
    const error = await failure(router.call(pin(router, "weather", "report"), { retry: FAST }));
    expect(error.code).toBe("HTTP_STATUS");
    expect(server.hits("/weather/report")).toBe(1);
    const optIn = new RetryPolicy({ maxAttempts: 3, initialDelayMs: 1, retryNonReadOnly: true });
    server.program("/weather/report", [{ reply: "status", status: 503 }], { reply: "json", body: {} });
    await expect(router.call(pin(router, "weather", "report"), { retry: optIn })).resolves.toMatchObject({
      attempts: 2,
    });
  });

  it("honours Retry-After within maxRetryAfterMs and stops retrying beyond it", async () => {
    const { server, router } = await setup();
    server.program("/weather/seoul", [{ reply: "status", status: 429, retryAfter: "120" }], OK);
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), { retry: FAST }),
    );
    expect(error).toMatchObject({ code: "HTTP_STATUS", details: { status: 429 } });
    expect(server.hits("/weather/seoul")).toBe(1);
  });
});

describe("trusted invokers and other transports", () => {
  const mcpLike: ToolSpec = {
    name: "remote",
    namespace: "remote",
    description: "an MCP-shaped tool bound to a trusted custom invoker",
    provider: "remote",
    accessMode: "mcp",
    remote: true,
    execution: { transport: "mcp", server: "http", identity: "http://127.0.0.1:1/mcp" },
    endpoints: (["read", "unclassified"] as const).map((effect) => ({
      name: effect,
      description: effect,
      effect,
      parameters: [],
      inputSchema: { type: "object", properties: {} },
      outputSchema: {},
      fields: [],
      execution: { kind: "mcp", toolName: effect },
    })),
  };

  function counting(errors: readonly unknown[]) {
    let calls = 0;
    const registry = new Registry([
      registerTool({ tool: mcpLike, source: "remote", sourceKind: "mcp", defs: {} }),
    ]);
    const router = SchemaRouter.fromRegistry(registry, {
      policy: new ExecutionPolicy({ allowUnclassifiedRemote: true }),
      availability: { cooldownMs: 0 },
      bindings: {
        remote: {
          invoker: {
            invoke: async () => {
              const error = errors[calls++];
              if (error !== undefined) throw error;
              return { ok: true };
            },
          },
        },
      },
    });
    return { router, count: () => calls };
  }

  it("never retries an MCP call that is not classified read-only", async () => {
    const unavailable = new InvocationUnavailableError("server crashed", { reason: "connection" });
    const { router, count } = counting([unavailable, unavailable]);
    expect((await failure(router.call(pin(router, "remote", "unclassified"), { retry: FAST }))).code).toBe(
      "INVOCATION_UNAVAILABLE",
    );
    expect(count()).toBe(1);
    const read = counting([unavailable]);
    await expect(
      read.router.call(pin(read.router, "remote", "read"), { retry: FAST }),
    ).resolves.toMatchObject({
      attempts: 2,
    });
  });

  it.each([
    ["NonRetryableInvocationError", new NonRetryableInvocationError("no such record")],
    [
      "TOOL_ERROR even when marked retryable",
      new InvocationError("TOOL_ERROR", "app error", {}, { retryable: true }),
    ],
    ["a plain Error (becomes TOOL_ERROR)", new Error("bug")],
    ["a CallRefusedError", new CallRefusedError("TRANSPORT_REFUSED", "refused")],
  ])("does not retry %s", async (_name, error) => {
    const { router, count } = counting([error, error]);
    const caught = await failure(router.call(pin(router, "remote", "read"), { retry: FAST }));
    expect(caught.code).toBe(
      error instanceof InvocationError || error instanceof CallRefusedError ? error.code : "TOOL_ERROR",
    );
    expect(count()).toBe(1);
  });
});

describe("RetryPolicy", () => {
  it("computes bounded exponential backoff and honours Retry-After", () => {
    const policy = new RetryPolicy({
      initialDelayMs: 100,
      maxDelayMs: 350,
      multiplier: 2,
      maxRetryAfterMs: 1000,
    });
    const transient = new InvocationError(
      "HTTP_STATUS",
      "503",
      { route: "api.get", status: 503, detail: "" },
      { retryable: true },
    );
    expect([1, 2, 3, 4].map((n) => policy.delayBeforeRetry(n, transient))).toEqual([100, 200, 350, 350]);
    const asked = (retryAfter: string) =>
      new InvocationError(
        "HTTP_STATUS",
        "429",
        { route: "api.get", status: 429, detail: "", retryAfter },
        { retryable: true },
      );
    expect(policy.delayBeforeRetry(1, asked("0.5"))).toBe(100);
    expect(policy.delayBeforeRetry(1, asked("1"))).toBe(1000);
    expect(policy.delayBeforeRetry(1, asked("2"))).toBeUndefined();
    const now = Date.parse("2025-01-01T00:00:00.000Z");
    expect(retryAfterMs(asked("Wed, 01 Jan 2025 00:00:01 GMT"), now)).toBe(1000);
    expect(retryAfterMs(asked("soon"), now)).toBeUndefined();
    expect(policy.allowsRetry("read")).toBe(true);
    expect(policy.allowsRetry("write")).toBe(false);
    expect(policy.allowsRetry("unclassified")).toBe(false);
    expect(RetryPolicy.NONE.maxAttempts).toBe(1);
  });

  it("classifies transient failures", () => {
    expect(isTransient(new InvocationUnavailableError("timeout"))).toBe(true);
    expect(
      isTransient(new InvocationError("HTTP_STATUS", "404", { route: "api.get", status: 404, detail: "" })),
    ).toBe(false);
    expect(isTransient(new NonRetryableInvocationError("nope"))).toBe(false);
    expect(isTransient(new CallRefusedError("INPUT_SCHEMA_VIOLATION", "bad"))).toBe(false);
    expect(isTransient(new Error("plain"))).toBe(false);
  });

  it.each([
    [{ maxAttempts: 0 }],
    [{ maxAttempts: 11 }],
    [{ maxAttempts: 1.5 }],
    [{ initialDelayMs: -1 }],
    [{ multiplier: 0.5 }],
    [{ retryNonReadOnly: "yes" }],
    [{ retries: 3 }],
  ])("refuses invalid options %j (RUN_CONFIG_INVALID)", (options) => {
    expect(() => new RetryPolicy(options as never)).toThrow(
      expect.objectContaining({ code: "RUN_CONFIG_INVALID" }),
    );
  });

  it("refuses a retry policy that is not a RetryPolicy instance (RUN_CONFIG_INVALID)", async () => {
    const { router } = await setup();
    const error = await failure(
      router.call(pin(router, "weather", "current", { city: "seoul" }), {
        retry: { maxAttempts: 5 } as never,
      }),
    );
    expect(error.code).toBe("RUN_CONFIG_INVALID");
  });
});
