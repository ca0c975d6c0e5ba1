/**
 * The vectors of a loaded catalog (docs/runtime/embeddings.md, "Guarantees"): every artifact's
 * `embeddings` section, checked against the runtime embedder's model and dimension (vectors of two
 * models are never mixed), decoded once, and scored against a query vector by cosine similarity.
 */
import { LoadError } from "../../errors/errors.js";
import type { Artifact } from "../../format/artifact.js";
import { type ArtifactEmbeddings, decodeVector } from "../../format/artifact-embeddings.js";
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
  /**
   * Every route with at least one declared field's vector, by its closest field only (the endpoint's
   * own text is not counted), most similar first (ties: route order). `query` is a unit vector.
   */
  rankFields(query: Float64Array): (RouteSimilarity & { readonly field: string })[];
}

interface RouteEntry {
  readonly route: string;
  readonly endpoint: number;
  /** Field IDs and their vector indices, in field-ID order. */
  readonly fields: readonly (readonly [string, number])[];
}

/** Every vector in one row-major matrix of signed bytes, with each row's length. */
interface Matrix {
  readonly rows: number;
  readonly values: Int8Array;
  readonly norms: Float64Array;
  readonly routes: readonly RouteEntry[];
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
  // Any ReadonlyMap (a loaded catalog's artifacts may be deferred: runtime/load/deferred-source.ts).
  const list = isMap(artifacts) ? [...artifacts.values()] : [...artifacts];
  const sections: { readonly source: string; readonly section: ArtifactEmbeddings }[] = [];
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
    sections.push({ source, section });
  }
  if (dimension === undefined) {
    throw new LoadError(
      "EMBEDDING_MISMATCH",
      `No artifact holds vectors, so the embedder of model "${embedder.model}" has nothing to compare with. Add "embedder" to schemarouter.config.json and run \`schemarouter compile\` (docs/runtime/embeddings.md).`,
      { reason: "absent", actual: embedder.model },
    );
  }
  const size = dimension;
  // Decoded on the first ranking, so loading checks only the models and dimensions.
  let matrix: Matrix | undefined;
  const ranked = (query: Float64Array, withEndpoint: boolean): RouteSimilarity[] => {
    if (query.length !== size) throw new TypeError(`query vector has dimension ${query.length}, not ${size}`);
    matrix ??= decode(sections, size);
    const { rows, values, norms, routes } = matrix;
    const cosine = new Float64Array(rows);
    for (let row = 0, at = 0; row < rows; row++) {
      let dot = 0;
      for (let i = 0; i < size; i++, at++) dot += query[i]! * values[at]!;
      cosine[row] = norms[row] === 0 ? 0 : dot / norms[row]!;
    }
    const best = new Float64Array(routes.length);
    const fieldOf: (string | undefined)[] = new Array(routes.length);
    const kept: number[] = [];
    for (let r = 0; r < routes.length; r++) {
      const entry = routes[r]!;
      let similarity = withEndpoint ? cosine[entry.endpoint]! : Number.NEGATIVE_INFINITY;
      let field: string | undefined;
      for (const [id, at] of entry.fields) {
        if (cosine[at]! > similarity) {
          similarity = cosine[at]!;
          field = id;
        }
      }
      best[r] = similarity;
      fieldOf[r] = field;
      if (withEndpoint || field !== undefined) kept.push(r);
    }
    kept.sort((a, b) => best[b]! - best[a]! || a - b);
    return kept.map((r) => {
      const field = fieldOf[r];
      const route = routes[r]!.route;
      return field === undefined ? { route, similarity: best[r]! } : { route, similarity: best[r]!, field };
    });
  };
  return Object.freeze({
    model: embedder.model,
    dimension: size,
    sources: Object.freeze(sections.map((s) => s.source)),
    size: sections.reduce((sum, s) => sum + Object.keys(s.section.routes).length, 0),
    rank(query: Float64Array): RouteSimilarity[] {
      return ranked(query, true);
    },
    rankFields(query: Float64Array): (RouteSimilarity & { readonly field: string })[] {
      return ranked(query, false) as (RouteSimilarity & { readonly field: string })[];
    },
  });
}

function decode(sections: readonly { readonly section: ArtifactEmbeddings }[], dimension: number): Matrix {
  const rows = sections.reduce((sum, s) => sum + s.section.vectors.length, 0);
  const values = new Int8Array(rows * dimension);
  const norms = new Float64Array(rows);
  const routes: RouteEntry[] = [];
  let row = 0;
  for (const { section } of sections) {
    const base = row;
    for (const text of section.vectors) {
      const bytes = decodeVector(text);
      values.set(bytes, row * dimension);
      let sum = 0;
      for (let i = 0; i < bytes.length; i++) sum += bytes[i]! * bytes[i]!;
      norms[row++] = Math.sqrt(sum);
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
  return { rows, values, norms, routes };
}

function isMap(
  artifacts: ReadonlyMap<string, Artifact> | Iterable<Artifact>,
): artifacts is ReadonlyMap<string, Artifact> {
  const map = artifacts as Partial<ReadonlyMap<string, Artifact>>;
  return typeof map.get === "function" && typeof map.values === "function" && typeof map.has === "function";
}
