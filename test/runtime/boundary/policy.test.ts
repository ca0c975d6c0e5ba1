/**
 * Local execution policy (docs/trust-model.md §11 and §25): category defaults that block remote
 * mutations, destructive and unclassified remote operations; ordered PolicyRules (allow / deny /
 * require-approval) over a bounded, validated `tool.endpoint` glob (tool and endpoint parts matched
 * separately) with side-effect predicates; first match wins, then the defaults. Rules and policies come
 * only from local code (POLICY_INVALID).
 */
import { describe, expect, it } from "vitest";
import {
  ExecutionPolicy,
  PolicyRule,
  type PolicyRuleOptions,
  type PolicySubject,
} from "../../../runtime/boundary/policy.js";
import { Registry, registerTool } from "../../../runtime/load/registry.js";
import type { Effect, ToolSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { faultRouter, pin, startFaultServer } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";

const subject = (tool: string, endpoint: string, effect: Effect = "read", remote = true): PolicySubject => ({
  tool,
  endpoint,
  effect,
  remote,
});

describe("category defaults", () => {
  it.each([
    ["read", true, {}, true],
    ["write", true, {}, false],
    ["write", true, { allowMutations: true }, true],
    ["destructive", true, { allowMutations: true }, false],
    ["destructive", true, { allowDestructive: true }, true],
    ["unclassified", true, {}, false],
    ["unclassified", true, { allowUnclassifiedRemote: true }, true],
    ["unclassified", false, {}, true],
  ] as const)("%s (remote %s) with %j → allowed %s", (effect, remote, options, allowed) => {
    const decision = new ExecutionPolicy(options).decide(subject("t", "e", effect, remote));
    expect(decision.allowed).toBe(allowed);
  });
});

describe("PolicyRule globs", () => {
  it.each([
    ["github.repos/get", "github.repos/get", true],
    ["github.*", "github.repos/get", true],
    ["*.repos/get", "github.repos/get", true],
    // Tool and endpoint are matched separately: `*` in the endpoint part covers dots too.
    ["github.*", "github.a.b", true],
    ["github.**", "github.a.b", true],
    ["github.a.*", "github.a.b", true],
    ["github.a.*", "github.x.b", false],
    ["gh.*", "ghx.purge", false],
    ["*.purge", "gh.admin.purge", false],
    ["*.**purge", "gh.admin.purge", true],
    ["*.admin.purge", "gh.admin.purge", true],
    ["**", "anything.at.all", true],
    ["git*.repos/*", "github.repos/get", true],
    ["github.repos/get", "github.repos/getx", false],
    ["github.repos/{id}", "github.repos/{id}", true],
    ["*", "github.get", false],
  ])("%s matches %s: %s", (operation, route, expected) => {
    const [tool, ...rest] = route.split(".");
    const rule = new PolicyRule({ action: "deny", operation });
    expect(rule.matches(subject(tool!, rest.join(".")))).toBe(expected);
  });

  it.each([
    // [pattern, tool, endpoint, matches]: the old joined `tool.endpoint` text was ambiguous here.
    ["a.*", "a", "b.c", true],
    ["a.*", "a.b", "c", false],
    ["a.b.*", "a", "b.c", true],
    ["a.b.*", "a.b", "c", false],
    ["*.c", "a.b", "c", true],
    ["a.b.c", "a", "b.c", true],
  ] as const)("%s against tool %s, endpoint %s: %s", (operation, tool, endpoint, expected) => {
    const rule = new PolicyRule({ action: "deny", operation });
    expect(rule.matches(subject(tool, endpoint))).toBe(expected);
  });

  it("matches adversarial patterns without backtracking blow-up", () => {
    const rule = new PolicyRule({
      action: "deny",
      operation: "**a**a**a**a**a**a**a**a**a**a**a**a**a**a**a**b",
    });
    expect(rule.matches(subject("a".repeat(200), "a".repeat(200)))).toBe(false);
  });

  it.each([
    ["an unknown action", { action: "grant", operation: "x.y" }],
    ["an empty pattern", { action: "deny", operation: "" }],
    ["a too long pattern", { action: "deny", operation: "a".repeat(257) }],
    ["a pattern with regex characters", { action: "deny", operation: "x.(y|z)" }],
    ["a pattern with spaces", { action: "deny", operation: "x. y" }],
    ["a triple wildcard", { action: "deny", operation: "x.***" }],
    ["too many wildcards", { action: "deny", operation: Array.from({ length: 17 }, () => "*").join(".") }],
    ["an unknown option (typo)", { action: "deny", operation: "x.y", readonly: true }],
    ["a non-boolean predicate", { action: "deny", operation: "x.y", remote: "yes" }],
    ["unknown effects", { action: "deny", operation: "x.y", effects: ["delete"] }],
    ["empty effects", { action: "deny", operation: "x.y", effects: [] }],
  ])("refuses %s (POLICY_INVALID)", (_name, options) => {
    expect(() => new PolicyRule(options as unknown as PolicyRuleOptions)).toThrow(
      expect.objectContaining({ code: "POLICY_INVALID" }),
    );
  });

  it("is frozen", () => {
    const rule = new PolicyRule({ action: "deny", operation: "x.y" });
    expect(Object.isFrozen(rule)).toBe(true);
  });
});

describe("ordered rules", () => {
  it("applies the first matching rule, then the category defaults", () => {
    const policy = new ExecutionPolicy({
      rules: [
        new PolicyRule({ action: "deny", operation: "github.repos/delete" }),
        new PolicyRule({ action: "allow", operation: "github.**", destructive: true }),
        new PolicyRule({ action: "require-approval", operation: "github.**", effects: ["write"] }),
        new PolicyRule({ action: "deny", operation: "**", remote: true, readOnly: true }),
      ],
    });
    expect(policy.decide(subject("github", "repos/delete", "destructive"))).toMatchObject({ allowed: false });
    expect(policy.decide(subject("github", "issues/lock", "destructive"))).toMatchObject({
      allowed: true,
      approvalRequired: false,
      reason: "allowed by rule #1 (allow github.**)",
    });
    expect(policy.decide(subject("github", "issues/create", "write"))).toMatchObject({
      allowed: true,
      approvalRequired: true,
    });
    expect(policy.decide(subject("github", "repos/get", "read"))).toMatchObject({
      allowed: false,
      reason: "denied by rule #3 (deny **)",
    });
    expect(policy.decide(subject("local", "get", "read", false))).toMatchObject({ allowed: true });
    expect(policy.decide(subject("other", "write", "write"))).toMatchObject({ allowed: false });
  });

  it.each([
    ["remote", { remote: false }, subject("t", "e", "read", false), true],
    ["remote", { remote: false }, subject("t", "e", "read", true), false],
    ["readOnly", { readOnly: false }, subject("t", "e", "write"), true],
    ["destructive", { destructive: true }, subject("t", "e", "write"), false],
    ["unclassified", { unclassified: true }, subject("t", "e", "unclassified"), true],
    ["effects", { effects: ["write", "destructive"] as Effect[] }, subject("t", "e", "read"), false],
  ])("predicate %s %j", (_name, predicate, target, matches) => {
    const rule = new PolicyRule({ action: "deny", operation: "**", ...predicate });
    expect(rule.matches(target)).toBe(matches);
  });

  it("keeps the approval mode on top of allow rules", () => {
    const policy = new ExecutionPolicy({
      approval: "non-read-only",
      rules: [new PolicyRule({ action: "allow", operation: "t.*" })],
    });
    expect(policy.decide(subject("t", "w", "write"))).toMatchObject({
      allowed: true,
      approvalRequired: true,
    });
    expect(policy.decide(subject("t", "r", "read"))).toMatchObject({
      allowed: true,
      approvalRequired: false,
    });
  });

  it.each([
    ["rules that are plain objects", { rules: [{ action: "allow", operation: "**" }] }],
    ["rules that are not an array", { rules: "allow **" }],
    ["an unknown approval mode", { approval: "sometimes" }],
    ["a non-boolean switch", { allowMutations: "true" }],
    ["an unknown option (typo)", { allowMutation: true }],
  ])("refuses %s (POLICY_INVALID)", (_name, options) => {
    expect(() => new ExecutionPolicy(options as never)).toThrow(
      expect.objectContaining({ code: "POLICY_INVALID" }),
    );
  });

  it("is frozen, with a frozen rule list", () => {
    const policy = new ExecutionPolicy({ rules: [new PolicyRule({ action: "deny", operation: "**" })] });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.rules)).toBe(true);
  });
});

describe("policy at the execution boundary", () => {
  const cleanups = cleanupAfterEach();

  it("refuses denied calls with POLICY_DENIED before anything is sent", async () => {
    const server = await startFaultServer();
    cleanups.push(() => server.close());
    server.program("/weather/seoul", [], { reply: "json", body: { city: "seoul" } });
    const policy = new ExecutionPolicy({
      allowMutations: true,
      rules: [
        new PolicyRule({ action: "deny", operation: "weather.current" }),
        new PolicyRule({ action: "allow", operation: "weather.purge" }),
      ],
    });
    const router = faultRouter(server, { policy });
    cleanups.push(() => router.close());
    await expect(router.call(pin(router, "weather", "current", { city: "seoul" }))).rejects.toMatchObject({
      code: "POLICY_DENIED",
      details: { reason: "denied by rule #0 (deny weather.current)" },
    });
    await expect(router.call(pin(router, "weather", "purge"))).rejects.toMatchObject({ code: "HTTP_STATUS" });
    expect(server.requests.map((request) => request.path)).toEqual(["/weather/cache"]);
  });

  it("denies every endpoint of a tool matched by `tool.*`, even one whose name contains dots", async () => {
    const tool: ToolSpec = {
      name: "gh",
      namespace: "gh",
      description: "t",
      provider: "P",
      accessMode: "local",
      remote: false,
      execution: { transport: "local", module: "x" },
      endpoints: [
        {
          name: "admin.purge",
          description: "d",
          effect: "destructive",
          parameters: [],
          inputSchema: { type: "object", additionalProperties: false },
          outputSchema: { type: "object" },
          fields: [{ id: "a", path: ["a"] }],
          execution: { kind: "local", function: "f" },
        },
      ],
    };
    const registered = registerTool({ tool, source: "gh", sourceKind: "local", defs: {} });
    const policy = new ExecutionPolicy({
      allowMutations: true,
      allowDestructive: true,
      rules: [new PolicyRule({ action: "deny", operation: "gh.*" })],
    });
    const router = SchemaRouter.fromRegistry(new Registry([registered]), { policy });
    cleanups.push(() => router.close());
    let invoked = 0;
    router.bind("gh", {
      invoke: async () => {
        invoked++;
        return { a: "purged" };
      },
    });
    await expect(
      router.call({
        tool: "gh",
        endpoint: "admin.purge",
        arguments: {},
        endpointFingerprint: registered.endpointFingerprints.get("admin.purge")!,
        toolFingerprint: registered.fingerprint,
      }),
    ).rejects.toMatchObject({ code: "POLICY_DENIED", details: { reason: "denied by rule #0 (deny gh.*)" } });
    expect(invoked).toBe(0);
  });
});
