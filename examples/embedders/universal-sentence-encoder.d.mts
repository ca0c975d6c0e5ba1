// Types of universal-sentence-encoder.mjs (docs/runtime/embeddings.md, "A local model").
export declare const MODEL: "universal-sentence-encoder-lite";
export default function embed(texts: readonly string[]): Promise<number[][]>;
export declare function useEmbedder(): {
  readonly model: typeof MODEL;
  readonly dimension: 512;
  embed(texts: readonly string[]): Promise<number[][]>;
};
