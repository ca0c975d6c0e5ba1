/**
 * JSON Schema fragments shared by the config schema and the per-kind source schemas.
 */

export const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";

/** `{ "env": "NAME" }`: a value read from a named environment variable. */
export const envRefSchema = {
  type: "object",
  required: ["env"],
  additionalProperties: false,
  properties: {
    env: { type: "string", pattern: ENV_NAME_PATTERN, description: "Environment variable name." },
  },
} as const;

/** One trusted field of a result contract (overlay). */
export const fieldOverlaySchema = {
  type: "object",
  required: ["id", "path"],
  additionalProperties: false,
  properties: {
    id: { type: "string", minLength: 1, description: "Logical field ID." },
    path: {
      type: "array",
      items: { type: "string", minLength: 1 },
      minItems: 1,
      description: "Path in the raw output; '*' walks a declared array.",
    },
    resultPath: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
    description: { type: "string" },
    aliases: { type: "array", items: { type: "string" } },
    semanticId: { type: "string" },
    unit: { type: "string" },
    dimensions: { type: "string" },
    normalization: {
      type: "object",
      required: ["canonicalUnit", "scale"],
      additionalProperties: false,
      properties: {
        canonicalUnit: { type: "string" },
        scale: { type: "number" },
        offset: { type: "number" },
      },
    },
    qualifiers: { type: "object", additionalProperties: { type: "string" } },
    identifier: { type: "boolean" },
    provenance: { type: "string" },
    license: { type: "string" },
  },
} as const;
