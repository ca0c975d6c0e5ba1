/**
 * Tool sets: selections (all, named routes with fixed fields, retrieve, plan), pins fixed at build
 * time, refusal shapes, the approvals bridge's exact binding, and a missing framework peer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentApprovals, AgentToolSet } from "../../../runtime/agents/index.js";
import { loadPeer } from "../../../runtime/agents/peer.js";
import { refusalOf } from "../../../runtime/agents/refusal.js";
import { pinnedCall } from "../../../runtime/agents/tool-set.js";
import { ExecutionPolicy } from "../../../runtime/boundary/policy.js";
import {
  CallRefusedError,
  InvocationError,
  InvocationUnavailableError,
} from "../../../runtime/errors/errors.js";
import { type ShopFixture, seen, startShop } from "../../helpers/agents.js";

let shop: ShopFixture;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(() => shop.close());

describe("AgentToolSet.build", () => {
  it("selects all, named routes (with fixed fields), retrieved or planned capabilities", async () => {
    const router = await shop.load();
    expect(AgentToolSet.build(router).tools.map((tool) => tool.route)).toEqual([
      "shop.getPet",
      "shop.createPet",
      "shop.getBroken",
      "shop.lookupCode",
    ]);
    const named = AgentToolSet.build(router, {
      select: [{ route: "shop.getPet", fields: ["name"] }, "shop.getBroken"],
    });
    expect(named.tools.map((tool) => [tool.name, tool.fields])).toEqual([
      ["shop_getPet", ["name"]],
      ["shop_getBroken", undefined],
    ]);
    expect(await named.execute("shop_getPet", { petId: "rex" })).toEqual({ ok: true, data: { name: "Rex" } });
    const retrieved = AgentToolSet.build(router, { select: { retrieve: { query: "pet" }, k: 2 } });
    expect(retrieved.tools.map((tool) => tool.route)).toEqual(["shop.getPet", "shop.createPet"]);
    const planned = AgentToolSet.build(router, {
      select: { plan: { query: "pet name", effects: ["read"], arguments: { petId: "rex" } } },
    });
    expect(planned.tools.map((tool) => tool.route)).toEqual(["shop.getPet"]);
    expect(planned.tools[0]!.fields).toContain("name");
    expect(AgentToolSet.build(router, { effects: ["write"] }).tools.map((tool) => tool.route)).toEqual([
      "shop.createPet",
    ]);
  });

  it("fixes the pins at build time and never lets the model supply them", async () => {
    const router = await shop.load();
    const set = AgentToolSet.build(router, { select: ["shop.getPet"] });
    const tool = set.get("shop_getPet")!;
    expect(tool.endpointFingerprint).toBe(router.registry.get("shop")!.endpointFingerprints.get("getPet"));
    // Extra keys are arguments, refused as undeclared; they cannot override the pins or the fields.
    const outcome = await set.execute("shop_getPet", { petId: "rex", endpointFingerprint: "sha256:0" });
    expect(outcome).toMatchObject({ ok: false, code: "UNDECLARED_ARGUMENT", retryable: true });
    expect(await set.execute("shop_getPet", ["rex"])).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
    expect(await set.execute("nope", {})).toMatchObject({ code: "UNKNOWN_TOOL" });
  });

  it("refuses a bad selection with a typed error", async () => {
    const router = await shop.load();
    for (const select of [["shop.nothing"], ["noDot"], { neither: true }] as const) {
      expect(() => AgentToolSet.build(router, { select: select as never })).toThrow(
        expect.objectContaining({ code: "AGENT_TOOLS_INVALID" }),
      );
    }
    expect(() =>
      AgentToolSet.build(router, { select: [{ route: "shop.getPet", fields: ["nope"] }] }),
    ).toThrow(expect.objectContaining({ code: "UNDECLARED_FIELD" }));
  });

  it("marks strict only what was asked for and provably fits", async () => {
    const router = await shop.load();
    const strict = AgentToolSet.build(router, { strict: true });
    expect(strict.get("shop_getPet")!.strict).toBe(true);
    expect(AgentToolSet.build(router).get("shop_getPet")!.strict).toBe(false);
  });

  it("throws application errors (a bad RunConfig) instead of handing them to the model", async () => {
    const set = AgentToolSet.build(await shop.load());
    await expect(set.execute("shop_getPet", { petId: "rex" }, { concurrency: -1 })).rejects.toMatchObject({
      code: "RUN_CONFIG_INVALID",
    });
  });
});

describe("refusals", () => {
  it.each([
    [
      "POLICY_DENIED",
      new CallRefusedError("POLICY_DENIED", "shop.createPet (write) is refused: secret reason", {
        reason: "secret reason",
        route: "shop.createPet",
        effect: "write",
        remote: true,
      }),
      false,
    ],
    ["transient", new InvocationUnavailableError("boom http://10.0.0.1", { route: "shop.x" }), true],
    [
      "HTTP 404",
      new InvocationError("HTTP_STATUS", "404 body: remote text", {
        route: "shop.x",
        status: 404,
        detail: "remote text",
      }),
      false,
    ],
    ["not a SchemaRouterError", new Error("remote text"), false],
  ] as const)("%s", (_name, error, retryable) => {
    const refusal = refusalOf(error, { name: "shop_x" });
    expect(refusal).toMatchObject({ ok: false, retryable });
    expect(refusal.message.startsWith("shop_x: ")).toBe(true);
    expect(refusal.message).not.toMatch(/secret|remote text|10\.0\.0\.1/);
  });

  it("names declared parameters only", () => {
    const undeclared = refusalOf(
      new CallRefusedError("UNDECLARED_ARGUMENT", "", { route: "t.x", argument: "ignore all" }),
      {
        name: "t",
        parameters: new Set(["petId"]),
      },
    );
    expect(undeclared.message).not.toContain("ignore all");
    const missing = refusalOf(
      new CallRefusedError("MISSING_REQUIRED_ARGUMENT", "", { route: "t.x", argument: "petId" }),
      {
        name: "t",
        parameters: new Set(["petId"]),
      },
    );
    expect(missing.message).toContain('Argument: "petId".');
  });
});

describe("AgentApprovals", () => {
  it("approves exactly the granted call once; other arguments, pins or a released grant are refused", async () => {
    const approvals = new AgentApprovals();
    const policy = new ExecutionPolicy({ allowMutations: true, approval: "non-read-only" });
    const router = await shop.load({ policy, approve: approvals.approve });
    const set = AgentToolSet.build(router, { select: ["shop.createPet"] });
    const tool = set.get("shop_createPet")!;
    const before = shop.server.requests.length;

    const release = approvals.grant(pinnedCall(tool, { name: "Milo" }));
    expect(await set.execute(tool.name, { name: "Rex" })).toMatchObject({ code: "APPROVAL_DENIED" });
    expect(await set.execute(tool.name, { name: "Milo" })).toMatchObject({ ok: true });
    expect(await set.execute(tool.name, { name: "Milo" })).toMatchObject({ code: "APPROVAL_DENIED" });
    release();

    const stale = approvals.grant({
      ...pinnedCall(tool, { name: "Milo" }),
      endpointFingerprint: "sha256:old",
    });
    expect(await set.execute(tool.name, { name: "Milo" })).toMatchObject({ code: "APPROVAL_DENIED" });
    stale();
    expect(approvals.pending).toBe(0);
    const withdrawn = approvals.grant(pinnedCall(tool, { name: "Milo" }));
    withdrawn();
    expect(await set.execute(tool.name, { name: "Milo" })).toMatchObject({ code: "APPROVAL_DENIED" });
    expect(seen(shop.server).slice(before)).toEqual(["POST /pets"]);
  });

  it("passes requests no grant covers to the fallback callback", async () => {
    const asked: string[] = [];
    const approvals = new AgentApprovals({ fallback: (request) => asked.push(request.endpoint) > 0 });
    const policy = new ExecutionPolicy({ allowMutations: true, approval: "non-read-only" });
    const set = AgentToolSet.build(await shop.load({ policy, approve: approvals.approve }), {
      select: ["shop.createPet"],
    });
    expect(await set.execute("shop_createPet", { name: "Ada" })).toMatchObject({ ok: true });
    expect(asked).toEqual(["createPet"]);
  });
});

describe("optional peers", () => {
  it("a missing framework is a typed error naming the package to install", async () => {
    const missing = () =>
      Promise.reject(Object.assign(new Error("Cannot find package 'ai'"), { code: "ERR_MODULE_NOT_FOUND" }));
    await expect(loadPeer("ai", "aiSdkTools()", missing)).rejects.toMatchObject({
      code: "OPTIONAL_DEPENDENCY_MISSING",
      message: "aiSdkTools() needs the optional peer dependency ai: run `npm install ai`.",
      details: { dependency: "ai" },
    });
  });
});
