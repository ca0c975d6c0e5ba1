/**
 * Plan explanations for missing arguments (docs/runtime/capability-graph.md, "Plan explanations"):
 * each missing required argument lists the locked capabilities whose declared output can supply it.
 * The graph is consulted only when something is missing; nothing is executed.
 */
import type { CapabilityGraph } from "../graph/graph.js";
import { suppliersOf } from "../graph/suppliers.js";
import { deepFreeze } from "../model/freeze.js";
import type { ExecutionPlan } from "./types.js";

export function withArgumentSuppliers(plan: ExecutionPlan, graph: () => CapabilityGraph): ExecutionPlan {
  if (plan.missingArguments.length === 0) return plan;
  const built = graph();
  const missingArguments = plan.missingArguments.map((missing) => ({
    ...missing,
    suppliers: suppliersOf(built, missing.route, missing.name),
  }));
  return Object.freeze({ ...plan, missingArguments: deepFreeze(missingArguments) });
}
