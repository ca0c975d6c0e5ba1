/**
 * Who can supply a missing argument (docs/runtime/capability-graph.md, "Plan explanations"): the
 * locked endpoints whose declared output field carries a semantic ID the parameter accepts. Listed,
 * never executed; reads before writes, identifiers first.
 */
import type { Effect } from "../model/specs.js";
import type { CapabilityGraph } from "./graph.js";

export interface ArgumentSupplier {
  readonly route: string;
  readonly field: string;
  readonly semanticId: string;
  readonly effect: Effect;
  readonly identifier: boolean;
}

/** At most this many suppliers are listed per argument. */
export const MAX_SUPPLIERS = 5;

const EFFECT_ORDER: Readonly<Record<Effect, number>> = { read: 0, unclassified: 1, write: 2, destructive: 3 };

export function suppliersOf(graph: CapabilityGraph, route: string, parameter: string): ArgumentSupplier[] {
  const out: ArgumentSupplier[] = [];
  for (const edge of graph.incoming(route)) {
    if (edge.kind !== "supplies" || edge.parameter !== parameter || edge.from === route) continue;
    const from = graph.contract(edge.from);
    if (from === undefined) continue;
    out.push({
      route: edge.from,
      field: edge.field,
      semanticId: edge.semanticId,
      effect: from.effect,
      identifier: edge.identifier,
    });
  }
  out.sort(
    (a, b) =>
      EFFECT_ORDER[a.effect] - EFFECT_ORDER[b.effect] ||
      Number(b.identifier) - Number(a.identifier) ||
      (a.route < b.route ? -1 : a.route > b.route ? 1 : 0) ||
      (a.field < b.field ? -1 : a.field > b.field ? 1 : 0),
  );
  return out.slice(0, MAX_SUPPLIERS);
}

/** "petId: from petstore.listPets field [].id" — one line per supplier, for messages. */
export function describeSuppliers(parameter: string, suppliers: readonly ArgumentSupplier[]): string {
  if (suppliers.length === 0) return `${parameter}: no locked capability supplies it`;
  return `${parameter}: from ${suppliers.map((s) => `${s.route} field ${s.field}${s.effect === "read" ? "" : ` (${s.effect})`}`).join(", or ")}`;
}
