/**
 * The optional embedder interface (docs/runtime/embeddings.md): the application supplies a function
 * from texts to vectors (a hosted embeddings API, a local model it installs). SchemaRouter depends on
 * no model package; it only checks what the function returns.
 */

/** One vector: plain numbers or a typed array, every component finite. */
export type EmbeddingVector = readonly number[] | Float32Array | Float64Array;

export interface Embedder {
  /**
   * The model name. The compiler records the config's `embedder.model` in every artifact; a runtime
   * embedder must name the same model (EMBEDDING_MISMATCH otherwise).
   */
  readonly model: string;
  /** One vector per text, in order, all of one dimension. */
  embed(texts: readonly string[]): Promise<readonly EmbeddingVector[]> | readonly EmbeddingVector[];
}
