/**
 * The capability graph of a router's current registry, kept up to date incrementally: when the
 * registry changes (a tool added or replaced), only the tools whose registered contract object changed
 * are derived again (docs/runtime/capability-graph.md, "Incremental rebuild").
 */
import type { Registry } from "../load/registry.js";
import type { ToolSpec } from "../model/specs.js";
import { CapabilityGraph, type GraphOptions } from "./graph.js";

export class RegistryGraph {
  private last:
    | {
        readonly registry: Registry;
        readonly tools: ReadonlyMap<string, ToolSpec>;
        readonly graph: CapabilityGraph;
      }
    | undefined;

  constructor(private readonly options: GraphOptions = {}) {}

  graphFor(registry: Registry): CapabilityGraph {
    const last = this.last;
    if (last?.registry === registry) return last.graph;
    const tools = new Map<string, ToolSpec>();
    for (const registered of registry.registeredTools()) tools.set(registered.tool.name, registered.tool);
    let graph: CapabilityGraph;
    if (last === undefined) {
      graph = CapabilityGraph.build(tools.values(), this.options);
    } else {
      graph = last.graph;
      for (const name of last.tools.keys()) if (!tools.has(name)) graph = graph.without(name);
      for (const [name, tool] of tools)
        if (last.tools.get(name) !== tool) graph = graph.withTool(tool, this.options);
    }
    this.last = { registry, tools, graph };
    return graph;
  }
}
