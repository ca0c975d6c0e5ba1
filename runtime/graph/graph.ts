/**
 * The capability graph (docs/runtime/capability-graph.md): an indexed dependency graph over the
 * capability contracts of a registry. An edge says "this output field can supply that parameter"
 * (same declared semantic ID) or "this route is a declared precondition of that one". The graph
 * informs plans and reviews; it never runs anything.
 *
 * Indexing and incremental rebuild are an update optimisation only: `withTool` must give exactly the
 * graph a full `build` of the same tools gives (a property test checks it), and a graph built under a
 * different compatibility context is rebuilt in full.
 */
import type { ToolSpec } from "../model/specs.js";
import { type CapabilityContract, contractsOf } from "./contracts.js";

/** Version of the graph's derivation rules; part of the compatibility context. */
export const GRAPH_RULES_VERSION = 1;

export type CapabilityEdge =
  | {
      readonly kind: "supplies";
      readonly from: string;
      readonly field: string;
      readonly to: string;
      readonly parameter: string;
      readonly semanticId: string;
      readonly identifier: boolean;
    }
  | { readonly kind: "precondition"; readonly from: string; readonly to: string };

export interface GraphOptions {
  /**
   * Everything that changes how contracts are derived or joined (the rules version, the artifact
   * format). A graph asked to update under another context is rebuilt from scratch.
   */
  readonly context?: string;
}

type Index = ReadonlyMap<string, ReadonlySet<string>>;

export class CapabilityGraph {
  readonly context: string;
  private readonly tools: ReadonlyMap<string, ToolSpec>;
  private readonly contracts: ReadonlyMap<string, CapabilityContract>;
  private readonly routesByTool: ReadonlyMap<string, readonly string[]>;
  /** semantic ID → routes providing it. */
  private readonly producers: Index;
  /** semantic ID → routes with a parameter accepting it. */
  private readonly consumers: Index;
  /** route → routes that declare it as a precondition. */
  private readonly dependents: Index;

  private constructor(parts: {
    context: string;
    tools: ReadonlyMap<string, ToolSpec>;
    contracts: ReadonlyMap<string, CapabilityContract>;
    routesByTool: ReadonlyMap<string, readonly string[]>;
    producers: Index;
    consumers: Index;
    dependents: Index;
  }) {
    this.context = parts.context;
    this.tools = parts.tools;
    this.contracts = parts.contracts;
    this.routesByTool = parts.routesByTool;
    this.producers = parts.producers;
    this.consumers = parts.consumers;
    this.dependents = parts.dependents;
  }

  /** A full build over `tools` (tool names must be unique). */
  static build(tools: Iterable<ToolSpec>, options: GraphOptions = {}): CapabilityGraph {
    let graph = new CapabilityGraph({
      context: options.context ?? defaultContext(),
      tools: new Map(),
      contracts: new Map(),
      routesByTool: new Map(),
      producers: new Map(),
      consumers: new Map(),
      dependents: new Map(),
    });
    for (const tool of tools) graph = graph.withTool(tool, options);
    return graph;
  }

  /**
   * The graph with `tool` added, or replacing the tool of the same name: only that tool's contracts
   * are derived again and only the index entries they touch change. A different `context` means a
   * full rebuild.
   */
  withTool(tool: ToolSpec, options: GraphOptions = {}): CapabilityGraph {
    const context = options.context ?? this.context;
    if (context !== this.context) {
      const tools = new Map(this.tools);
      tools.set(tool.name, tool);
      return CapabilityGraph.build(tools.values(), { context });
    }
    const next = this.without(tool.name);
    const tools = new Map(next.tools);
    tools.set(tool.name, tool);
    const contracts = new Map(next.contracts);
    const producers = new MutableIndex(next.producers);
    const consumers = new MutableIndex(next.consumers);
    const dependents = new MutableIndex(next.dependents);
    const routes: string[] = [];
    for (const contract of contractsOf(tool)) {
      contracts.set(contract.route, contract);
      routes.push(contract.route);
      for (const value of contract.provides) producers.add(value.semanticId, contract.route);
      for (const input of contract.requires)
        for (const id of input.semanticIds) consumers.add(id, contract.route);
      for (const required of contract.preconditions) dependents.add(required, contract.route);
    }
    const routesByTool = new Map(next.routesByTool);
    routesByTool.set(tool.name, routes);
    return new CapabilityGraph({
      context,
      tools,
      contracts,
      routesByTool,
      producers: producers.done(),
      consumers: consumers.done(),
      dependents: dependents.done(),
    });
  }

  /** The graph without the tool named `name` (unchanged when there is none). */
  without(name: string): CapabilityGraph {
    const routes = this.routesByTool.get(name);
    if (routes === undefined) return this;
    const tools = new Map(this.tools);
    tools.delete(name);
    const contracts = new Map(this.contracts);
    const producers = new MutableIndex(this.producers);
    const consumers = new MutableIndex(this.consumers);
    const dependents = new MutableIndex(this.dependents);
    for (const route of routes) {
      const contract = this.contracts.get(route)!;
      contracts.delete(route);
      for (const value of contract.provides) producers.remove(value.semanticId, route);
      for (const input of contract.requires) for (const id of input.semanticIds) consumers.remove(id, route);
      for (const required of contract.preconditions) dependents.remove(required, route);
    }
    const routesByTool = new Map(this.routesByTool);
    routesByTool.delete(name);
    return new CapabilityGraph({
      context: this.context,
      tools,
      contracts,
      routesByTool,
      producers: producers.done(),
      consumers: consumers.done(),
      dependents: dependents.done(),
    });
  }

  /** Every route, sorted. */
  routes(): string[] {
    return [...this.contracts.keys()].sort();
  }

  contract(route: string): CapabilityContract | undefined {
    return this.contracts.get(route);
  }

  /** Edges leaving `route` (what it supplies, what it is a precondition of), sorted. */
  outgoing(route: string): CapabilityEdge[] {
    const contract = this.contracts.get(route);
    if (contract === undefined) return [];
    const edges: CapabilityEdge[] = [];
    for (const value of contract.provides) {
      for (const consumer of this.consumers.get(value.semanticId) ?? []) {
        edges.push(
          ...this.suppliesEdges(contract, value.field, value.identifier, value.semanticId, consumer),
        );
      }
    }
    for (const dependent of this.dependents.get(route) ?? [])
      edges.push({ kind: "precondition", from: route, to: dependent });
    return sortEdges(edges);
  }

  /** Edges entering `route` (who can supply its parameters, its declared preconditions), sorted. */
  incoming(route: string): CapabilityEdge[] {
    const contract = this.contracts.get(route);
    if (contract === undefined) return [];
    const edges: CapabilityEdge[] = [];
    const seen = new Set<string>();
    for (const input of contract.requires) {
      for (const id of input.semanticIds) {
        for (const producer of this.producers.get(id) ?? []) {
          const key = `${producer}\u0000${id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const from = this.contracts.get(producer)!;
          for (const value of from.provides) {
            if (value.semanticId !== id) continue;
            edges.push(...this.suppliesEdges(from, value.field, value.identifier, id, route));
          }
        }
      }
    }
    for (const required of contract.preconditions)
      edges.push({ kind: "precondition", from: required, to: route });
    return dedupe(sortEdges(edges));
  }

  /** Every edge of the graph, sorted (from, to, kind, field, parameter). */
  edges(): CapabilityEdge[] {
    const all: CapabilityEdge[] = [];
    for (const route of this.routes()) all.push(...this.outgoing(route));
    // Preconditions naming a route that is not in the graph have no `outgoing` owner.
    for (const [required, dependents] of this.dependents) {
      if (this.contracts.has(required)) continue;
      for (const to of dependents) all.push({ kind: "precondition", from: required, to });
    }
    return sortEdges(all);
  }

  /** Declared preconditions that name no route of this graph, as `{ route, precondition }`, sorted. */
  danglingPreconditions(): { readonly route: string; readonly precondition: string }[] {
    const out: { route: string; precondition: string }[] = [];
    for (const [required, dependents] of this.dependents) {
      if (this.contracts.has(required)) continue;
      for (const route of dependents) out.push({ route, precondition: required });
    }
    return out.sort((a, b) => compare(a.route, b.route) || compare(a.precondition, b.precondition));
  }

  private suppliesEdges(
    from: CapabilityContract,
    field: string,
    identifier: boolean,
    semanticId: string,
    to: string,
  ): CapabilityEdge[] {
    const consumer = this.contracts.get(to)!;
    const edges: CapabilityEdge[] = [];
    for (const input of consumer.requires) {
      if (!input.semanticIds.includes(semanticId)) continue;
      edges.push({
        kind: "supplies",
        from: from.route,
        field,
        to,
        parameter: input.parameter,
        semanticId,
        identifier,
      });
    }
    return edges;
  }
}

/** The default compatibility context: the graph rules version. */
export function defaultContext(): string {
  return `graph-rules:${GRAPH_RULES_VERSION}`;
}

/** Copy-on-write index: sets are copied only when a key is touched. */
class MutableIndex {
  private readonly map: Map<string, ReadonlySet<string>>;
  private readonly copied = new Set<string>();

  constructor(from: Index) {
    this.map = new Map(from);
  }

  add(key: string, value: string): void {
    this.own(key).add(value);
  }

  remove(key: string, value: string): void {
    const set = this.own(key);
    set.delete(value);
    if (set.size === 0) this.map.delete(key);
  }

  done(): Index {
    return this.map;
  }

  private own(key: string): Set<string> {
    if (!this.copied.has(key)) {
      this.copied.add(key);
      this.map.set(key, new Set(this.map.get(key) ?? []));
    }
    return this.map.get(key) as Set<string>;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function edgeKey(edge: CapabilityEdge): string {
  return edge.kind === "supplies"
    ? `${edge.from}\u0000${edge.to}\u0000s\u0000${edge.field}\u0000${edge.parameter}\u0000${edge.semanticId}`
    : `${edge.from}\u0000${edge.to}\u0000p`;
}

function sortEdges(edges: CapabilityEdge[]): CapabilityEdge[] {
  return edges.sort((a, b) => compare(edgeKey(a), edgeKey(b)));
}

function dedupe(edges: CapabilityEdge[]): CapabilityEdge[] {
  const out: CapabilityEdge[] = [];
  let last: string | undefined;
  for (const edge of edges) {
    const key = edgeKey(edge);
    if (key !== last) out.push(edge);
    last = key;
  }
  return out;
}
