/**
 * Configuration of a `proposal` source (docs/sources/proposals.md, "Approval") and of the proposer
 * module `schemarouter propose` loads: their types and JSON Schema fragments. `schemarouter approve`
 * writes the source entry; the shared `overlays` property is supplied by the config schema.
 */
import type { Overlays } from "./config.js";

export interface ProposalSourceConfig {
  readonly kind: "proposal";
  /** The approved proposal file, relative to the config. */
  readonly proposal: string;
  /** SHA-256 of the approved file: a changed file compiles only after approving it again. */
  readonly digest: string;
  /** The API base URL given to `approve` (origin plus base path). */
  readonly baseUrl: string;
  /** Compile non-GET endpoints too (`approve --allow-mutations`). */
  readonly allowMutations?: boolean;
  readonly overlays?: Overlays;
}

export interface ProposerConfig {
  readonly module: string;
  readonly export?: string;
  readonly timeoutMs?: number;
}

export const proposalSourceSchema = {
  type: "object",
  required: ["kind", "proposal", "digest", "baseUrl"],
  additionalProperties: false,
  properties: {
    kind: { const: "proposal" },
    proposal: {
      type: "string",
      minLength: 1,
      description: "The approved proposal file (relative to this config).",
    },
    digest: {
      type: "string",
      pattern: "^sha256:[0-9a-f]{64}$",
      description: "SHA-256 of the approved proposal file, written by `schemarouter approve`.",
    },
    baseUrl: {
      type: "string",
      minLength: 1,
      description: "The API base URL given to `schemarouter approve`.",
    },
    allowMutations: {
      type: "boolean",
      description: "Compile the proposal's non-GET endpoints (`approve --allow-mutations`).",
    },
  },
} as const;

export const proposerSchema = {
  type: "object",
  required: ["module"],
  additionalProperties: false,
  description: "The proposer `schemarouter propose` loads (docs/sources/proposals.md).",
  properties: {
    module: {
      type: "string",
      minLength: 1,
      description: "Module whose default export is defineProposer(...).",
    },
    export: { type: "string", description: "Named export to use instead of the default export." },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      description: "Time limit of one proposer call (default 120000).",
    },
  },
} as const;
