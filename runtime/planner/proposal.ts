/**
 * A validated model proposal and how it joins a request: the caller's lists and arguments always
 * win over proposed ones; a proposed route is only a preference among locally ranked candidates.
 */
import type { JsonValue } from "../model/specs.js";
import type { RetrievalRequest } from "../retrieval/types.js";
import { PlanningError } from "./errors.js";

export interface DroppedProposalItem {
  /** What was dropped, e.g. `key:extra`, `route:x.y`, `field:foo`, `argument:bar`. */
  readonly item: string;
  readonly reason: string;
}

export interface QueryProposal {
  /** `tool.endpoint` of an offered candidate. */
  readonly route?: string;
  readonly fields: readonly string[];
  readonly semanticIds: readonly string[];
  readonly units: readonly string[];
  /** Arguments declared by the proposed route's endpoint (JSON values only). */
  readonly arguments: Readonly<Record<string, JsonValue>>;
  /** Everything the validation dropped, with why. */
  readonly dropped: readonly DroppedProposalItem[];
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function checkProposal(proposal: QueryProposal): void {
  const ok =
    proposal !== null &&
    typeof proposal === "object" &&
    (proposal.route === undefined || typeof proposal.route === "string") &&
    isStringList(proposal.fields) &&
    isStringList(proposal.semanticIds) &&
    isStringList(proposal.units) &&
    proposal.arguments !== null &&
    typeof proposal.arguments === "object" &&
    !Array.isArray(proposal.arguments);
  if (!ok) {
    throw new PlanningError(
      "ANALYZER_OUTPUT_INVALID",
      "options.proposal is not a QueryProposal; pass the value returned by ModelQueryAnalyzer.analyze().",
    );
  }
}

const nonEmpty = (list: readonly string[] | undefined): list is readonly string[] =>
  list !== undefined && list.length > 0;

/** The request the planner works on: caller values first, proposal values only where the caller gave none. */
export function mergeProposal(
  request: RetrievalRequest,
  proposal: QueryProposal | undefined,
): RetrievalRequest {
  if (proposal === undefined) return request;
  checkProposal(proposal);
  const pick = (
    mine: readonly string[] | undefined,
    theirs: readonly string[],
  ): readonly string[] | undefined => (nonEmpty(mine) ? mine : theirs.length > 0 ? theirs : mine);
  const fields = pick(request.fields, proposal.fields);
  const semanticIds = pick(request.semanticIds, proposal.semanticIds);
  const units = pick(request.units, proposal.units);
  return {
    ...request,
    ...(fields !== undefined ? { fields } : {}),
    ...(semanticIds !== undefined ? { semanticIds } : {}),
    ...(units !== undefined ? { units } : {}),
  };
}
