/**
 * `schemarouter check` and the stored vectors (docs/runtime/embeddings.md, "Checking the vectors"):
 * every locked artifact's `embeddings` must be what the configured embedder gives now — present
 * exactly when the config names an embedder, of its model, of the dimension it answers with, and the
 * first stored vector (the first endpoint's text) within STORED_VECTOR_AGREEMENT of a fresh one (the
 * module behind the model name did not change). One `embed` call for the whole check.
 */
import { type Artifact, decodeVector, type Embedder, embedTexts, endpointText } from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import { loadEmbedder } from "../emit/embeddings.js";

/**
 * Cosine similarity a fresh vector needs with its stored, byte-quantised copy. Quantisation to 127
 * steps keeps the same model's vectors above 0.999; another model's are far below.
 */
export const STORED_VECTOR_AGREEMENT = 0.99;

export type EmbeddingDriftReason = "absent" | "unexpected" | "model" | "dimension" | "vectors";

export interface EmbeddingDrift {
  readonly source: string;
  readonly reason: EmbeddingDriftReason;
  readonly message: string;
}

/** What in the locked artifacts' vectors the configured embedder would not write now. */
export async function checkEmbeddings(
  config: ResolvedConfig,
  artifacts: Iterable<Artifact>,
): Promise<EmbeddingDrift[]> {
  const entry = config.file.embedder;
  const drift: EmbeddingDrift[] = [];
  const compare: { source: string; text: string; stored: Int8Array; dimension: number }[] = [];
  for (const artifact of artifacts) {
    const source = artifact.source.name;
    const section = artifact.embeddings;
    const first = artifact.tools.find((tool) => tool.endpoints.length > 0);
    if (entry === undefined) {
      if (section !== undefined)
        drift.push({
          source,
          reason: "unexpected",
          message: `source "${source}" holds vectors of model "${section.model}", but the config names no embedder: run \`schemarouter compile\` to write it without them.`,
        });
      continue;
    }
    if (section === undefined) {
      if (first !== undefined)
        drift.push({
          source,
          reason: "absent",
          message: `source "${source}" was compiled without vectors, but the config names embedder model "${entry.model}": run \`schemarouter compile\`.`,
        });
      continue;
    }
    if (section.model !== entry.model) {
      drift.push({
        source,
        reason: "model",
        message: `source "${source}" holds vectors of model "${section.model}", but the config names "${entry.model}": run \`schemarouter compile\`.`,
      });
      continue;
    }
    const route = first === undefined ? undefined : `${first.name}.${first.endpoints[0]!.name}`;
    const slot = route === undefined ? undefined : section.routes[route]?.endpoint;
    if (first !== undefined && slot !== undefined) {
      compare.push({
        source,
        text: endpointText(first.endpoints[0]!),
        stored: decodeVector(section.vectors[slot]!),
        dimension: section.dimension,
      });
    }
  }
  if (compare.length === 0) return drift;
  const embedder: Embedder = (await loadEmbedder(config))!;
  const fresh = await embedTexts(
    embedder,
    compare.map((c) => c.text),
    { stage: "compile" },
  );
  compare.forEach((c, i) => {
    const vector = fresh[i]!;
    if (vector.length !== c.dimension) {
      drift.push({
        source: c.source,
        reason: "dimension",
        message: `source "${c.source}" holds vectors of dimension ${c.dimension}, but the configured embedder answers with ${vector.length}: run \`schemarouter compile\`.`,
      });
      return;
    }
    let dot = 0;
    let norm = 0;
    for (let d = 0; d < vector.length; d++) {
      dot += vector[d]! * c.stored[d]!;
      norm += c.stored[d]! * c.stored[d]!;
    }
    const cosine = norm === 0 ? 0 : dot / Math.sqrt(norm);
    if (cosine < STORED_VECTOR_AGREEMENT) {
      drift.push({
        source: c.source,
        reason: "vectors",
        message: `source "${c.source}": the configured embedder's vector for a stored text differs from the stored one (cosine ${cosine.toFixed(3)}, below ${STORED_VECTOR_AGREEMENT}); the module behind model "${entry!.model}" changed: run \`schemarouter compile\`.`,
      });
    }
  });
  return drift;
}
