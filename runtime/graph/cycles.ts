/**
 * Bounded strongly-connected-component analysis of the capability graph
 * (docs/runtime/capability-graph.md, "Cycles"): an iterative Tarjan walk (no recursion, so a long chain
 * cannot overflow the stack) that stops at a node or edge budget and says so instead of running on.
 */
import type { CapabilityGraph } from "./graph.js";

export interface CycleLimits {
  /** Routes visited at most (default 200,000). */
  readonly maxNodes?: number;
  /** Edges followed at most (default 2,000,000). */
  readonly maxEdges?: number;
}

export interface CycleReport {
  /** Components of more than one route, or one route that feeds itself; routes sorted, components sorted. */
  readonly cycles: readonly (readonly string[])[];
  /** False when a budget stopped the walk: `cycles` then holds only what was found before it. */
  readonly complete: boolean;
  readonly visitedNodes: number;
  readonly followedEdges: number;
}

export const DEFAULT_CYCLE_LIMITS = { maxNodes: 200_000, maxEdges: 2_000_000 } as const;

export function findCycles(graph: CapabilityGraph, limits: CycleLimits = {}): CycleReport {
  const maxNodes = limits.maxNodes ?? DEFAULT_CYCLE_LIMITS.maxNodes;
  const maxEdges = limits.maxEdges ?? DEFAULT_CYCLE_LIMITS.maxEdges;
  const successors = (route: string): string[] => {
    const next = new Set<string>();
    for (const edge of graph.outgoing(route)) if (graph.contract(edge.to) !== undefined) next.add(edge.to);
    return [...next].sort();
  };
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  let followed = 0;
  let complete = true;

  outer: for (const root of graph.routes()) {
    if (index.has(root)) continue;
    const frames: { route: string; next: string[]; at: number }[] = [];
    const enter = (route: string): boolean => {
      if (index.size >= maxNodes) return false;
      index.set(route, counter);
      low.set(route, counter);
      counter++;
      stack.push(route);
      onStack.add(route);
      frames.push({ route, next: successors(route), at: 0 });
      return true;
    };
    if (!enter(root)) {
      complete = false;
      break;
    }
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.next.length) {
        const to = frame.next[frame.at++]!;
        if (++followed > maxEdges) {
          complete = false;
          break outer;
        }
        if (!index.has(to)) {
          if (!enter(to)) {
            complete = false;
            break outer;
          }
        } else if (onStack.has(to)) {
          low.set(frame.route, Math.min(low.get(frame.route)!, index.get(to)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined)
        low.set(parent.route, Math.min(low.get(parent.route)!, low.get(frame.route)!));
      if (low.get(frame.route) === index.get(frame.route)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.route);
        const selfLoop = component.length === 1 && frame.next.includes(frame.route);
        if (component.length > 1 || selfLoop) cycles.push(component.sort());
      }
    }
  }
  cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  return { cycles, complete, visitedNodes: index.size, followedEdges: Math.min(followed, maxEdges) };
}
