/**
 * The optional `embeddings` member of an artifact (docs/runtime/embeddings.md, "What is stored"):
 * vectors the application's embedder computed at compile time for every endpoint and declared field,
 * L2-normalised and quantised to signed bytes, so the same embedder output always gives the same
 * bytes. It lives inside the artifact, so the lockfile's artifact digest pins it: a swapped vector is
 * a changed artifact (LOCK_MISMATCH). Only compiles whose config names an embedder write it.
 */
import { LoadError } from "../errors/errors.js";
import type { EndpointIndex } from "./artifact.js";

/** Format of the section: the text rule (docs/runtime/embeddings.md) and the int8 quantisation. */
export const EMBEDDINGS_FORMAT = "schemarouter.embeddings/1";
/** Quantisation scale: a unit vector's components in [-1, 1] become integers in [-127, 127]. */
export const QUANTISATION_SCALE = 127;
export const MAX_DIMENSION = 65_536;

/** The vectors of one endpoint: indices into `vectors`. */
export interface RouteVectors {
  /** The endpoint's own text (name and description). */
  readonly endpoint: number;
  /** Declared field ID → the field's text (ID, aliases, description, unit). */
  readonly fields: Readonly<Record<string, number>>;
}

export interface ArtifactEmbeddings {
  readonly format: typeof EMBEDDINGS_FORMAT;
  /** The model name the config records; a runtime embedder must name the same one. */
  readonly model: string;
  readonly dimension: number;
  /** Route (`tool.endpoint`) → its vectors, for every endpoint of the artifact. */
  readonly routes: Readonly<Record<string, RouteVectors>>;
  /** Distinct vectors in first-use order, each `dimension` signed bytes in base64. */
  readonly vectors: readonly string[];
}

/** A unit vector quantised to `dimension` signed bytes (Math.round of each component × 127), base64. */
export function encodeVector(unit: ArrayLike<number>): string {
  const bytes = new Int8Array(unit.length);
  for (let i = 0; i < unit.length; i++) {
    bytes[i] = Math.max(-QUANTISATION_SCALE, Math.min(QUANTISATION_SCALE, Math.round(unit[i]! * 127)));
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** The signed bytes of a stored vector. */
export function decodeVector(text: string): Int8Array {
  const buffer = Buffer.from(text, "base64");
  return new Int8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Base64 length of `dimension` bytes (with padding). */
function encodedLength(dimension: number): number {
  return Math.ceil(dimension / 3) * 4;
}

/** Canonical base64: decoding and encoding again gives the same text (invalid characters would be dropped). */
function isBase64(text: string): boolean {
  return Buffer.from(text, "base64").toString("base64") === text;
}

/**
 * Checks an artifact's `embeddings` member against the format and the artifact's own endpoints:
 * every endpoint has vectors, every index points at a vector of the recorded dimension. The file's
 * bytes already matched the lockfile; this refuses a section no compiler writes (ARTIFACT_INVALID).
 */
export function checkEmbeddingsSection(value: unknown, index: EndpointIndex, where: string): void {
  const fail = (why: string): LoadError =>
    new LoadError(
      "ARTIFACT_INVALID",
      `${where}: its embeddings section ${why}; re-run \`schemarouter compile\` and never edit artifacts.`,
      { path: where, reason: "embeddings" },
    );
  if (!isPlainRecord(value)) throw fail("is not an object");
  const keys = Object.keys(value).sort().join(",");
  if (keys !== "dimension,format,model,routes,vectors") throw fail("does not have exactly its five members");
  if (value.format !== EMBEDDINGS_FORMAT) throw fail(`is not of format ${EMBEDDINGS_FORMAT}`);
  if (typeof value.model !== "string" || value.model.length === 0) throw fail("names no model");
  const dimension = value.dimension;
  if (
    typeof dimension !== "number" ||
    !Number.isInteger(dimension) ||
    dimension < 1 ||
    dimension > MAX_DIMENSION
  )
    throw fail("has no valid dimension");
  const vectors = value.vectors;
  const length = encodedLength(dimension);
  if (
    !Array.isArray(vectors) ||
    !vectors.every((v) => typeof v === "string" && v.length === length && isBase64(v))
  )
    throw fail(`holds a vector that is not ${dimension} base64 bytes`);
  const routes = value.routes;
  if (!isPlainRecord(routes)) throw fail("has no routes");
  const expected = new Set<string>();
  for (const [tool, endpoints] of Object.entries(index))
    for (const [endpoint] of endpoints) expected.add(`${tool}.${endpoint}`);
  const isIndex = (n: unknown) =>
    typeof n === "number" && Number.isInteger(n) && n >= 0 && n < vectors.length;
  for (const [route, entry] of Object.entries(routes)) {
    if (!expected.delete(route)) throw fail(`names route "${route}", which the artifact does not declare`);
    if (!isPlainRecord(entry) || !isIndex(entry.endpoint) || !isPlainRecord(entry.fields))
      throw fail(`has a malformed entry for "${route}"`);
    if (Object.keys(entry).length !== 2 || !Object.values(entry.fields).every(isIndex))
      throw fail(`has a malformed entry for "${route}"`);
  }
  if (expected.size > 0) throw fail(`has no vectors for "${[...expected][0]}"`);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
