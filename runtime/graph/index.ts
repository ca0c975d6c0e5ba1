/** The capability graph (docs/runtime/capability-graph.md). */
export {
  type CapabilityContract,
  contractOf,
  contractsOf,
  type ProvidedValue,
  type RequiredInput,
} from "./contracts.js";
export { type CycleLimits, type CycleReport, DEFAULT_CYCLE_LIMITS, findCycles } from "./cycles.js";
export { type CapabilityEdge, CapabilityGraph, GRAPH_RULES_VERSION, type GraphOptions } from "./graph.js";
export { RegistryGraph } from "./registry-graph.js";
export { GRAPH_FORMATS, type GraphFormat, renderGraph } from "./render.js";
export { type ArgumentSupplier, describeSuppliers, MAX_SUPPLIERS, suppliersOf } from "./suppliers.js";
