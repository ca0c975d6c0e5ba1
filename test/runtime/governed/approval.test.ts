/**
 * Per-call approval (docs/trust-model.md §18): a trusted callback (sync or async) gates individual calls
 * after the schema and policy checks; missing, rejecting, throwing, non-true or timing out → refused
 * (APPROVAL_DENIED), and nothing is sent. The request is a detached, frozen description.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../../runtime/boundary/executor.js";
import { ExecutionPolicy, PolicyRule } from "../../../runtime/boundary/policy.js";
import {
  faultRouter,
  OK_READING as OK,
  pin,
  startFaultServer,
  WEATHER,
} from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { failure } from "../../helpers/refusal.js";

const cleanups = cleanupAfterEach();

async function setup(options: Parameters<typeof faultRouter>[1] = {}) {
  const server = await startFaultServer();
  cleanups.push(() => server.close());
  server.program("/weather/seoul", [], OK);
  server.program("/weather/report", [], { reply: "json", body: {} });
  const router = faultRouter(server, { availability: { cooldownMs: 0 }, ...options });
  cleanups.push(() => router.close());
  return { server, router, seoul: pin(router, "weather", "current", { city: "seoul" }, ["tempC"]) };
}

const ALL = new ExecutionPolicy({ approval: "all" });

describe("approval fails closed", () => {
  const cases: [string, Parameters<typeof faultRouter>[1], string][] = [
    ["no callback", { policy: ALL }, "missing-callback"],
    ["a rejecting callback", { policy: ALL, approve: () => false }, "rejected"],
    ["an async rejecting callback", { policy: ALL, approve: async () => false }, "rejected"],
    ["a truthy non-true verdict", { policy: ALL, approve: () => "yes" as unknown as boolean }, "rejected"],
    [
      "a throwing callback",
      {
        policy: ALL,
        approve: () => {
          throw new Error("boom");
        },
      },
      "callback-error",
    ],
    [
      "a rejecting promise",
      { policy: ALL, approve: () => Promise.reject(new Error("boom")) },
      "callback-error",
    ],
    [
      "a callback that never answers",
      { policy: ALL, approve: () => new Promise(() => {}), approvalTimeoutMs: 30 },
      "timeout",
    ],
  ];
  it.each(cases)("refuses the call with %s and sends nothing", async (_name, options, reason) => {
    const { server, router, seoul } = await setup(options);
    expect(await failure(router.call(seoul))).toMatchObject({ code: "APPROVAL_DENIED", details: { reason } });
    expect(server.requests).toEqual([]);
  });

  it("runs the call when the callback (sync or async) answers exactly true", async () => {
    for (const approve of [() => true, async () => true]) {
      const { router, seoul } = await setup({ policy: ALL, approve });
      await expect(router.call(seoul)).resolves.toMatchObject({ data: { tempC: 21 } });
    }
  });
});

describe("when approval is asked", () => {
  it("asks after the schema and policy checks only", async () => {
    const asked: ApprovalRequest[] = [];
    const { router, seoul } = await setup({ policy: ALL, approve: (request) => asked.push(request) > 0 });
    expect((await failure(router.call({ ...seoul, arguments: { city: "??" } }))).code).toBe(
      "INPUT_SCHEMA_VIOLATION",
    );
    expect((await failure(router.call(pin(router, "weather", "report")))).code).toBe("POLICY_DENIED");
    expect(asked).toEqual([]);
  });

  it.each([
    ["never", "current", false],
    ["never", "report", false],
    ["non-read-only", "current", false],
    ["non-read-only", "report", true],
    ["all", "current", true],
  ] as const)("approval mode %s on %s asks: %s", async (mode, endpoint, expected) => {
    let asked = false;
    const policy = new ExecutionPolicy({ approval: mode, allowMutations: true });
    const { router } = await setup({
      policy,
      approve: () => {
        asked = true;
        return true;
      },
    });
    const args = endpoint === "current" ? { city: "seoul" } : {};
    await router.call(pin(router, "weather", endpoint, args));
    expect(asked).toBe(expected);
  });

  it("asks for calls a require-approval rule matches, even when the mode says never", async () => {
    const policy = new ExecutionPolicy({
      rules: [new PolicyRule({ action: "require-approval", operation: "weather.current" })],
    });
    const { server, router, seoul } = await setup({ policy, approve: () => false });
    expect((await failure(router.call(seoul))).code).toBe("APPROVAL_DENIED");
    await expect(router.call(pin(router, "mirror", "current", { city: "seoul" }))).rejects.toMatchObject({
      code: "HTTP_STATUS",
    });
    expect(server.hits("/weather/seoul")).toBe(0);
  });

  it("gives the callback a detached, frozen request with the run identity", async () => {
    const asked: ApprovalRequest[] = [];
    const { router, seoul } = await setup({ policy: ALL, approve: (request) => asked.push(request) > 0 });
    await router.invoke([seoul], { runId: "approval-run" });
    expect(asked[0]).toEqual({
      tool: "weather",
      endpoint: "current",
      endpointFingerprint: seoul.endpointFingerprint,
      toolFingerprint: seoul.toolFingerprint,
      effect: "read",
      remote: true,
      arguments: { city: "seoul" },
      fields: ["tempC"],
      reason: "allowed by category defaults",
      runId: "approval-run",
      callIndex: 0,
    });
    expect(Object.isFrozen(asked[0]!.arguments)).toBe(true);
  });

  it("re-checks the contract after an async approval (STALE_* when it changed meanwhile)", async () => {
    let replace: () => void = () => {};
    const { server, router, seoul } = await setup({
      policy: ALL,
      approve: async () => {
        replace();
        return true;
      },
    });
    replace = () =>
      router.replaceTool({
        tool: { ...WEATHER, description: "changed while waiting" },
        source: "weather",
        sourceKind: "openapi",
        defs: {},
      });
    expect((await failure(router.call(seoul))).code).toBe("STALE_TOOL_FINGERPRINT");
    expect(server.requests).toEqual([]);
  });
});
