/** Source and lock rules: identity, kind, location, tools added and removed, MCP remote digests, artifact snapshots. */
import { describe, expect, it } from "vitest";
import {
  compareLocks,
  compareSources,
  RULES_VERSION,
  sourceSnapshotOf,
} from "../../../compiler/compare/compare.js";
import { expectRule, MCP, OWNER, source, tool, withParams } from "./fixtures.js";
import { LOCK, LOCK_CASES, SOURCE_CASES } from "./rule-cases.js";

describe("source rules", () => {
  it.each(SOURCE_CASES)("%s", (_name, { given, want }) => {
    const report = compareSources(given[0], given[1]);
    expectRule(report, want);
    for (const change of report.changes) expect(change.source).toBe(given[1].name);
  });

  it("classifies identical sources as identical", () => {
    const remoteDigests = { memory: { read_graph: "sha256:aaaa" } };
    expect(
      compareSources(source({ tools: [MCP], remoteDigests }), source({ tools: [MCP], remoteDigests }))
        .category,
    ).toBe("identical");
  });
});

describe("artifact snapshots", () => {
  it("compares what an artifact holds: source identity, tools, $defs and remote digests", () => {
    const artifact = (digest: string) => ({
      source: {
        name: "memory",
        kind: "mcp" as const,
        location: "stdio:server-memory",
        documentDigest: "sha256:00",
      },
      $defs: { unused: { type: "string" } },
      tools: [MCP],
      remoteDigests: { memory: { read_graph: digest } },
    });
    expect(sourceSnapshotOf(artifact("sha256:aa"))).toEqual({
      name: "memory",
      kind: "mcp",
      location: "stdio:server-memory",
      tools: [MCP],
      defs: { unused: { type: "string" } },
      remoteDigests: { memory: { read_graph: "sha256:aa" } },
    });
    const report = compareSources(
      sourceSnapshotOf(artifact("sha256:aa")),
      sourceSnapshotOf(artifact("sha256:bb")),
    );
    expect(report.changes.map((c) => c.rule)).toEqual(["mcp.remote-definition-changed"]);
  });
});

describe("lock rules", () => {
  it.each(LOCK_CASES)("%s", (_name, { given, want }) => {
    expectRule(compareLocks(given[0], given[1]), want);
  });

  it("classifies identical locks as identical", () => {
    expect(compareLocks({ github: source() }, { github: source() })).toEqual({
      rulesVersion: RULES_VERSION,
      category: "identical",
      changes: [],
    });
    expect(compareLocks({}, {}).category).toBe("identical");
  });

  it("labels each change with its source, tool and endpoint", () => {
    const report = compareLocks(LOCK, {
      github: source({ tools: [tool({ endpoints: [withParams([OWNER])] })] }),
    });
    expect(report.changes).toEqual([
      expect.objectContaining({
        source: "github",
        tool: "github",
        endpoint: "repos/get",
        pointer: "/sources/github/tools/github/endpoints/repos~1get/parameters/per_page",
      }),
    ]);
  });
});
