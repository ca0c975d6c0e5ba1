/**
 * Calling the application's embedder and checking what it returns (docs/runtime/embeddings.md, "The
 * interface"): one vector per text, all of one dimension, finite, not all zero. A wrong answer is
 * EMBEDDER_OUTPUT_INVALID and a throw is EMBEDDER_FAILED, never a vector that is silently used.
 */
import { MAX_DIMENSION } from "../../format/artifact-embeddings.js";
import { EmbedderError } from "./errors.js";
import type { Embedder, EmbeddingVector } from "./types.js";

export type EmbedStage = "compile" | "query";

export interface EmbedOptions {
  readonly stage: EmbedStage;
  /** The dimension every vector must have (default: the first vector's). */
  readonly dimension?: number;
  /** Texts per `embed` call (default 128). */
  readonly batchSize?: number;
}

export const DEFAULT_BATCH_SIZE = 128;

/** The texts' vectors, each scaled to unit length, in order. */
export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedOptions,
): Promise<Float64Array[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new TypeError(`embedder batch size must be a positive integer; got ${String(batchSize)}.`);
  const out: Float64Array[] = [];
  let dimension = options.dimension;
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    let answer: unknown;
    try {
      answer = await embedder.embed(batch);
    } catch (cause) {
      throw new EmbedderError(
        "EMBEDDER_FAILED",
        `The embedder of model "${embedder.model}" failed while embedding ${options.stage === "compile" ? "endpoint and field texts" : "a request"}: ${(cause as Error)?.message ?? String(cause)}`,
        { stage: options.stage, model: embedder.model },
        { cause },
      );
    }
    const vectors = checkAnswer(answer, batch.length, dimension, embedder.model, options.stage, start);
    dimension ??= vectors[0]?.length;
    out.push(...vectors);
  }
  return out;
}

function checkAnswer(
  answer: unknown,
  count: number,
  dimension: number | undefined,
  model: string,
  stage: EmbedStage,
  offset: number,
): Float64Array[] {
  const invalid = (
    reason: "not-a-list" | "count" | "not-a-vector" | "dimension" | "not-finite" | "zero",
    what: string,
    extra: { index?: number; expected?: number; actual?: number } = {},
  ): EmbedderError =>
    new EmbedderError(
      "EMBEDDER_OUTPUT_INVALID",
      `The embedder of model "${model}" ${what}. It must return one vector of finite numbers per text, all of one dimension.`,
      { stage, model, reason, ...extra },
    );
  if (!Array.isArray(answer)) throw invalid("not-a-list", "did not return an array of vectors");
  if (answer.length !== count)
    throw invalid("count", `returned ${answer.length} vectors for ${count} texts`, {
      expected: count,
      actual: answer.length,
    });
  let expected = dimension;
  return answer.map((vector: unknown, at) => {
    const index = offset + at;
    if (!isVector(vector))
      throw invalid("not-a-vector", `returned something that is not a vector at ${index}`, { index });
    expected ??= vector.length;
    if (vector.length !== expected || vector.length < 1 || vector.length > MAX_DIMENSION)
      throw invalid(
        "dimension",
        `returned a vector of dimension ${vector.length} at ${index}, expected ${expected}`,
        {
          index,
          expected,
          actual: vector.length,
        },
      );
    return unit(
      vector,
      () => invalid("not-finite", `returned a non-finite number at ${index}`, { index }),
      () => invalid("zero", `returned an all-zero vector at ${index}`, { index }),
    );
  });
}

function isVector(value: unknown): value is EmbeddingVector {
  return Array.isArray(value) || value instanceof Float32Array || value instanceof Float64Array;
}

/** The vector scaled to unit L2 length (sum of squares in index order, so the result is reproducible). */
function unit(vector: EmbeddingVector, notFinite: () => Error, zero: () => Error): Float64Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i];
    if (typeof x !== "number" || !Number.isFinite(x)) throw notFinite();
    sum += x * x;
  }
  if (!Number.isFinite(sum)) throw notFinite();
  if (!(sum > 0)) throw zero();
  const norm = Math.sqrt(sum);
  const out = new Float64Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}
