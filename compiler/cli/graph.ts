/**
 * `schemarouter graph`: the capability graph of the locked catalog — which output fields can supply
 * which parameters, declared preconditions and cycles — as text, Mermaid, DOT or JSON
 * (docs/runtime/capability-graph.md, "Reviewing the graph"). Reads the lock and artifacts, verified;
 * runs nothing.
 */
import {
  CapabilityGraph,
  findCycles,
  GRAPH_FORMATS,
  type GraphFormat,
  loadCatalog,
  renderGraph,
} from "schemarouter/internal";

export interface GraphOutput {
  readonly text: string;
  /** 0; 2 for an unknown format. */
  readonly exitCode: 0 | 2;
}

export async function graphOfLock(lockfile: string, format: string): Promise<GraphOutput> {
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) {
    return {
      text: `error [USAGE]: --format must be one of ${GRAPH_FORMATS.join(", ")} (got "${format}").\n`,
      exitCode: 2,
    };
  }
  const { registry } = await loadCatalog({ lockfile, verify: "full" });
  const graph = CapabilityGraph.build([...registry.registeredTools()].map((registered) => registered.tool));
  return { text: renderGraph(graph, findCycles(graph), format as GraphFormat), exitCode: 0 };
}
