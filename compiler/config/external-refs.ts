/**
 * Configuration of an OpenAPI source's external `$ref`s (docs/sources/openapi-external-refs.md): off
 * unless local config turns them on, and bounded when on. The defaults are defined here, once.
 */

export interface ExternalRefsConfig {
  /** Follow `$ref`s into other documents (files in the root document's directory tree, or same-origin URLs). */
  readonly enabled: boolean;
  /** Most documents read besides the root document. */
  readonly maxDocuments?: number;
  /** Longest chain of documents from the root document (a document the root references is at depth 1). */
  readonly maxDepth?: number;
  /** Most bytes read over all documents besides the root document. */
  readonly maxBytes?: number;
  /** Most milliseconds spent reading all documents besides the root document. */
  readonly timeoutMs?: number;
}

export type ExternalRefLimits = Required<Omit<ExternalRefsConfig, "enabled">>;
export type ExternalRefLimit = keyof ExternalRefLimits;

export const EXTERNAL_REFS_DEFAULTS: ExternalRefLimits = {
  maxDocuments: 100,
  maxDepth: 10,
  maxBytes: 32 * 1024 * 1024,
  timeoutMs: 60_000,
};

/** The limits in force for a source: its config over the defaults. */
export function externalRefLimits(config: ExternalRefsConfig): ExternalRefLimits {
  return {
    maxDocuments: config.maxDocuments ?? EXTERNAL_REFS_DEFAULTS.maxDocuments,
    maxDepth: config.maxDepth ?? EXTERNAL_REFS_DEFAULTS.maxDepth,
    maxBytes: config.maxBytes ?? EXTERNAL_REFS_DEFAULTS.maxBytes,
    timeoutMs: config.timeoutMs ?? EXTERNAL_REFS_DEFAULTS.timeoutMs,
  };
}

/** JSON Schema fragment of `sources.<name>.externalRefs` (openapi sources). */
export const externalRefsSchema = {
  type: "object",
  required: ["enabled"],
  additionalProperties: false,
  description:
    "External $refs (other files in the document's directory tree, or URLs on the document's origin). Off unless enabled.",
  properties: {
    enabled: { type: "boolean", description: "Follow $refs into other documents." },
    maxDocuments: {
      type: "integer",
      minimum: 1,
      maximum: 10_000,
      default: EXTERNAL_REFS_DEFAULTS.maxDocuments,
      description: "Most documents read besides the root document.",
    },
    maxDepth: {
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: EXTERNAL_REFS_DEFAULTS.maxDepth,
      description: "Longest chain of documents from the root document (its own references are depth 1).",
    },
    maxBytes: {
      type: "integer",
      minimum: 1,
      maximum: 1024 * 1024 * 1024,
      default: EXTERNAL_REFS_DEFAULTS.maxBytes,
      description: "Most bytes read over all documents besides the root document.",
    },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      maximum: 600_000,
      default: EXTERNAL_REFS_DEFAULTS.timeoutMs,
      description: "Most milliseconds spent reading all documents besides the root document.",
    },
  },
} as const;
