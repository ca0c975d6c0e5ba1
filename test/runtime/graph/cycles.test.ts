import { describe, expect, it } from "vitest";
import { findCycles } from "../../../runtime/graph/cycles.js";
import { CapabilityGraph } from "../../../runtime/graph/graph.js";
import { renderGraph } from "../../../runtime/graph/render.js";
import { endpoint, field, param, tool } from "../../fixtures/catalogs.js";

/** A chain e0 → e1 → … → e(n-1) through semantic IDs; `loop` closes it back to e0. */
function chain(n: number, loop: boolean) {
  const endpoints = Array.from({ length: n }, (_, i) =>
    endpoint(`e${i}`, {
      parameters: i > 0 || loop ? [param("in", true, { semanticId: `s:${i}` })] : [],
      fields: i < n - 1 || loop ? [field("out", { semanticId: `s:${(i + 1) % n}` })] : [],
    }),
  );
  return CapabilityGraph.build([tool("c", endpoints)]);
}

describe("capability graph: bounded cycle analysis", () => {
  it("finds a cycle through several routes and a self-feeding route, and nothing in a chain", () => {
    expect(findCycles(chain(4, true)).cycles).toEqual([["c.e0", "c.e1", "c.e2", "c.e3"]]);
    expect(findCycles(chain(4, false))).toMatchObject({ cycles: [], complete: true, visitedNodes: 4 });
    const paging = CapabilityGraph.build([
      tool("p", [
        endpoint("page", {
          parameters: [param("cursor", false, { semanticId: "p:cursor" })],
          fields: [field("next", { semanticId: "p:cursor" })],
        }),
      ]),
    ]);
    expect(findCycles(paging).cycles).toEqual([["p.page"]]);
  });

  it("walks a 20,000-route chain without recursion", () => {
    const report = findCycles(chain(20_000, true));
    expect(report.complete).toBe(true);
    expect(report.cycles).toHaveLength(1);
    expect(report.cycles[0]).toHaveLength(20_000);
  });

  it("stops at its node budget and says the analysis is incomplete", () => {
    const report = findCycles(chain(100, true), { maxNodes: 10 });
    expect(report).toMatchObject({ complete: false, visitedNodes: 10, cycles: [] });
    expect(findCycles(chain(100, true), { maxEdges: 5 }).complete).toBe(false);
  });
});

describe("capability graph: review renderings", () => {
  const hostile = CapabilityGraph.build([
    tool('x"]; evil', [
      endpoint('a"\nb', { fields: [field('f"|x', { semanticId: "s:1" })] }),
      endpoint("c", { parameters: [param("p", true, { semanticId: "s:1" })] }),
    ]),
  ]);

  it("escapes names so a remote name cannot break out of a Mermaid or DOT label", () => {
    const mermaid = renderGraph(hostile, findCycles(hostile), "mermaid");
    for (const line of mermaid.trimEnd().split("\n").slice(1)) {
      expect(line).toMatch(/^ {2}n\d+(\["[^"\n]*"\]| (-->|-\.->)\|"[^"\n]*"\| n\d+)$/);
    }
    const dot = renderGraph(hostile, findCycles(hostile), "dot");
    expect(dot).toContain('label="x\\"]; evil.a\\" b"');
    expect(dot.split("\n").filter((line) => line.includes("->"))).toEqual([
      '  n0 -> n1 [label="f\\"|x → p"];',
    ]);
  });

  it("is deterministic and lists edges, cycles and dangling preconditions in text", () => {
    const graph = CapabilityGraph.build([
      tool("t", [
        endpoint("a", { preconditions: ["t.missing"] }),
        ...chain(2, true)
          .routes()
          .map((r) => endpoint(r.slice(2))),
      ]),
    ]);
    const text = renderGraph(graph, findCycles(graph), "text");
    expect(text).toContain("warning: t.a declares precondition t.missing, which is not locked");
    expect(renderGraph(chain(3, true), findCycles(chain(3, true)), "text")).toBe(
      [
        "3 route(s), 3 edge(s)",
        "  c.e0 field out → c.e1 parameter in (s:1)",
        "  c.e1 field out → c.e2 parameter in (s:2)",
        "  c.e2 field out → c.e0 parameter in (s:0)",
        "1 cycle(s):",
        "  c.e0 ↔ c.e1 ↔ c.e2",
        "",
      ].join("\n"),
    );
  });
});
