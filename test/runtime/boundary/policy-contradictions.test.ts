/**
 * A PolicyRule whose effect predicates no call can satisfy is refused when it is built
 * (POLICY_INVALID), instead of silently never matching (docs/runtime/governed-execution.md).
 */
import { describe, expect, it } from "vitest";
import { PolicyRule, type PolicyRuleOptions } from "../../../runtime/boundary/policy.js";

const rule = (options: Omit<PolicyRuleOptions, "action" | "operation">) =>
  new PolicyRule({ action: "deny", operation: "gh.*", ...options });

describe("contradictory policy rules", () => {
  it("readOnly and unclassified together are POLICY_INVALID, naming both", () => {
    expect(() => rule({ readOnly: true, unclassified: true })).toThrow(
      expect.objectContaining({
        code: "POLICY_INVALID",
        message:
          'PolicyRule: readOnly: true, unclassified: true contradict each other, so the rule "gh.*" could never match. Keep one of them.',
        details: { option: "unclassified" },
      }),
    );
  });

  it.each<[string, Omit<PolicyRuleOptions, "action" | "operation">]>([
    ["readOnly with destructive", { readOnly: true, destructive: true }],
    ["effects write with readOnly", { effects: ["write"], readOnly: true }],
    ["effects read with destructive", { effects: ["read"], destructive: true }],
    ["effects read with readOnly false", { effects: ["read"], readOnly: false }],
  ])("%s is refused", (_name, options) => {
    expect(() => rule(options)).toThrow(expect.objectContaining({ code: "POLICY_INVALID" }));
  });

  it.each<[string, Omit<PolicyRuleOptions, "action" | "operation">]>([
    ["readOnly false with unclassified", { readOnly: false, unclassified: true }],
    ["effects write, destructive with destructive", { effects: ["write", "destructive"], destructive: true }],
    ["remote with readOnly", { remote: true, readOnly: true }],
    ["a single predicate", { unclassified: true }],
  ])("%s still builds and matches", (_name, options) => {
    expect(rule(options)).toBeInstanceOf(PolicyRule);
  });
});
