/** Parameter rules: added, removed, required, moved, renamed on the wire, described, reordered. */
import { describe, expect, it } from "vitest";
import { compareEndpoints } from "../../../compiler/compare/compare.js";
import type { EndpointSpec } from "../../../runtime/model/specs.js";
import { expectRule, OWNER, PER_PAGE, snap, withParams } from "./fixtures.js";
import { PARAMETER_CASES } from "./rule-cases.js";

describe("parameter rules", () => {
  it.each(PARAMETER_CASES)("%s", (_name, { given, want }) => {
    expectRule(compareEndpoints(snap(given[0]), snap(given[1])), want);
  });

  it("reports a parameter change once, not again under the input schema that repeats it", () => {
    const report = compareEndpoints(
      snap(withParams([PER_PAGE])),
      snap(withParams([{ ...PER_PAGE, schema: { type: "integer", maximum: 50 } }])),
    );
    expect(report.changes.map((c) => `${c.rule} ${c.pointer}`)).toEqual([
      "request.constraint.tightened /parameters/per_page/schema/maximum",
      "request.constraint.removed /parameters/per_page/schema/minimum",
    ]);
  });

  it("still compares input schema properties that do not match their parameter", () => {
    const before = withParams([OWNER]);
    const after: EndpointSpec = {
      ...before,
      inputSchema: { ...(before.inputSchema as object), additionalProperties: true },
    };
    expectRule(compareEndpoints(snap(before), snap(after)), {
      category: "compatible",
      rule: "request.additional-properties.allowed",
      pointer: "/inputSchema/additionalProperties",
    });
  });
});
