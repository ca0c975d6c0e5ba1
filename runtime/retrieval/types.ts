/**
 * Types of the retrieval surface: what an agent or application asks for, and the typed candidates it
 * gets back. A candidate describes a capability; it never carries execution authority.
 */
import type { Effect, FieldSpec, JsonSchema, ParameterSpec, SourceKind } from "../model/specs.js";

/** Evidence a planned call must carry, checked against trusted local schema metadata only. */
export interface EvidenceRequirements {
  /** `true`: every selected non-identifier field declares a provenance; a list: one of these. */
  readonly provenance?: boolean | readonly string[];
  /** `true`: every selected non-identifier field declares a license; a list: one of these. */
  readonly license?: boolean | readonly string[];
  /** Every selected non-identifier field that is numeric (or of unknown type) declares a unit. */
  readonly units?: boolean;
  /** The capability's source kind is one of these. */
  readonly sourceTypes?: readonly SourceKind[];
}

export interface RetrievalRequest {
  /** Free-text description of the data need. */
  readonly query: string;
  /** Requested semantic IDs (exact match against `FieldSpec.semanticId`). */
  readonly semanticIds?: readonly string[];
  /** Requested logical fields (matched against field IDs and aliases, case/separator-insensitive). */
  readonly fields?: readonly string[];
  /** Requested units (exact match against `FieldSpec.unit`). */
  readonly units?: readonly string[];
  /** Only capabilities with one of these side-effect classes are considered. */
  readonly effects?: readonly Effect[];
  /** Caller-supplied arguments (planning only; they never influence ranking). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Evidence the planned calls must carry (planning only). */
  readonly evidence?: EvidenceRequirements;
  /** Upper bound on planned calls (planning only; default 1). */
  readonly maxCalls?: number;
  /** Precompile read-only fallback routes (planning only). */
  readonly fallbacks?: boolean;
}

/** Score component names, in the order they are summed. */
export type ScoreComponent =
  | "name"
  | "tool"
  | "description"
  | "parameter"
  | "field"
  | "semanticId"
  | "unit"
  | "qualifier"
  | "summary"
  | "exactName"
  | "exactField"
  | "exactSemanticId"
  | "exactUnit"
  | "exactFieldUnit"
  | "sameFieldUnit"
  | "intent"
  | "coverage";

export interface CapabilityCandidate {
  /** `tool.endpoint`. */
  readonly route: string;
  readonly tool: string;
  readonly endpoint: string;
  readonly source: string;
  readonly sourceKind: SourceKind;
  readonly namespace: string;
  readonly provider: string;
  readonly accessMode: string;
  readonly remote: boolean;
  readonly effect: Effect;
  readonly description: string;
  readonly toolDescription: string;
  /** Effective, self-contained input JSON Schema (shared definitions inlined as `$defs`). */
  readonly inputSchema: JsonSchema;
  /** Effective, self-contained output JSON Schema. */
  readonly outputSchema: JsonSchema;
  readonly parameters: readonly ParameterSpec[];
  readonly fields: readonly FieldSpec[];
  /** Distinct semantic IDs of the declared fields, in declaration order. */
  readonly semanticIds: readonly string[];
  /** Distinct units of the declared fields, in declaration order. */
  readonly units: readonly string[];
  readonly endpointFingerprint: string;
  readonly toolFingerprint: string;
  /** 1-based position in the ranked surface. */
  readonly rank: number;
  readonly score: number;
  /** Non-zero score components (see SCORE_WEIGHTS). */
  readonly scoreComponents: Readonly<Partial<Record<ScoreComponent, number>>>;
  /** Declared field IDs that a query token, a requested field, semantic ID or unit matched. */
  readonly matchedFields: readonly string[];
}

export interface RetrieveOptions {
  /** Number of candidates (integer, 1..MAX_K; default 5). */
  readonly k?: number;
  /** Candidates must score strictly above this (default 0). */
  readonly minScore?: number;
  /** Fraction (0..1) of the distinct request tokens a candidate must contain (default 0). */
  readonly minCoverage?: number;
}

export interface ExecutableOptions extends RetrieveOptions {
  /** Trusted local readiness: true when a binding for the tool's current contract exists. */
  readonly isReady: (tool: string) => boolean;
}

export interface StateAwareOptions<S> extends RetrieveOptions {
  /** Host-supplied eligibility under typed state. Only `true` counts as eligible. */
  readonly isEligible: (candidate: CapabilityCandidate, state: S) => boolean;
  /** Restricts the surface to ready capabilities (as `retrieveExecutable` does). */
  readonly isReady?: (tool: string) => boolean;
}
