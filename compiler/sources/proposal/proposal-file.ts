/**
 * Proposal files (docs/sources/proposals.md, "The proposal file"): their deterministic serialization,
 * and reading one back only when it matches the format's JSON Schema.
 */
import { readFile } from "node:fs/promises";
import { type JsonSchema, sha256, ValidatorSet } from "schemarouter/internal";
import { SourceError } from "../../errors/errors.js";
import {
  PARAMETER_LOCATIONS,
  PROPOSAL_FORMAT,
  PROPOSAL_METHODS,
  type SchemaProposal,
  VALUE_TYPES,
} from "./proposal.js";

const MAX_PROPOSAL_BYTES = 8 * 1024 * 1024;

const quote = {
  type: "object",
  required: ["text", "offset", "line", "column"],
  additionalProperties: false,
  properties: {
    text: { type: "string", minLength: 1 },
    offset: { type: "integer", minimum: 0 },
    line: { type: "integer", minimum: 0 },
    column: { type: "integer", minimum: 0 },
  },
} as const;

const name = { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" } as const;
const valueType = { enum: [...VALUE_TYPES] } as const;

export const PROPOSAL_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["format", "executable", "source", "document", "proposer", "endpoints", "dropped", "grounding"],
  additionalProperties: false,
  properties: {
    format: { const: PROPOSAL_FORMAT },
    executable: { const: false },
    source: { type: "string" },
    document: {
      type: "object",
      required: ["location", "digest", "title"],
      additionalProperties: false,
      properties: { location: { type: "string" }, digest: { type: "string" }, title: { type: "string" } },
    },
    proposer: { type: "string" },
    endpoints: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "method", "path", "description", "list", "quote", "parameters", "fields"],
        additionalProperties: false,
        properties: {
          name: { type: "string", pattern: "^[a-z][A-Za-z0-9_]{0,63}$" },
          method: { enum: [...PROPOSAL_METHODS] },
          path: { type: "string", pattern: "^/" },
          description: { type: "string" },
          list: { type: "boolean" },
          quote,
          parameters: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "in", "required", "type", "quote"],
              additionalProperties: false,
              properties: {
                name,
                in: { enum: [...PARAMETER_LOCATIONS] },
                required: { type: "boolean" },
                type: valueType,
                quote,
              },
            },
          },
          fields: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "type", "quote"],
              additionalProperties: false,
              properties: { name, type: valueType, quote },
            },
          },
        },
      },
    },
    dropped: { type: "array", items: { type: "object" } },
    grounding: {
      type: "object",
      required: ["offered", "grounded"],
      additionalProperties: false,
      properties: { offered: { type: "integer", minimum: 0 }, grounded: { type: "integer", minimum: 0 } },
    },
  },
} as const;

export function serializeProposal(proposal: SchemaProposal): string {
  return `${JSON.stringify(proposal, null, 2)}\n`;
}

export interface ReadProposal {
  readonly proposal: SchemaProposal;
  /** SHA-256 of the file's bytes: what approval pins. */
  readonly digest: string;
}

/** Reads and checks a proposal file; `source` names who is asking (for the error). */
export async function readProposal(source: string, path: string): Promise<ReadProposal> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new SourceError(
      source,
      "PROPOSAL_INVALID",
      `cannot read the proposal ${path}; run \`schemarouter propose\` first.`,
      { path },
      { cause: error },
    );
  }
  if (bytes.byteLength > MAX_PROPOSAL_BYTES)
    throw new SourceError(source, "PROPOSAL_INVALID", `${path} is over ${MAX_PROPOSAL_BYTES} bytes.`, {
      path,
    });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new SourceError(source, "PROPOSAL_INVALID", `${path} is not JSON: ${(error as Error).message}`, {
      path,
    });
  }
  const violations = new ValidatorSet().validate(PROPOSAL_SCHEMA as unknown as JsonSchema, value);
  if (violations.length > 0) {
    const first = violations[0]!;
    throw new SourceError(
      source,
      "PROPOSAL_INVALID",
      `${path} is not a ${PROPOSAL_FORMAT} proposal: ${first.pointer || "/"} ${first.message}. Re-run \`schemarouter propose\` instead of editing it.`,
      { path, pointer: first.pointer },
    );
  }
  return { proposal: value as SchemaProposal, digest: sha256(bytes) };
}
