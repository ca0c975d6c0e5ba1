/** Comparison through shared definitions: `$ref`s into `$defs`, renamed and inlined definitions, recursion and its budget. */
import { describe, expect, it } from "vitest";
import { compareEndpoints, compareSources, type Definitions } from "../../../compiler/compare/compare.js";
import type { JsonSchema } from "../../../runtime/model/specs.js";
import { bare, expectRule, REF_TOOL, snap, source, USER_DEFS } from "./fixtures.js";

describe("$ref through shared definitions", () => {
  it("finds a change to a shared definition in each endpoint (and each place) that uses it", () => {
    const report = compareSources(
      source({ tools: [REF_TOOL], defs: USER_DEFS(39) }),
      source({ tools: [REF_TOOL], defs: USER_DEFS(20) }),
    );
    expect(report.changes.map((c) => [c.pointer, c.rule, c.definition, c.endpoint])).toEqual([
      [
        "/tools/github/endpoints/issues~1assign/parameters/assignee/schema/properties/login/maxLength",
        "request.constraint.tightened",
        "user",
        "issues/assign",
      ],
      [
        "/tools/github/endpoints/repos~1get/outputSchema/properties/organization/properties/login/maxLength",
        "response.constraint.tightened",
        "user",
        "repos/get",
      ],
      [
        "/tools/github/endpoints/repos~1get/outputSchema/properties/owner/properties/login/maxLength",
        "response.constraint.tightened",
        "user",
        "repos/get",
      ],
    ]);
    expect(report.category).toBe("breaking");
  });

  it("compares a single endpoint through its defs", () => {
    const endpoint = bare({ outputSchema: { $ref: "#/$defs/repo" } });
    const report = compareEndpoints(snap(endpoint, USER_DEFS(39)), snap(endpoint, USER_DEFS(50)));
    expect(report.changes.map((c) => c.rule)).toEqual([
      "response.constraint.loosened",
      "response.constraint.loosened",
    ]);
    expect(report.category).toBe("breaking");
    expect(
      compareEndpoints(
        snap(endpoint, USER_DEFS(39)),
        snap(endpoint, { ...USER_DEFS(39), label: { type: "null" } }),
      ).category,
    ).toBe("identical");
  });

  it("compares an inlined definition with the reference it replaced", () => {
    const defs = USER_DEFS(39);
    const inlined = bare({
      outputSchema: {
        ...(defs.user as object),
        properties: { login: { type: "string", maxLength: 39 }, id: { type: "integer" } },
      },
    });
    const report = compareEndpoints(
      snap(bare({ outputSchema: { $ref: "#/$defs/user" } }), defs),
      snap(inlined, defs),
    );
    expect(report.changes.map((c) => [c.rule, c.pointer])).toEqual([
      ["response.property.optional-added", "/outputSchema/properties/id"],
    ]);
  });

  it("follows a renamed definition and keeps sibling keywords of $ref", () => {
    const before = snap(bare({ outputSchema: { $ref: "#/$defs/a", description: "old" } }), {
      a: { type: "string" },
    });
    const after = snap(bare({ outputSchema: { $ref: "#/$defs/b", description: "new" } }), {
      b: { type: "string" },
    });
    expect(compareEndpoints(before, after).changes.map((c) => [c.rule, c.pointer])).toEqual([
      ["schema.annotation-changed", "/outputSchema/description"],
    ]);
  });

  it("refuses to guess when a $ref with constraining siblings is restructured", () => {
    const before = snap(bare({ inputSchema: { $ref: "#/$defs/s", minLength: 1 } }), {
      s: { type: "string", minLength: 2 },
    });
    const after = snap(bare({ inputSchema: { type: "string", minLength: 2 } }));
    expectRule(compareEndpoints(before, after), {
      category: "breaking",
      rule: "schema.unknown-change",
      pointer: "/inputSchema",
    });
  });
});

describe("recursive definitions", () => {
  const tree = (nameType: string): Definitions => ({
    node: {
      type: "object",
      properties: { name: { type: nameType }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
    },
  });

  it("reports a change in a self-referencing definition once and terminates", () => {
    const endpoint = bare({ outputSchema: { $ref: "#/$defs/node" } });
    const report = compareEndpoints(snap(endpoint, tree("string")), snap(endpoint, tree("integer")));
    expect(report.changes.map((c) => [c.rule, c.pointer, c.definition])).toEqual([
      ["response.type.changed", "/outputSchema/properties/name/type", "node"],
    ]);
  });

  it("terminates on mutual recursion", () => {
    const defs = (max: number): Definitions => ({
      a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } },
      b: { type: "object", properties: { a: { $ref: "#/$defs/a" }, n: { type: "integer", maximum: max } } },
    });
    const endpoint = bare({ inputSchema: { $ref: "#/$defs/a" } });
    const report = compareEndpoints(snap(endpoint, defs(10)), snap(endpoint, defs(5)));
    expect(report.changes.map((c) => [c.rule, c.pointer])).toEqual([
      ["request.constraint.tightened", "/inputSchema/properties/b/properties/n/maximum"],
    ]);
  });

  it("gives up deterministically, as breaking, when shared definitions fan out too far", () => {
    const defs = (leaf: string): Definitions => {
      const out: Record<string, JsonSchema> = { d0: { type: leaf } };
      for (let i = 1; i <= 18; i += 1)
        out[`d${i}`] = {
          type: "object",
          properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } },
        };
      return out;
    };
    const endpoint = bare({ outputSchema: { $ref: "#/$defs/d18" } });
    const report = compareEndpoints(snap(endpoint, defs("string")), snap(endpoint, defs("integer")));
    expect(report.changes.filter((c) => c.rule === "schema.comparison-budget-exceeded")).toHaveLength(1);
    expect(report.category).toBe("breaking");
    expect(compareEndpoints(snap(endpoint, defs("string")), snap(endpoint, defs("integer")))).toEqual(report);
  });
});
