/**
 * The shared planning steps: rank the request, evaluate each candidate (fields, arguments, evidence),
 * and assemble picked drafts into a frozen ExecutionPlan. `plan` (deterministic) and
 * `planWithDecision` (bounded decision backend) differ only in how they pick among drafts.
 */
import type { Registry } from "../load/registry.js";
import { deepFreeze } from "../model/freeze.js";
import type { Effect } from "../model/specs.js";
import { checkRequest, RetrievalError } from "../retrieval/errors.js";
import { createRetriever, type Retriever } from "../retrieval/retriever.js";
import { type Assessment, assess } from "../retrieval/route.js";
import type { CapabilityCandidate, RetrievalRequest } from "../retrieval/types.js";
import { type ArgumentPlan, planArguments } from "./arguments.js";
import { checkEvidence, coverageOf, requiredItems } from "./evidence.js";
import { DEFAULT_MAX_FALLBACKS, planFallbacks } from "./fallbacks.js";
import { mergeProposal, type QueryProposal } from "./proposal.js";
import { type FieldSelection, selectChosenFields, selectFields } from "./select-fields.js";
import type {
  CoolingDownRoute,
  DecisionUse,
  EvidenceReport,
  ExecutionPlan,
  MissingArgument,
  PlanExplanation,
  PlannedCall,
  PlanRejection,
  RouteAvailability,
} from "./types.js";

export interface PlanOptions {
  /** Plan only over tools this trusted readiness check accepts. */
  readonly isReady?: (tool: string) => boolean;
  /** Ranked candidates examined (default 25, at most 200). */
  readonly depth?: number;
  /** Fallback routes per call when the request asks for them (default 3, at most 16). */
  readonly maxFallbacks?: number;
  /** Candidates must score strictly above this (default 0). */
  readonly minScore?: number;
  /** Fraction (0..1) of distinct request tokens a candidate must contain (default 0). */
  readonly minCoverage?: number;
  /** A validated ModelQueryAnalyzer proposal. */
  readonly proposal?: QueryProposal;
  /**
   * Refuse a request none of whose needs a ranked candidate covers (default true): the plan has no
   * calls, `reason: "unsupported"` and `uncovered` naming what is missing. With some needs covered it
   * plans those and lists the others in `uncovered` (docs/runtime/retrieval-and-planning.md,
   * "Unsupported requests").
   */
  readonly rejectUnsupported?: boolean;
  /** Share (0..1] of a need's concepts a candidate must cover (default 1). */
  readonly minConceptCoverage?: number;
  /**
   * Trusted availability state (router.plan passes the router's): a route cooling down is planned only
   * when no ready candidate can take its place, and is then marked with the cooldown's end
   * (docs/runtime/retrieval-and-planning.md, "Cooling-down routes").
   */
  readonly availability?: (tool: string, effect: Effect) => RouteAvailability;
}

export interface PlanContext {
  readonly retriever: Retriever;
  readonly request: RetrievalRequest;
  readonly proposal: QueryProposal | undefined;
  readonly options: PlanOptions;
  readonly required: readonly string[];
  readonly maxCalls: number;
  /** Present when the request was refused as unsupported. */
  readonly unsupported?: Assessment;
}

export interface Draft {
  readonly candidate: CapabilityCandidate;
  readonly selection: FieldSelection;
  readonly args: ArgumentPlan;
  readonly evidence: EvidenceReport;
  readonly proposed: boolean;
  /** The route's cooldown at plan time (absent: ready). */
  readonly cooling?: CoolingDownRoute;
}

export interface Pick {
  readonly draft: Draft;
  readonly decision: { readonly candidate: DecisionUse; readonly fields: DecisionUse };
}

function bounded(value: number | undefined, fallback: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RetrievalError(`options.${name} must be an integer from 1 to ${max}.`, { field: name });
  }
  return value;
}

export function createContext(
  source: Registry | Retriever,
  request: RetrievalRequest,
  options: PlanOptions,
): { context: PlanContext; drafts: Draft[] } {
  checkRequest(request);
  const retriever = "rankedSurface" in source ? source : createRetriever(source, { exhaustive: true });
  const merged = mergeProposal(request, options.proposal);
  const depth = bounded(options.depth, 25, 200, "depth");
  bounded(options.maxFallbacks, DEFAULT_MAX_FALLBACKS, 16, "maxFallbacks");
  const base: PlanContext = {
    retriever,
    request: merged,
    proposal: options.proposal,
    options,
    required: requiredItems(merged),
    maxCalls: merged.maxCalls ?? 1,
  };
  const ranked = retriever.rankedSurface(merged, {
    limit: depth,
    ...(options.isReady !== undefined ? { isReady: options.isReady } : {}),
    ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
  });
  const unsupported = unsupportedReport(retriever, merged, options, depth);
  const context: PlanContext = unsupported === undefined ? base : { ...base, unsupported };
  // Refused when no need is covered; with some covered, the plan covers those and lists the rest.
  if (unsupported !== undefined && !unsupported.needs.some((need) => need.covers.some(Boolean)))
    return { context, drafts: [] };
  const preferred = options.proposal?.route;
  const order = [
    ...ranked.filter((candidate) => candidate.route === preferred),
    ...ranked.filter((candidate) => candidate.route !== preferred),
  ];
  return { context, drafts: deferCoolingDown(order.map((candidate) => evaluate(context, candidate))) };
}

/**
 * The coverage check of route.ts (docs/runtime/retrieval-and-planning.md, "Unsupported requests"),
 * when it rejects the request. With a proposal that maps the request onto routes or declared fields,
 * only those structured items are checked: the analyzer has read the free text.
 */
function unsupportedReport(
  retriever: Retriever,
  request: RetrievalRequest,
  options: PlanOptions,
  depth: number,
): Assessment | undefined {
  if (options.rejectUnsupported === false) return undefined;
  const proposal = options.proposal;
  const mapped =
    proposal !== undefined &&
    (proposal.route !== undefined || proposal.fields.length > 0 || proposal.semanticIds.length > 0);
  const report = assess(retriever, mapped ? { ...request, query: "" } : request, {
    depth,
    ...(options.minConceptCoverage !== undefined ? { minConceptCoverage: options.minConceptCoverage } : {}),
    ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    ...(options.isReady !== undefined ? { isReady: options.isReady } : {}),
  });
  return report.rejected ? report : undefined;
}

/**
 * Moves each cooling-down draft behind the last lower-ranked ready draft that can take its place (same
 * effect, eligible, covering everything it covers); one nothing ready can replace keeps its rank.
 */
function deferCoolingDown(drafts: readonly Draft[]): Draft[] {
  const key = drafts.map((draft, index) => {
    if (draft.cooling === undefined) return index;
    let anchor = index;
    drafts.forEach((other, position) => {
      if (position > index && other.cooling === undefined && canReplace(other, draft))
        anchor = position + 0.5;
    });
    return anchor;
  });
  return drafts
    .map((draft, index) => ({ draft, key: key[index]!, index }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map((entry) => entry.draft);
}

function canReplace(ready: Draft, cooling: Draft): boolean {
  return (
    ready.evidence.satisfied &&
    ready.candidate.effect === cooling.candidate.effect &&
    cooling.selection.covers.every((item) => ready.selection.covers.includes(item))
  );
}

function coolingOf(context: PlanContext, candidate: CapabilityCandidate): CoolingDownRoute | undefined {
  const status = context.options.availability?.(candidate.tool, candidate.effect);
  if (status === undefined || status.available) return undefined;
  return deepFreeze({
    route: candidate.route,
    tool: candidate.tool,
    until: status.until ?? "",
    ...(status.reason !== undefined ? { reason: status.reason } : {}),
  });
}

function endpointOf(context: PlanContext, candidate: CapabilityCandidate) {
  return context.retriever.registry().get(candidate.tool)!.endpoints.get(candidate.endpoint)!;
}

export function evaluate(
  context: PlanContext,
  candidate: CapabilityCandidate,
  chosen?: ReadonlySet<string>,
): Draft {
  const endpoint = endpointOf(context, candidate);
  const selection =
    chosen === undefined
      ? selectFields(endpoint, context.request)
      : selectChosenFields(endpoint, context.request, chosen);
  const selected = new Set(selection.fields);
  const fields = endpoint.fields.filter((field) => selected.has(field.id));
  return {
    candidate,
    selection,
    args: planArguments(endpoint, context.request.arguments, context.proposal?.arguments),
    evidence: checkEvidence(fields, candidate.sourceKind, context.request.evidence),
    proposed: context.proposal?.route === candidate.route,
    ...withCooling(coolingOf(context, candidate)),
  };
}

function withCooling(cooling: CoolingDownRoute | undefined): { cooling?: CoolingDownRoute } {
  return cooling === undefined ? {} : { cooling };
}

/** Drafts that may be picked next: eligible, not yet picked, and (after the first) covering something new. */
export function options(
  drafts: readonly Draft[],
  picked: readonly Pick[],
  required: readonly string[],
): Draft[] {
  const covered = new Set(picked.flatMap((pick) => pick.draft.selection.covers));
  const uncovered = required.filter((item) => !covered.has(item));
  const routes = new Set(picked.map((pick) => pick.draft.candidate.route));
  return drafts.filter((draft) => {
    if (!draft.evidence.satisfied || routes.has(draft.candidate.route)) return false;
    return picked.length === 0 || draft.selection.covers.some((item) => uncovered.includes(item));
  });
}

/** Whether the loop should pick another call. */
export function wantsMore(context: PlanContext, picked: readonly Pick[]): boolean {
  if (picked.length === 0) return true;
  if (picked.length >= context.maxCalls) return false;
  const covered = new Set(picked.flatMap((pick) => pick.draft.selection.covers));
  return context.required.some((item) => !covered.has(item));
}

export function assemble(
  context: PlanContext,
  drafts: readonly Draft[],
  picks: readonly Pick[],
): ExecutionPlan {
  const calls: PlannedCall[] = [];
  const explanations: PlanExplanation[] = [];
  const missingArguments: MissingArgument[] = [];
  const { request, options: opts } = context;
  picks.forEach(({ draft, decision }, index) => {
    const { candidate, selection, args } = draft;
    const endpoint = endpointOf(context, candidate);
    const fallback =
      request.fallbacks === true && candidate.effect === "read"
        ? planFallbacks({
            retriever: context.retriever,
            primary: candidate,
            selected: endpoint.fields.filter((field) => selection.fields.includes(field.id)),
            callerArguments: request.arguments,
            proposedArguments: context.proposal?.arguments,
            evidence: request.evidence,
            isReady: opts.isReady,
            maxFallbacks: opts.maxFallbacks ?? DEFAULT_MAX_FALLBACKS,
          })
        : undefined;
    calls.push(
      deepFreezeCall({
        tool: candidate.tool,
        endpoint: candidate.endpoint,
        route: candidate.route,
        effect: candidate.effect,
        arguments: args.arguments,
        ...(selection.mode === "no-declared-fields" ? {} : { fields: selection.fields }),
        endpointFingerprint: candidate.endpointFingerprint,
        toolFingerprint: candidate.toolFingerprint,
        ...(fallback !== undefined ? { fallbacks: fallback.routes } : {}),
      }),
    );
    for (const missing of args.missing)
      missingArguments.push({ call: index, route: candidate.route, ...missing });
    explanations.push(
      deepFreeze({
        route: candidate.route,
        rank: candidate.rank,
        score: candidate.score,
        scoreComponents: candidate.scoreComponents,
        fieldSelection: selection.mode,
        fieldReasons: selection.reasons,
        droppedFields: selection.dropped,
        argumentSources: args.sources,
        ignoredArguments: args.ignored,
        covers: selection.covers,
        evidence: draft.evidence,
        proposedRoute: draft.proposed,
        decisionBackend: decision,
        excludedFallbacks: fallback?.excluded ?? [],
        ...(draft.cooling !== undefined ? { coolingDown: draft.cooling } : {}),
      }),
    );
  });
  const rejected: PlanRejection[] = drafts
    .filter((draft) => !draft.evidence.satisfied)
    .map((draft) => ({ route: draft.candidate.route, reason: "evidence", missing: draft.evidence.missing }));
  const reason =
    calls.length > 0
      ? undefined
      : context.unsupported !== undefined && !context.unsupported.nothingRanked && drafts.length === 0
        ? "unsupported"
        : drafts.length === 0
          ? "no-candidate"
          : "no-eligible-candidate";
  return Object.freeze({
    calls: Object.freeze(calls),
    missingArguments: deepFreeze(missingArguments),
    coverage: deepFreeze(
      coverageOf(
        context.required,
        picks.flatMap((pick) => pick.draft.selection.covers),
      ),
    ),
    explanations: Object.freeze(explanations),
    rejected: deepFreeze(rejected),
    coolingDown: Object.freeze(
      drafts.flatMap((draft) => (draft.cooling !== undefined ? [draft.cooling] : [])),
    ),
    ...(reason !== undefined ? { reason } : {}),
    ...(context.unsupported !== undefined
      ? { uncovered: deepFreeze([...context.unsupported.uncovered]) }
      : {}),
  });
}

/** Freezes a call's structure; argument values belong to the caller and are left as they are. */
function deepFreezeCall<T extends PlannedCall>(call: T): T {
  Object.freeze(call.arguments);
  if (call.fields !== undefined) Object.freeze(call.fields);
  for (const route of call.fallbacks ?? []) {
    Object.freeze(route.arguments);
    Object.freeze(route.fields);
    deepFreeze(route.fieldMap);
    deepFreeze(route.evidence);
    Object.freeze(route);
  }
  if (call.fallbacks !== undefined) Object.freeze(call.fallbacks);
  return Object.freeze(call);
}
