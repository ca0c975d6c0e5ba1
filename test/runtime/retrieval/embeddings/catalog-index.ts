/**
 * The vectors of an in-memory catalog, through the real compile-time path: embeddingsOf → the
 * artifact text the compiler writes → parseArtifact → createEmbeddingIndex.
 */
import { emitArtifact } from "../../../../compiler/emit/artifact.js";
import { embeddingsOf } from "../../../../compiler/emit/embeddings.js";
import { parseArtifact } from "../../../../runtime/format/artifact-read.js";
import type { ToolSpec } from "../../../../runtime/model/specs.js";
import {
  createEmbeddingIndex,
  type EmbeddingIndex,
} from "../../../../runtime/retrieval/embeddings/vector-index.js";
import { trigramEmbedder } from "../../../fixtures/embeddings/trigram-embedder.mjs";

export const embedder = trigramEmbedder();

export async function catalogIndex(tools: readonly ToolSpec[]): Promise<EmbeddingIndex> {
  const result = {
    tools,
    defs: {},
    compatibility: [],
    documentDigest: `sha256:${"0".repeat(64)}`,
    location: "in-memory",
  };
  const embeddings = await embeddingsOf(result, { ...embedder, batchSize: undefined });
  const { text } = emitArtifact("catalog", "local", result, embeddings);
  return createEmbeddingIndex([parseArtifact(text, "catalog.json")], embedder);
}
