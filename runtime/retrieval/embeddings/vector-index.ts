/**
 * The vectors of a loaded catalog (docs/runtime/embeddings.md, "Guarantees"): every artifact's
 * `embeddings` section, checked against the runtime embedder's model and dimension (vectors of two
 * models are never mixed), decoded once, and scored against a query vector by cosine similarity.
 */
import { LoadError } from "../../errors/errors.js";
import type { Artifact } from "../../format/artifact.js";
import { decodeVector } from "../../format/artifact-embeddings.js";
import type { Embedder } from "./types.js";

export interface RouteSimilarity {
  readonly route: string;
  /** Cosine similarity of the query with the endpoint's text or its best field's, whichever is higher. */
  readonly similarity: number;
  /** The declared field whose vector was closest, when a field beat the endpoint's own text. */
  readonly field?: string;
}

export interface EmbeddingIndex {
  readonly model: string;
  readonly dimension: number;
  /** Sources whose artifacts hold vectors. */
  readonly sources: readonly string[];
  /** Number of routes with vectors. */
  readonly size: number;
  /** Every route with vectors, most similar first (ties: route order). `query` is a unit vector. */
  rank(query: Float64Array): RouteSimilarity[];
}

interface Stored {
  readonly bytes: Int8Array;
  readonly norm: number;
}

interface RouteEntry {
  readonly route: string;
  readonly endpoint: number;
  readonly fields: readonly (readonly [string, number])[];
}

/**
 * The index over `artifacts` for `embedder`. Throws EMBEDDING_MISMATCH when no artifact holds vectors,
 * when one holds another model's, or when their dimensions differ from each other or from the
 * embedder's declared `dimension`.
 */
export function createEmbeddingIndex(
  artifacts: ReadonlyMap<string, Artifact> | Iterable<Artifact>,
  embedder: Pick<Embedder, "model"> & { readonly dimension?: number },
): EmbeddingIndex {
  if (embedder === null || typeof embedder !== "object" || typeof embedder.model !== "string") {
    throw new LoadError(
      "EMBEDDING_MISMATCH",
      "The embedder must be an object with a `model` name and an `embed(texts)` function (docs/runtime/embeddings.md).",
      { reason: "embedder" },
    );
  }
  const list = artifacts instanceof Map ? [...artifacts.values()] : [...(artifacts as Iterable<Artifact>)];
  const stored: Stored[] = [];
  const routes: RouteEntry[] = [];
  const sources: string[] = [];
  let dimension: number | undefined;
  for (const artifact of list) {
    const section = artifact.embeddings;
    if (section === undefined) continue;
    const source = artifact.source.name;
    if (section.model !== embedder.model) {
      throw new LoadError(
        "EMBEDDING_MISMATCH",
        `Source "${source}" was compiled with embedding model "${section.model}", but the runtime embedder is "${embedder.model}". Pass an embedder of the same model, or compile again with this one.`,
        { reason: "model", source, expected: section.model, actual: embedder.model },
      );
    }
    const wanted = dimension ?? embedder.dimension ?? section.dimension;
    if (section.dimension !== wanted) {
      throw new LoadError(
        "EMBEDDING_MISMATCH",
        `Source "${source}" holds vectors of dimension ${section.dimension}, but ${dimension === undefined ? "the runtime embedder declares" : "another source holds"} ${wanted}. Compile every source with the same embedder.`,
        { reason: "dimension", source, expected: String(section.dimension), actual: String(wanted) },
      );
    }
    dimension = section.dimension;
    sources.push(source);
    const base = stored.length;
    for (const text of section.vectors) {
      const bytes = decodeVector(text);
      let sum = 0;
      for (let i = 0; i < bytes.length; i++) sum += bytes[i]! * bytes[i]!;
      stored.push({ bytes, norm: Math.sqrt(sum) });
    }
    for (const route of Object.keys(section.routes).sort()) {
      const entry = section.routes[route]!;
      routes.push({
        route,
        endpoint: base + entry.endpoint,
        fields: Object.keys(entry.fields)
          .sort()
          .map((field) => [field, base + entry.fields[field]!] as const),
      });
    }
  }
  if (dimension === undefined) {
    throw new LoadError(
      "EMBEDDING_MISMATCH",
      `No artifact holds vectors, so the embedder of model "${embedder.model}" has nothing to compare with. Add "embedder" to schemarouter.config.json and run \`schemarouter compile\` (docs/runtime/embeddings.md).`,
      { reason: "absent", actual: embedder.model },
    );
  }
  const size = dimension;
  return Object.freeze({
    model: embedder.model,
    dimension: size,
    sources: Object.freeze(sources),
    size: routes.length,
    rank(query: Float64Array): RouteSimilarity[] {
      if (query.length !== size)
        throw new TypeError(`query vector has dimension ${query.length}, not ${size}`);
      const cosine = new Float64Array(stored.length);
      for (let v = 0; v < stored.length; v++) {
        const { bytes, norm } = stored[v]!;
        let dot = 0;
        for (let i = 0; i < size; i++) dot += query[i]! * bytes[i]!;
        cosine[v] = norm === 0 ? 0 : dot / norm;
      }
      const out = routes.map((entry, order) => {
        let similarity = cosine[entry.endpoint]!;
        let field: string | undefined;
        for (const [id, at] of entry.fields) {
          if (cosine[at]! > similarity) {
            similarity = cosine[at]!;
            field = id;
          }
        }
        return {
          order,
          result:
            field === undefined
              ? { route: entry.route, similarity }
              : { route: entry.route, similarity, field },
        };
      });
      out.sort((a, b) => b.result.similarity - a.result.similarity || a.order - b.order);
      return out.map((item) => item.result);
    },
  });
}
