/**
 * Execution plans: ToolCalls pinned to endpoint and tool fingerprints, with field-first field
 * selection, argument accounting, evidence, coverage and an audit-friendly explanation per call.
 * Explanations hold only deterministic, locally observable facts, never model reasoning.
 */

import type { ArgumentSupplier } from "../graph/suppliers.js";
import type { Effect, ParameterLocation, SourceKind, ToolCall } from "../model/specs.js";
import type { UncoveredConcept } from "../retrieval/route.js";
import type { ScoreComponent } from "../retrieval/types.js";

/** How a call's fields were chosen. */
export type FieldSelectionMode =
  /** A clear query-to-field match: matched fields plus identifiers. */
  | "matched"
  /** No clear match: every declared field is kept (recall before pruning). */
  | "ambiguous-intent-kept-all"
  /** A decision backend chose among the non-identifier fields of an ambiguous intent. */
  | "decision-backend"
  /** The endpoint declares no fields; `fields` is omitted. */
  | "no-declared-fields";

export interface DroppedField {
  readonly field: string;
  /** `unit-not-requested`, `narrowed-by-qualifier:<id>`, `weak-match-dominated-by:<id>` or `covered-by:<id>` (an overlapping ancestor). */
  readonly reason: string;
}

export interface FieldEvidence {
  readonly field: string;
  readonly provenance?: string;
  readonly license?: string;
  readonly unit?: string;
  /** Identifier fields carry no measured value and are exempt from evidence requirements. */
  readonly exempt?: "identifier";
  /** Requirements this field does not meet: `provenance`, `license`, `unit`. */
  readonly missing: readonly string[];
}

export interface EvidenceReport {
  readonly satisfied: boolean;
  readonly sourceType: SourceKind;
  /** Unmet requirements: `<field>:<requirement>` or `sourceType:<kind>`. */
  readonly missing: readonly string[];
  readonly fields: readonly FieldEvidence[];
}

export interface DecisionUse {
  /** A decision backend was consulted for this call. */
  readonly used: boolean;
  /** It abstained (low confidence), so the deterministic choice stands. */
  readonly abstained?: boolean;
}

export interface PlanExplanation {
  readonly route: string;
  /** 1-based position in the ranked surface. */
  readonly rank: number;
  readonly score: number;
  readonly scoreComponents: Readonly<Partial<Record<ScoreComponent, number>>>;
  readonly fieldSelection: FieldSelectionMode;
  /** Per kept field: `matched:<token>`, `requested:field:<name>`, `requested:semanticId:<id>`, `unit:<unit>`, `identifier`, `ambiguous-intent-kept-all`, `decision-backend`. */
  readonly fieldReasons: Readonly<Record<string, readonly string[]>>;
  readonly droppedFields: readonly DroppedField[];
  /** Where each passed argument came from. */
  readonly argumentSources: Readonly<Record<string, "caller" | "proposal">>;
  /** Arguments the endpoint does not declare; they were not passed. */
  readonly ignoredArguments: readonly string[];
  /** Requested items (`field:<name>`, `semanticId:<id>`) this call covers. */
  readonly covers: readonly string[];
  readonly evidence: EvidenceReport;
  /** The route was the one proposed by a validated analyzer proposal. */
  readonly proposedRoute: boolean;
  readonly decisionBackend: { readonly candidate: DecisionUse; readonly fields: DecisionUse };
  /** Alternatives that covered the field need but could not be precompiled, with why. */
  readonly excludedFallbacks: readonly { readonly route: string; readonly reason: string }[];
  /**
   * Present when this call's route was cooling down at plan time (no ready candidate could take its
   * place): until then the call is refused without sending (INVOCATION_UNAVAILABLE, reason `cooldown`).
   */
  readonly coolingDown?: CoolingDownRoute;
}

/** What the planner reads of a route's availability (router.availability's AvailabilityStatus fits). */
export interface RouteAvailability {
  readonly available: boolean;
  /** ISO time the cooldown ends (only while unavailable). */
  readonly until?: string;
  readonly reason?: string;
}

/** A ranked route whose access path was cooling down when the plan was made. */
export interface CoolingDownRoute {
  readonly route: string;
  readonly tool: string;
  /** ISO time the cooldown ends; it reopens earlier when a health probe succeeds. */
  readonly until: string;
  /** Why: `timeout`, `connection`, `http-429`, `http-5xx`, `probe-failed`, … */
  readonly reason?: string;
}

/** A precompiled read-only alternative for one planned call. */
export interface FallbackRoute extends ToolCall {
  readonly route: string;
  readonly provider: string;
  readonly accessMode: string;
  /** Same logical provider as the primary (listed before cross-provider alternatives). */
  readonly sameProvider: boolean;
  readonly effect: "read";
  /** Primary field ID → this route's field ID for every field of the primary's need. */
  readonly fieldMap: Readonly<Record<string, string>>;
  readonly evidence: EvidenceReport;
}

export interface PlannedCall extends ToolCall {
  readonly route: string;
  readonly effect: Effect;
  /** Present when the request asked for fallbacks and the call is read-only. */
  readonly fallbacks?: readonly FallbackRoute[];
}

export interface MissingArgument {
  /** Index of the call in `plan.calls`. */
  readonly call: number;
  readonly route: string;
  readonly name: string;
  readonly location: ParameterLocation;
  /**
   * Locked capabilities whose declared output can supply this argument (same semantic ID; reads first),
   * set by `SchemaRouter.plan()` (docs/runtime/capability-graph.md). Nothing runs them.
   */
  readonly suppliers?: readonly ArgumentSupplier[];
}

export interface Coverage {
  readonly required: readonly string[];
  readonly covered: readonly string[];
  readonly uncovered: readonly string[];
}

export interface PlanRejection {
  readonly route: string;
  readonly reason: "evidence";
  readonly missing: readonly string[];
}

export interface ExecutionPlan {
  readonly calls: readonly PlannedCall[];
  /** Required arguments nobody supplied. They are listed, never invented. */
  readonly missingArguments: readonly MissingArgument[];
  readonly coverage: Coverage;
  /** One per call, same order. */
  readonly explanations: readonly PlanExplanation[];
  /** Ranked candidates that were not planned because they cannot meet the evidence requirements. */
  readonly rejected: readonly PlanRejection[];
  /**
   * Ranked candidates cooling down at plan time, in rank order. Ready candidates are planned before
   * them; one is planned only when nothing ready covers its need (its explanation has `coolingDown`).
   */
  readonly coolingDown: readonly CoolingDownRoute[];
  /**
   * Why nothing was planned (only when `calls` is empty). `unsupported`: some need of the request is
   * covered by no ranked candidate; `uncovered` names it (also listed with `no-candidate`, when nothing
   * matched the request at all).
   */
  readonly reason?: "no-candidate" | "no-eligible-candidate" | "unsupported";
  /**
   * Each requested concept no ranked candidate covers: with `reason: "unsupported"` (or
   * `"no-candidate"`), or next to calls that cover the request's other needs.
   */
  readonly uncovered?: readonly UncoveredConcept[];
}
