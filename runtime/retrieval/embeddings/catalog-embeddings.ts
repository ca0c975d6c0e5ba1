/**
 * The router's embedder state (docs/runtime/embeddings.md, "With SchemaRouter"): the embedder the
 * application passed to `SchemaRouter.load`, and the vector index of the snapshot in use, built once
 * per loaded catalog (a reload brings a new catalog, hence a new index, checked again).
 */
import { LoadError } from "../../errors/errors.js";
import type { LoadedCatalog } from "../../load/load.js";
import type { Embedder } from "./types.js";
import { createEmbeddingIndex, type EmbeddingIndex } from "./vector-index.js";

export class CatalogEmbeddings {
  private cached: { readonly catalog: LoadedCatalog; readonly index: EmbeddingIndex } | undefined;

  constructor(readonly embedder: Embedder | undefined) {
    if (embedder !== undefined && (embedder === null || typeof embedder.embed !== "function")) {
      throw new LoadError(
        "EMBEDDING_MISMATCH",
        "The embedder option must be { model, embed(texts) } (docs/runtime/embeddings.md).",
        { reason: "embedder" },
      );
    }
  }

  /** The configured embedder; EMBEDDING_MISMATCH (reason `embedder`) when none was passed. */
  requireEmbedder(): Embedder {
    if (this.embedder === undefined) {
      throw new LoadError(
        "EMBEDDING_MISMATCH",
        "No embedder was configured: pass SchemaRouter.load({ embedder: { model, embed } }) (docs/runtime/embeddings.md).",
        { reason: "embedder" },
      );
    }
    return this.embedder;
  }

  /** The index of `catalog`'s artifacts for the configured embedder (EMBEDDING_MISMATCH when they disagree). */
  indexFor(catalog: LoadedCatalog | undefined): EmbeddingIndex {
    const embedder = this.requireEmbedder();
    if (catalog === undefined) return createEmbeddingIndex([], embedder);
    if (this.cached?.catalog !== catalog) {
      this.cached = { catalog, index: createEmbeddingIndex(catalog.artifacts, embedder) };
    }
    return this.cached.index;
  }
}
