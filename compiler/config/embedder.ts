/**
 * The optional `embedder` of `schemarouter.config.json` (docs/runtime/embeddings.md, "Compiling with
 * an embedder"): a trusted local module whose export is an `embed(texts)` function, and the model
 * name recorded in every artifact. Types and the JSON Schema fragment.
 */

export interface EmbedderConfig {
  /** Module (.mjs, .js, .ts; relative to the config) exporting `embed(texts) → vectors`. */
  readonly module: string;
  /** Named export to use instead of the default export. */
  readonly export?: string;
  /** The model name recorded in artifacts; the runtime embedder must name the same one. */
  readonly model: string;
  /** Texts per `embed` call (default 128). */
  readonly batchSize?: number;
}

export const embedderSchema = {
  type: "object",
  required: ["module", "model"],
  additionalProperties: false,
  description:
    "Compute endpoint and field vectors at compile time with a trusted local module (docs/runtime/embeddings.md).",
  properties: {
    module: {
      type: "string",
      minLength: 1,
      description: "Module (relative to this config) whose default export is an async embed(texts) function.",
    },
    export: {
      type: "string",
      minLength: 1,
      description: "Named export to use instead of the default export.",
    },
    model: {
      type: "string",
      minLength: 1,
      description: "The model name recorded in artifacts; the runtime embedder must name the same model.",
    },
    batchSize: {
      type: "integer",
      minimum: 1,
      maximum: 4096,
      description: "Texts per embed call (default 128).",
    },
  },
} as const;
