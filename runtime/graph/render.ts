/**
 * Text, Mermaid and DOT renderings of the capability graph for review (docs/runtime/capability-graph.md,
 * "Reviewing the graph"). Deterministic: routes and edges sorted; labels escaped so a remote name can
 * never break out of a node or edge label.
 */
import type { CycleReport } from "./cycles.js";
import type { CapabilityEdge, CapabilityGraph } from "./graph.js";

export type GraphFormat = "text" | "mermaid" | "dot" | "json";

export const GRAPH_FORMATS: readonly GraphFormat[] = ["text", "mermaid", "dot", "json"];

export function renderGraph(graph: CapabilityGraph, cycles: CycleReport, format: GraphFormat): string {
  const edges = graph.edges();
  switch (format) {
    case "text":
      return renderText(graph, edges, cycles);
    case "mermaid":
      return renderMermaid(graph, edges);
    case "dot":
      return renderDot(graph, edges);
    case "json":
      return `${JSON.stringify(
        {
          context: graph.context,
          routes: graph.routes().map((route) => ({ route, effect: graph.contract(route)!.effect })),
          edges,
          cycles: cycles.cycles,
          cyclesComplete: cycles.complete,
          danglingPreconditions: graph.danglingPreconditions(),
        },
        null,
        2,
      )}\n`;
  }
}

function label(edge: CapabilityEdge): string {
  return edge.kind === "supplies" ? `${edge.field} → ${edge.parameter}` : "precondition";
}

function renderText(graph: CapabilityGraph, edges: readonly CapabilityEdge[], cycles: CycleReport): string {
  const lines: string[] = [];
  const routes = graph.routes();
  lines.push(`${routes.length} route(s), ${edges.length} edge(s)`);
  for (const edge of edges) {
    lines.push(
      edge.kind === "supplies"
        ? `  ${edge.from} field ${edge.field} → ${edge.to} parameter ${edge.parameter} (${edge.semanticId})`
        : `  ${edge.from} → ${edge.to} (precondition)`,
    );
  }
  if (cycles.cycles.length > 0) {
    lines.push(`${cycles.cycles.length} cycle(s):`);
    for (const cycle of cycles.cycles) lines.push(`  ${cycle.join(" ↔ ")}`);
  }
  if (!cycles.complete)
    lines.push(`cycle analysis stopped at its budget after ${cycles.visitedNodes} route(s)`);
  for (const dangling of graph.danglingPreconditions())
    lines.push(
      `warning: ${dangling.route} declares precondition ${dangling.precondition}, which is not locked`,
    );
  return `${lines.join("\n")}\n`;
}

function ids(graph: CapabilityGraph, edges: readonly CapabilityEdge[]): Map<string, string> {
  const names = new Set(graph.routes());
  for (const edge of edges) {
    names.add(edge.from);
    names.add(edge.to);
  }
  return new Map([...names].sort().map((name, index) => [name, `n${index}`]));
}

/** Mermaid label text: quotes and markup characters as entity codes. */
function mermaidText(text: string): string {
  return text.replace(/["#<>&|\\[\]{}()`]/g, (ch) => `#${ch.charCodeAt(0)};`).replace(/[\r\n]/g, " ");
}

function renderMermaid(graph: CapabilityGraph, edges: readonly CapabilityEdge[]): string {
  const node = ids(graph, edges);
  const lines = ["flowchart LR"];
  for (const [name, id] of node) lines.push(`  ${id}["${mermaidText(name)}"]`);
  for (const edge of edges) {
    const arrow = edge.kind === "supplies" ? "-->" : "-.->";
    lines.push(`  ${node.get(edge.from)} ${arrow}|"${mermaidText(label(edge))}"| ${node.get(edge.to)}`);
  }
  return `${lines.join("\n")}\n`;
}

function dotText(text: string): string {
  return text.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/[\r\n]/g, " ");
}

function renderDot(graph: CapabilityGraph, edges: readonly CapabilityEdge[]): string {
  const node = ids(graph, edges);
  const lines = ["digraph capabilities {", "  rankdir=LR;"];
  for (const [name, id] of node) lines.push(`  ${id} [label="${dotText(name)}"];`);
  for (const edge of edges) {
    const style = edge.kind === "precondition" ? ", style=dashed" : "";
    lines.push(`  ${node.get(edge.from)} -> ${node.get(edge.to)} [label="${dotText(label(edge))}"${style}];`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
