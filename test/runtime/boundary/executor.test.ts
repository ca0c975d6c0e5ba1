/**
 * One test per execution-boundary invariant (docs/trust-model.md, core invariants), each asserting the
 * error code. Uses a local tool so the checks are exercised without any network.
 */
import { describe, expect, it } from "vitest";
import type { Invoker } from "../../../runtime/boundary/invoker.js";
import { ExecutionPolicy, PolicyRule } from "../../../runtime/boundary/policy.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { ToolCall, ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { defineLocalTool, localToolSpec } from "../../../runtime/transports/local/transport.js";

const store = new Map<
  string,
  { id: string; name: string; profile: { city: string; secret: string }; temps: number[] }
>([["a", { id: "a", name: "Ada", profile: { city: "Seoul", secret: "internal" }, temps: [0, 100] }]]);

const people = defineLocalTool({
  name: "people",
  endpoints: [
    {
      name: "get",
      effect: "read",
      input: {
        type: "object",
        properties: { id: { type: "string", pattern: "^[a-z]+$" }, verbose: { type: "boolean" } },
        required: ["id"],
        additionalProperties: false,
      },
      output: {
        type: "object",
        required: ["id", "name"],
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          profile: { type: "object", properties: { city: { type: "string" }, secret: { type: "string" } } },
          temps: { type: "array", items: { type: "number" } },
        },
      },
      fields: [
        { id: "id", path: ["id"], identifier: true },
        { id: "name", path: ["name"] },
        { id: "profile", path: ["profile"] },
        { id: "city", path: ["profile", "city"] },
        {
          id: "temps_k",
          path: ["temps"],
          unit: "degC",
          normalization: { canonicalUnit: "K", scale: 1, offset: 273.15 },
        },
      ],
      handler: (args) => store.get(String(args.id)) ?? { id: String(args.id), name: 42 },
    },
    {
      name: "rename",
      effect: "write",
      input: { type: "object", properties: {} },
      output: {},
      handler: () => ({}),
    },
    {
      name: "purge",
      effect: "destructive",
      input: { type: "object", properties: {} },
      output: {},
      handler: () => ({}),
    },
  ],
});

function setup(
  options: {
    policy?: ExecutionPolicy;
    approve?: () => boolean | Promise<boolean>;
    approvalTimeoutMs?: number;
  } = {},
) {
  const registry = new Registry([
    registerTool({ tool: localToolSpec(people), source: "people", sourceKind: "local", defs: {} }),
  ]);
  const router = SchemaRouter.fromRegistry(registry, { local: { people }, ...options });
  const registered = router.registry.get("people")!;
  const call = (endpoint: string, args: Record<string, unknown>, fields?: string[]): ToolCall => ({
    tool: "people",
    endpoint,
    arguments: args,
    ...(fields ? { fields } : {}),
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  });
  return { router, call };
}

describe("execution boundary", () => {
  it.each([
    ["unknown tool", { tool: "nobody" }, "UNKNOWN_TOOL"],
    ["unknown endpoint", { endpoint: "nothing" }, "UNKNOWN_ENDPOINT"],
    ["missing fingerprints", { endpointFingerprint: undefined }, "MISSING_FINGERPRINT"],
    ["stale endpoint fingerprint", { endpointFingerprint: "sha256:old" }, "STALE_FINGERPRINT"],
    ["stale tool fingerprint", { toolFingerprint: "sha256:old" }, "STALE_TOOL_FINGERPRINT"],
    ["undeclared argument", { arguments: { id: "a", extra: 1 } }, "UNDECLARED_ARGUMENT"],
    ["missing required argument (forged call)", { arguments: {} }, "MISSING_REQUIRED_ARGUMENT"],
    ["schema violation (pattern)", { arguments: { id: "NOT-LOWER" } }, "INPUT_SCHEMA_VIOLATION"],
    ["schema violation (type)", { arguments: { id: "a", verbose: "yes" } }, "INPUT_SCHEMA_VIOLATION"],
    ["undeclared field / forged path", { fields: ["profile.secret"] }, "UNDECLARED_FIELD"],
    ["overlapping fields", { fields: ["profile", "city"] }, "OVERLAPPING_FIELDS"],
    ["duplicate field", { fields: ["name", "name"] }, "OVERLAPPING_FIELDS"],
  ] as const)("refuses %s", async (_name, change, code) => {
    const { router, call } = setup();
    const forged = { ...call("get", { id: "a" }), ...change } as ToolCall;
    await expect(router.call(forged)).rejects.toMatchObject({ code });
  });

  it("returns only the selected declared fields, keeping nested object shape", async () => {
    const { router, call } = setup();
    const result = await router.call(call("get", { id: "a" }, ["name", "city"]));
    expect(result.data).toEqual({ name: "Ada", profile: { city: "Seoul" } });
  });

  it("applies declared unit normalization to every value", async () => {
    const { router, call } = setup();
    const result = await router.call(call("get", { id: "a" }, ["temps_k"]));
    expect(result.data).toEqual({ temps: [273.15, 373.15] });
  });

  it("copies projected values: mutating a result cannot touch the invoker's data", async () => {
    const { router, call } = setup();
    const result = await router.call(call("get", { id: "a" }, ["profile"]));
    (result.data as { profile: { city: string } }).profile.city = "changed";
    expect(store.get("a")!.profile.city).toBe("Seoul");
  });

  it("validates the raw output before projection (a bad unselected field still fails)", async () => {
    const { router, call } = setup();
    await expect(router.call(call("get", { id: "zz" }, ["id"]))).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
    });
  });

  it("blocks write and destructive endpoints unless local policy opts in", async () => {
    const closed = setup();
    await expect(closed.router.call(closed.call("rename", {}))).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await expect(closed.router.call(closed.call("purge", {}))).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    const mutations = setup({ policy: new ExecutionPolicy({ allowMutations: true }) });
    await expect(mutations.router.call(mutations.call("rename", {}))).resolves.toMatchObject({ attempts: 1 });
    await expect(mutations.router.call(mutations.call("purge", {}))).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    const destructive = setup({ policy: new ExecutionPolicy({ allowDestructive: true }) });
    await expect(destructive.router.call(destructive.call("purge", {}))).resolves.toMatchObject({
      attempts: 1,
    });
  });

  it("refuses an unbound tool (binding not ready)", async () => {
    const registry = new Registry([
      registerTool({ tool: localToolSpec(people), source: "people", sourceKind: "local", defs: {} }),
    ]);
    const router = SchemaRouter.fromRegistry(registry);
    const registered = registry.get("people")!;
    await expect(
      router.call({
        tool: "people",
        endpoint: "get",
        arguments: { id: "a" },
        endpointFingerprint: registered.endpointFingerprints.get("get")!,
        toolFingerprint: registered.fingerprint,
      }),
    ).rejects.toMatchObject({ code: "BINDING_NOT_READY" });
    expect(router.isReady("people")).toBe(false);
  });

  it("refuses a stale invoker binding after the tool contract is replaced", async () => {
    const { router } = setup();
    const changed: ToolSpec = { ...localToolSpec(people), description: "replaced contract" };
    router.replaceTool({ tool: changed, source: "people", sourceKind: "local", defs: {} });
    const current = router.registry.get("people")!;
    const call: ToolCall = {
      tool: "people",
      endpoint: "get",
      arguments: { id: "a" },
      endpointFingerprint: current.endpointFingerprints.get("get")!,
      toolFingerprint: current.fingerprint,
    };
    await expect(router.call(call)).rejects.toMatchObject({ code: "STALE_BINDING" });
    expect(router.isReady("people")).toBe(false);
    const invoker: Invoker = { invoke: async () => ({ id: "a", name: "Rebound" }) };
    router.bind("people", invoker);
    await expect(router.call({ ...call, fields: ["name"] })).resolves.toMatchObject({
      data: { name: "Rebound" },
    });
  });

  it("gates calls needing approval and fails closed when the callback is missing, rejects, throws or times out", async () => {
    const policy = new ExecutionPolicy({
      rules: [new PolicyRule({ action: "require-approval", operation: "people.get" })],
    });
    const missing = setup({ policy });
    await expect(missing.router.call(missing.call("get", { id: "a" }))).rejects.toMatchObject({
      code: "APPROVAL_DENIED",
      details: { reason: "missing-callback" },
    });
    const rejecting = setup({ policy, approve: () => false });
    await expect(rejecting.router.call(rejecting.call("get", { id: "a" }))).rejects.toMatchObject({
      code: "APPROVAL_DENIED",
      details: { reason: "rejected" },
    });
    const throwing = setup({
      policy,
      approve: () => {
        throw new Error("boom");
      },
    });
    await expect(throwing.router.call(throwing.call("get", { id: "a" }))).rejects.toMatchObject({
      code: "APPROVAL_DENIED",
      details: { reason: "callback-error" },
    });
    const slow = setup({ policy, approve: () => new Promise<boolean>(() => {}), approvalTimeoutMs: 20 });
    await expect(slow.router.call(slow.call("get", { id: "a" }))).rejects.toMatchObject({
      code: "APPROVAL_DENIED",
      details: { reason: "timeout" },
    });
    const approving = setup({ policy, approve: async () => true });
    await expect(approving.router.call(approving.call("get", { id: "a" }, ["name"]))).resolves.toMatchObject({
      data: { name: "Ada" },
    });
  });

  it("detaches arguments: mutating the caller's object after the call starts changes nothing", async () => {
    let seen: unknown;
    const { router, call } = setup();
    router.bind("people", {
      invoke: async (context) => {
        seen = context.call.arguments;
        return { id: "a", name: "x" };
      },
    });
    const args = { id: "a" };
    const pending = router.call(call("get", args, ["name"]));
    args.id = "tampered";
    await pending;
    expect(seen).toEqual({ id: "a" });
  });
});

describe("prototype-safe contracts", () => {
  const base = localToolSpec(people);
  const withEndpoint = (patch: Partial<ToolSpec["endpoints"][number]>): ToolSpec => ({
    ...base,
    endpoints: [{ ...base.endpoints[0]!, ...patch }],
  });

  it.each([
    ["a __proto__ field path segment", { fields: [{ id: "x", path: ["__proto__", "polluted"] }] }],
    [
      "a constructor result path segment",
      { fields: [{ id: "x", path: ["name"], resultPath: ["constructor"] }] },
    ],
    [
      "a __proto__ parameter",
      { parameters: [{ name: "__proto__", location: "argument" as const, required: false, schema: {} }] },
    ],
    [
      "wildcards at different positions",
      { fields: [{ id: "t", path: ["temps", "*"], resultPath: ["a", "b", "*"] }] },
    ],
  ])("refuses to register %s", (_name, patch) => {
    expect(() =>
      registerTool({ tool: withEndpoint(patch), source: "people", sourceKind: "local", defs: {} }),
    ).toThrow(expect.objectContaining({ code: "ARTIFACT_INVALID" }));
  });

  it("an explicit empty field selection is refused before the call, never the whole raw output", async () => {
    const { router, call } = setup();
    await expect(router.call(call("get", { id: "a" }, []))).rejects.toMatchObject({
      code: "NO_FIELDS_SELECTED",
    });
  });

  it("recomputes required arguments from own properties only (inherited names do not count)", async () => {
    const spec = withEndpoint({
      parameters: [{ name: "toString", location: "argument", required: true, schema: {} }],
      inputSchema: { type: "object", properties: { toString: {} }, required: ["toString"] },
    });
    const registry = new Registry([
      registerTool({ tool: spec, source: "people", sourceKind: "local", defs: {} }),
    ]);
    const router = SchemaRouter.fromRegistry(registry, {
      bindings: { people: { invoker: { invoke: async () => ({ id: "a", name: "x" }) } } },
    });
    const registered = registry.get("people")!;
    await expect(
      router.call({
        tool: "people",
        endpoint: "get",
        arguments: {},
        endpointFingerprint: registered.endpointFingerprints.get("get")!,
        toolFingerprint: registered.fingerprint,
      }),
    ).rejects.toMatchObject({ code: "MISSING_REQUIRED_ARGUMENT" });
  });

  it("freezes shared definitions and does not reveal the inventory to a forged call", async () => {
    const defs = { Thing: { type: "object" } };
    const registered = registerTool({ tool: base, source: "people", sourceKind: "local", defs });
    expect(Object.isFrozen(registered.defs.defs.Thing)).toBe(true);
    const { router, call } = setup();
    const error = await router.call({ ...call("get", { id: "a" }), tool: "nobody" }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: "UNKNOWN_TOOL" });
    expect((error as Error).message).not.toContain("people");
  });
});
