/**
 * The SchemaProposal file (docs/sources/proposals.md, "The proposal file"): what a proposer suggested
 * from a documentation page, kept only where an exact quote of the page's visible text grounds it.
 * It is never executable: only `schemarouter approve` turns it into a `proposal` source.
 */

export const PROPOSAL_FORMAT = "schemarouter.proposal/1";

export const PROPOSAL_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type ProposalMethod = (typeof PROPOSAL_METHODS)[number];

export const PARAMETER_LOCATIONS = ["path", "query", "body"] as const;
export type ProposalParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

export const VALUE_TYPES = ["string", "integer", "number", "boolean"] as const;
export type ProposalValueType = (typeof VALUE_TYPES)[number];

/** An exact quote of the page's visible text and where it is. */
export interface ProposalQuote {
  readonly text: string;
  /** UTF-16 offset in the visible text (docs/sources/proposals.md, "What the proposer sees"). */
  readonly offset: number;
  /** Line and column in the HTML source where the quote starts. */
  readonly line: number;
  readonly column: number;
}

export interface ProposedParameter {
  readonly name: string;
  readonly in: ProposalParameterLocation;
  readonly required: boolean;
  readonly type: ProposalValueType;
  readonly description?: string;
  readonly quote: ProposalQuote;
}

export interface ProposedField {
  readonly name: string;
  readonly type: ProposalValueType;
  readonly description?: string;
  readonly quote: ProposalQuote;
}

export interface ProposedEndpoint {
  readonly name: string;
  readonly method: ProposalMethod;
  readonly path: string;
  readonly description: string;
  /** The response is a JSON array of records (fields are item properties). */
  readonly list: boolean;
  readonly quote: ProposalQuote;
  readonly parameters: readonly ProposedParameter[];
  readonly fields: readonly ProposedField[];
}

/** Something the proposer offered that the proposal does not keep, and why. */
export interface DroppedItem {
  /** Where in the proposer's answer, e.g. `endpoints[2].parameters[0]`. */
  readonly at: string;
  readonly kind: "endpoint" | "parameter" | "field" | "key";
  readonly name: string;
  readonly reason: string;
}

export interface SchemaProposal {
  readonly format: typeof PROPOSAL_FORMAT;
  readonly executable: false;
  readonly source: string;
  readonly document: {
    /** Sanitized: no userinfo, query string or fragment. */
    readonly location: string;
    /** SHA-256 of the page bytes as fetched. */
    readonly digest: string;
    readonly title: string;
  };
  /** The proposer's self-declared name (descriptive). */
  readonly proposer: string;
  readonly endpoints: readonly ProposedEndpoint[];
  readonly dropped: readonly DroppedItem[];
  /** Endpoints, parameters and fields offered, and how many of them a quote grounds. */
  readonly grounding: { readonly offered: number; readonly grounded: number };
}

/** The grounded share of what was offered (1 when nothing was offered is not useful: 0). */
export function groundingRatio(proposal: SchemaProposal): number {
  const { offered, grounded } = proposal.grounding;
  return offered === 0 ? 0 : grounded / offered;
}

/** The effect an endpoint's method implies (docs/sources/proposals.md, "Approval"). */
export function effectOfMethod(method: ProposalMethod): "read" | "write" | "destructive" {
  return method === "get" ? "read" : method === "delete" ? "destructive" : "write";
}
