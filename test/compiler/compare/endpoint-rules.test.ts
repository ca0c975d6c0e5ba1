/** Endpoint rules: declared fields, effect, execution (method, path, auth, body, statuses), projection, names. */
import { describe, expect, it } from "vitest";
import { compareEndpoints, RULES_VERSION } from "../../../compiler/compare/compare.js";
import { DefinitionSet, endpointFingerprint } from "../../../runtime/format/fingerprint.js";
import { bare, expectRule, snap } from "./fixtures.js";
import { ENDPOINT_CASES, FIELD_CASES, HTTP, PARAMETER_CASES, SCHEMA_CASES } from "./rule-cases.js";

describe("declared field rules", () => {
  it.each(FIELD_CASES)("%s", (_name, { given, want }) => {
    expectRule(compareEndpoints(snap(given[0]), snap(given[1])), want);
  });
});

describe("endpoint rules", () => {
  it.each(ENDPOINT_CASES)("%s", (_name, { given, want }) => {
    expectRule(compareEndpoints(snap(given[0]), snap(given[1])), want);
  });

  it("classifies identical endpoints as identical, and ignores descriptive metadata", () => {
    for (const [a, b] of [
      [HTTP, bare()],
      [HTTP, bare({ metadata: { docs: "https://docs.example.com" } })],
    ] as const) {
      const report = compareEndpoints(snap(a, { x: { type: "string" } }), snap(b, { x: { type: "string" } }));
      expect(report).toEqual({ rulesVersion: RULES_VERSION, category: "identical", changes: [] });
    }
  });

  it("is identical exactly when the endpoint fingerprint is unchanged", () => {
    const cases = [
      // (every case but the one whose $ref does not resolve, which the fingerprint refuses)
      ...SCHEMA_CASES.filter(([, c]) => !JSON.stringify(c.given).includes("$ref")).map(
        ([, c]) => [bare({ outputSchema: c.given[0] }), bare({ outputSchema: c.given[1] })] as const,
      ),
      ...PARAMETER_CASES.map(([, c]) => c.given),
      ...FIELD_CASES.map(([, c]) => c.given),
      ...ENDPOINT_CASES.map(([, c]) => c.given),
    ];
    for (const [a, b] of cases) {
      const changed =
        endpointFingerprint(a, new DefinitionSet({})) !== endpointFingerprint(b, new DefinitionSet({}));
      expect(changed).toBe(true);
      expect(compareEndpoints(snap(a), snap(b)).category).not.toBe("identical");
    }
  });
});
