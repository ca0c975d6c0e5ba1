/**
 * Deterministic planning: the best eligible candidate first, then (up to `maxCalls`) the best
 * eligible candidates that cover requested fields the plan does not cover yet.
 */
import type { Registry } from "../load/registry.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { RetrievalRequest } from "../retrieval/types.js";
import { assemble, createContext, options, type Pick, type PlanOptions, wantsMore } from "./core.js";
import type { ExecutionPlan } from "./types.js";

const NOT_USED = { used: false } as const;

/** Plans calls for `request` over a registry (scored exhaustively) or a retriever (its cached index). */
export function plan(
  source: Registry | Retriever,
  request: RetrievalRequest,
  planOptions: PlanOptions = {},
): ExecutionPlan {
  const { context, drafts } = createContext(source, request, planOptions);
  const picks: Pick[] = [];
  while (wantsMore(context, picks)) {
    const next = options(drafts, picks, context.required)[0];
    if (next === undefined) break;
    picks.push({ draft: next, decision: { candidate: NOT_USED, fields: NOT_USED } });
  }
  return assemble(context, drafts, picks);
}
