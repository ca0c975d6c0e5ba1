/** Tool rules: endpoints added and removed, identity, provider, access mode, remote flag and execution. */
import { describe, expect, it } from "vitest";
import { compareTools, RULES_VERSION } from "../../../compiler/compare/compare.js";
import { expectRule, tool, tsnap } from "./fixtures.js";
import { TOOL_CASES } from "./rule-cases.js";

describe("tool rules", () => {
  it.each(TOOL_CASES)("%s", (_name, { given, want }) => {
    const report = compareTools(tsnap(given[0]), tsnap(given[1]));
    expectRule(report, want);
    for (const change of report.changes) expect(change.tool).toBe(given[1].name);
  });

  it("classifies identical tools as identical", () => {
    expect(compareTools(tsnap(tool()), tsnap(tool({ metadata: { note: "x" } })))).toEqual({
      rulesVersion: RULES_VERSION,
      category: "identical",
      changes: [],
    });
  });
});
