/** The comparison report: worst-of aggregation, ordering, the rule table, and the text and Markdown renderings. */
import { describe, expect, it } from "vitest";
import {
  type ChangeCategory,
  categoryRank,
  compareEndpoints,
  compareLocks,
  compareSources,
  compareTools,
  formatReportMarkdown,
  formatReportText,
  mergeReports,
  RULES,
  worst,
} from "../../../compiler/compare/compare.js";
import {
  bare,
  type Lock,
  MCP,
  mcpTool,
  OWNER,
  PER_PAGE,
  REF_TOOL,
  snap,
  source,
  tool,
  tsnap,
  USER_DEFS,
  withParams,
} from "./fixtures.js";
import {
  ENDPOINT_CASES,
  FIELD_CASES,
  LOCK_CASES,
  PARAMETER_CASES,
  SCHEMA_CASES,
  SOURCE_CASES,
  TOOL_CASES,
} from "./rule-cases.js";

describe("aggregation", () => {
  it.each([
    ["nothing", [], "identical"],
    ["compatible only", ["compatible", "identical"], "compatible"],
    ["breaking beats compatible", ["compatible", "breaking"], "breaking"],
    ["security-review beats breaking", ["breaking", "security-review", "compatible"], "security-review"],
  ] as const)("worst of %s", (_name, categories, want) => {
    expect(worst(categories)).toBe(want);
  });

  it("ranks categories for thresholds", () => {
    expect(
      ["identical", "compatible", "breaking", "security-review"].map((c) =>
        categoryRank(c as ChangeCategory),
      ),
    ).toEqual([0, 1, 2, 3]);
  });

  it("classifies the whole as the worst change, security-review outranking breaking", () => {
    const report = compareEndpoints(
      snap(withParams([OWNER, PER_PAGE])),
      snap(withParams([OWNER], { effect: "write", description: "x" })),
    );
    expect(new Set(report.changes.map((c) => c.category))).toEqual(
      new Set(["compatible", "breaking", "security-review"]),
    );
    expect(report.category).toBe("security-review");
  });

  it("merges reports and re-sorts them", () => {
    const a = compareTools(tsnap(tool()), tsnap(tool({ provider: "x" })));
    const b = compareTools(tsnap(tool()), tsnap(tool({ description: "y" })));
    const merged = mergeReports([a, b]);
    expect(merged.changes.map((c) => c.rule)).toEqual(["tool.description-changed", "tool.provider-changed"]);
    expect(merged.category).toBe("security-review");
  });

  it("orders changes by pointer, then rule, independent of input order", () => {
    const before = { github: source(), memory: source({ name: "memory", kind: "mcp", tools: [MCP] }) };
    const after = {
      memory: source({ name: "memory", kind: "mcp", tools: [mcpTool({ description: "new" })] }),
      github: source({ tools: [tool({ provider: "x", namespace: "y" })] }),
    };
    const report = compareLocks(before, after);
    const sorted = [...report.changes].sort((x, y) =>
      x.pointer < y.pointer ? -1 : x.pointer > y.pointer ? 1 : x.rule < y.rule ? -1 : 1,
    );
    expect(report.changes).toEqual(sorted);
    expect(report.changes.map((c) => c.pointer)).toEqual([
      "/sources/github/tools/github/namespace",
      "/sources/github/tools/github/provider",
      "/sources/memory/tools/memory/description",
    ]);
    expect(
      compareLocks(
        { memory: before.memory, github: before.github },
        { github: after.github, memory: after.memory },
      ),
    ).toEqual(report);
  });

  it("is diagnostic only: a report carries no pins", () => {
    const report = compareTools(tsnap(tool()), tsnap(tool({ remote: false })));
    expect(Object.keys(report).sort()).toEqual(["category", "changes", "rulesVersion"]);
    expect(JSON.stringify(report)).not.toMatch(/fingerprint/i);
  });
});

describe("rule table", () => {
  it("every rule is exercised by a case in rule-cases.ts", () => {
    const covered = new Set<string>([
      ...SCHEMA_CASES.flatMap(([, c]) => [c.want.request[1], c.want.response[1]]),
      ...[PARAMETER_CASES, FIELD_CASES, ENDPOINT_CASES].flatMap((t) => t.map(([, c]) => c.want.rule)),
      ...TOOL_CASES.map(([, c]) => c.want.rule),
      ...SOURCE_CASES.map(([, c]) => c.want.rule),
      ...LOCK_CASES.map(([, c]) => c.want.rule),
      "schema.annotation-changed.mcp",
      "schema.comparison-budget-exceeded",
    ]);
    expect(Object.keys(RULES).filter((id) => !covered.has(id))).toEqual([]);
  });

  it("gives every rule a category and a summary", () => {
    for (const [id, info] of Object.entries(RULES)) {
      expect(id).toMatch(/^[a-z]+(\.[a-z-]+)+$/);
      expect(["compatible", "breaking", "security-review"]).toContain(info.category);
      expect(info.summary.length).toBeGreaterThan(10);
    }
  });
});

const FORMAT_BEFORE: Lock = { github: source() };
const FORMAT_AFTER: Lock = {
  github: source({
    tools: [
      tool({
        endpoints: [
          withParams([OWNER, { ...PER_PAGE, description: "Results | page" }], {
            execution: { kind: "http", method: "post", path: "/things", successStatus: [200] },
          }),
        ],
      }),
    ],
  }),
};

describe("formatting", () => {
  const report = compareLocks(FORMAT_BEFORE, FORMAT_AFTER);

  it("renders plain text", () => {
    expect(formatReportText(report)).toBe(
      [
        "Capability changes: security-review (rules v1)",
        "2 changes (1 security-review, 1 compatible)",
        "",
        "security-review  endpoint.execution.method-to-unsafe",
        "  at /sources/github/tools/github/endpoints/repos~1get/execution/method",
        '  HTTP method changed from "get" to "post": the call may now change state',
        '  before: "get"',
        '  after:  "post"',
        "",
        "compatible  request.parameter.description-changed",
        "  at /sources/github/tools/github/endpoints/repos~1get/parameters/per_page/description",
        '  parameter "per_page" description changed (descriptive only)',
        '  after:  "Results | page"',
        "",
      ].join("\n"),
    );
  });

  it("renders a Markdown PR comment grouped by source and tool", () => {
    expect(formatReportMarkdown(report)).toBe(
      [
        "**Capability changes: `security-review`** · 2 changes (1 security-review, 1 compatible) · rules v1",
        "",
        "#### source `github` · tool `github`",
        "",
        "| Category | Where | Rule | Change | Before | After |",
        "| --- | --- | --- | --- | --- | --- |",
        '| **security-review** | `/sources/github/tools/github/endpoints/repos~1get/execution/method` | `endpoint.execution.method-to-unsafe` | HTTP method changed from "get" to "post": the call may now change state | `"get"` | `"post"` |',
        '| **compatible** | `/sources/github/tools/github/endpoints/repos~1get/parameters/per_page/description` | `request.parameter.description-changed` | parameter "per_page" description changed (descriptive only) | — | `"Results \\| page"` |',
        "",
        "_Diagnostic only: calls and bindings pinned to the old fingerprints stay refused until re-planned and re-bound._",
        "",
      ].join("\n"),
    );
  });

  it("renders identical reports", () => {
    const same = compareLocks(FORMAT_BEFORE, FORMAT_BEFORE);
    expect(formatReportText(same)).toBe("Capability changes: identical (rules v1)\nNo changes.\n");
    expect(formatReportMarkdown(same)).toBe(
      "**Capability changes: `identical`** · 0 changes · rules v1\n\nThe contracts are identical.\n",
    );
  });

  it("shows one change to a shared definition once, with the number of further places", () => {
    const report = compareSources(
      source({ tools: [REF_TOOL], defs: USER_DEFS(39) }),
      source({ tools: [REF_TOOL], defs: USER_DEFS(20) }),
    );
    expect(report.changes).toHaveLength(3);
    const text = formatReportText(report);
    expect(text.match(/^(compatible|breaking|security-review) {2}/gm)).toHaveLength(2);
    expect(text).toContain(
      "  maxLength lowered from 39 to 20 (via $defs/user); and 1 more place in 1 endpoint (repos/get)\n",
    );
    expect(formatReportMarkdown(report)).toContain(
      "(via `$defs/user`); and 1 more place in 1 endpoint (repos/get) |",
    );
  });

  it("keeps a Markdown comment within a bounded number of rows", () => {
    const many = Array.from({ length: 200 }, (_, i) => bare({ name: `op${String(i).padStart(3, "0")}` }));
    const report = compareSources(
      source({ tools: [tool({ endpoints: many })] }),
      source({ tools: [tool({ endpoints: [], provider: "elsewhere" })] }),
    );
    expect(report.changes).toHaveLength(201);
    expect(report.changes.at(-1)?.rule).toBe("tool.provider-changed");
    const markdown = formatReportMarkdown(report);
    const tableRows = markdown.split("\n").filter((line) => line.startsWith("| **"));
    expect(tableRows).toHaveLength(150);
    expect(tableRows[0]).toContain("`tool.provider-changed`");
    expect(markdown).toContain(
      "_…and 51 more rows (the least severe) not shown; the JSON report lists every change._",
    );
    const text = formatReportText(report);
    expect(text.match(/^breaking {2}endpoint\.removed$/gm)).toHaveLength(200);
    expect(text.split("\n")[3]).toBe("security-review  tool.provider-changed");
  });

  it("names the shared definition a change came through", () => {
    const endpoint = bare({ outputSchema: { $ref: "#/$defs/node" } });
    const text = formatReportText(
      compareEndpoints(
        snap(endpoint, { node: { type: "string" } }),
        snap(endpoint, { node: { type: "integer" } }),
      ),
    );
    expect(text).toContain('  type changed from "string" to "integer" (via $defs/node)\n');
    const markdown = formatReportMarkdown(
      compareEndpoints(
        snap(endpoint, { node: { type: "string" } }),
        snap(endpoint, { node: { type: "integer" } }),
      ),
    );
    expect(markdown).toContain("#### Contract\n");
    expect(markdown).toContain("(via `$defs/node`)");
  });
});
