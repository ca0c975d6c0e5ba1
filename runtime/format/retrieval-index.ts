/**
 * The stored retrieval index (`<outDir>/retrieval-index.bin`, docs/reference/formats.md and
 * docs/runtime/retrieval-and-planning.md): the compile-time inverted index of every endpoint's scoring
 * surface, pinned by path and SHA-256 in the lockfile's `retrievalIndex`.
 *
 * Layout (all integers little-endian, every section starts on a 4-byte boundary):
 *   magic "SRINDEX\n" (8 bytes) · u32 format version · u32 header byte length · header (UTF-8 JSON,
 *   zero-padded) · vocabularyIds u32[V] · pairs u32[3Q] (concept id, unit id, pair id) ·
 *   documentFrequency u32[S] · keyMasks u16[S] · postingStart u32[S + 1] · postings i32[P] ·
 *   postingMasks u16[P] · effects u8[N] (index into header.effects) · componentLengths u32[N·L] ·
 *   endpointSpans u32[2N] · endpointDigests u8[32N] · toolSpans u32[4T] · toolDigests u8[32T] ·
 *   defStart u32[S + 1] · defSpans u32[2D] · defNameStart u32[D + 1] · defNames u8[B] (UTF-8)
 * The header holds the counts, the surface version, the sources (with the digest and byte length of the
 * artifact the index was built from), every tool with its endpoint names in registry order, and the
 * vocabulary strings (sorted in code-unit order, with their ids in `vocabularyIds` at the same
 * positions). The last eight sections locate each candidate's bytes in its artifact (format 2,
 * docs/runtime/loading-and-verification.md, "Candidates"): per endpoint the [start, end) of its
 * canonical text and that text's SHA-256; per tool the spans of its skeleton text before and after its
 * endpoint lines (the tool with `"endpoints":[]` is their concatenation) and their SHA-256; per source
 * (`defStart`) its shared definitions, in file order, with the span of each value and its name.
 * `componentLengths` (format 3) holds, per endpoint, the number of distinct tokens in each of the L
 * components `header.lengthBits` lists (component bits of the surface, in that column order): the
 * lengths BM25's length normalisation reads (runtime/retrieval/length-norm.ts), stored so a ranking
 * need not count them from the postings. Each endpoint's row depends on that endpoint alone, so the
 * section is cut and joined per source like the candidate locations; averages are not stored.
 * Encoding is a pure function of its input, so the same catalog gives byte-identical files. Ids may
 * be any numbering the vocabulary maps; the compiler writes them canonical (compiler/emit/index-merge.ts:
 * each key's id its sorted position, pair keys after, keys without postings left out).
 */
import { endianness } from "node:os";

export const RETRIEVAL_INDEX_FORMAT = 3;
const MAGIC = "SRINDEX\n";

export interface RetrievalIndexSource {
  readonly name: string;
  readonly kind: string;
  /** SHA-256 of the artifact file the index was built from (as the lock pins it). */
  readonly artifactDigest: string;
  /** Byte length of that file (a cheap load-time check; the digest is checked on first use). */
  readonly artifactBytes: number;
}

export interface RetrievalIndexTool {
  readonly name: string;
  /** Position of the tool's source in `sources`. */
  readonly source: number;
  /** The tool's endpoint names, in registry (artifact) order. */
  readonly endpoints: readonly string[];
}

/**
 * Where each candidate's bytes are in its artifact (spans are byte offsets [start, end) into the
 * artifact file; digests are raw SHA-256, 32 bytes per item).
 */
export interface RetrievalIndexLocations {
  /** Endpoint i's canonical text is `[endpointSpans[2i], endpointSpans[2i + 1])`. */
  readonly endpointSpans: Uint32Array;
  readonly endpointDigests: Uint8Array;
  /** Tool j's skeleton text: `[toolSpans[4j], toolSpans[4j + 1])` then `[toolSpans[4j + 2], toolSpans[4j + 3])`. */
  readonly toolSpans: Uint32Array;
  readonly toolDigests: Uint8Array;
  /** Source s's definitions are positions `defStart[s] .. defStart[s + 1]` of the arrays below. */
  readonly defStart: Uint32Array;
  /** Definition d's value is `[defSpans[2d], defSpans[2d + 1])` of its source's artifact. */
  readonly defSpans: Uint32Array;
  /** Definition d's name is the UTF-8 `defNames[defNameStart[d] .. defNameStart[d + 1])`. */
  readonly defNameStart: Uint32Array;
  readonly defNames: Uint8Array;
}

export const DIGEST_BYTES = 32;

export interface RetrievalIndexData {
  /** SURFACE_VERSION of the code that built the surfaces. */
  readonly surfaceVersion: number;
  readonly sources: readonly RetrievalIndexSource[];
  readonly tools: readonly RetrievalIndexTool[];
  /** Number of ids (tokens, exact keys and pair keys share one id space). */
  readonly size: number;
  /** Vocabulary keys and their ids (same positions). */
  readonly vocabulary: readonly string[];
  readonly vocabularyIds: Uint32Array;
  /** (concept token id, unit token id, pair key id) triplets. */
  readonly pairs: Uint32Array;
  readonly documentFrequency: Uint32Array;
  readonly keyMasks: Uint16Array;
  readonly postingStart: Uint32Array;
  readonly postings: Int32Array;
  readonly postingMasks: Uint16Array;
  /** Distinct effect names; `effects[i]` indexes it for endpoint i. */
  readonly effectNames: readonly string[];
  readonly effects: Uint8Array;
  /** The component bits whose lengths `componentLengths` holds, in column order (distinct). */
  readonly lengthBits: readonly number[];
  /** Endpoint i's distinct tokens in component `lengthBits[c]`: `componentLengths[i·L + c]`. */
  readonly componentLengths: Uint32Array;
  readonly locations: RetrievalIndexLocations;
}

interface Header {
  readonly surfaceVersion: number;
  readonly size: number;
  readonly pairs: number;
  readonly postings: number;
  readonly endpoints: number;
  readonly sources: readonly RetrievalIndexSource[];
  readonly tools: readonly RetrievalIndexTool[];
  readonly effects: readonly string[];
  readonly lengthBits: readonly number[];
  readonly vocabulary: readonly string[];
  readonly defs: number;
  readonly defNameBytes: number;
}

/** Why bytes are not a readable index (the loader turns this into a typed error). */
export class RetrievalIndexFormatError extends Error {
  /** Set when the file is an index of another format version (readable by another release). */
  readonly format: number | undefined;
  constructor(message: string, format?: number) {
    super(message);
    this.format = format;
  }
}

const pad4 = (n: number): number => (n + 3) & ~3;

function littleEndian(): boolean {
  return endianness() === "LE";
}

/** Encodes the index (deterministic: the bytes depend only on `data`). */
export function encodeRetrievalIndex(data: RetrievalIndexData): Uint8Array {
  if (!littleEndian())
    throw new RetrievalIndexFormatError("retrieval indexes are written on little-endian hosts");
  if (data.componentLengths.length !== data.effects.length * data.lengthBits.length)
    throw new RetrievalIndexFormatError("component lengths are not one row per endpoint");
  const header: Header = {
    surfaceVersion: data.surfaceVersion,
    size: data.size,
    pairs: data.pairs.length / 3,
    postings: data.postings.length,
    endpoints: data.effects.length,
    sources: data.sources.map((s) => ({
      name: s.name,
      kind: s.kind,
      artifactDigest: s.artifactDigest,
      artifactBytes: s.artifactBytes,
    })),
    tools: data.tools.map((t) => ({ name: t.name, source: t.source, endpoints: [...t.endpoints] })),
    effects: [...data.effectNames],
    lengthBits: [...data.lengthBits],
    vocabulary: [...data.vocabulary],
    defs: data.locations.defSpans.length / 2,
    defNameBytes: data.locations.defNames.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const sections: ArrayBufferView[] = [
    data.vocabularyIds,
    data.pairs,
    data.documentFrequency,
    data.keyMasks,
    data.postingStart,
    data.postings,
    data.postingMasks,
    data.effects,
    data.componentLengths,
    data.locations.endpointSpans,
    data.locations.endpointDigests,
    data.locations.toolSpans,
    data.locations.toolDigests,
    data.locations.defStart,
    data.locations.defSpans,
    data.locations.defNameStart,
    data.locations.defNames,
  ];
  let total = 16 + pad4(headerBytes.length);
  for (const section of sections) total += pad4(section.byteLength);
  const out = new Uint8Array(total);
  out.set(Buffer.from(MAGIC, "latin1"), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, RETRIEVAL_INDEX_FORMAT, true);
  view.setUint32(12, headerBytes.length, true);
  out.set(headerBytes, 16);
  let at = 16 + pad4(headerBytes.length);
  for (const section of sections) {
    out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
    at += pad4(section.byteLength);
  }
  return out;
}

/**
 * Decodes an index. The typed arrays are views on `bytes` (copied once if they are not 4-byte aligned).
 * Throws RetrievalIndexFormatError for anything that is not a complete index of this format.
 */
export function decodeRetrievalIndex(input: Uint8Array): RetrievalIndexData {
  if (!littleEndian())
    throw new RetrievalIndexFormatError("retrieval indexes are read on little-endian hosts");
  const bytes = input.byteOffset % 4 === 0 ? input : new Uint8Array(input);
  if (bytes.length < 16 || Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString("latin1") !== MAGIC) {
    throw new RetrievalIndexFormatError("not a retrieval index (bad magic)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint32(8, true);
  if (format !== RETRIEVAL_INDEX_FORMAT) {
    throw new RetrievalIndexFormatError(
      `retrieval index format ${format}; this runtime reads ${RETRIEVAL_INDEX_FORMAT}`,
      format,
    );
  }
  const headerLength = view.getUint32(12, true);
  if (16 + headerLength > bytes.length) throw new RetrievalIndexFormatError("truncated header");
  let header: Header;
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 16, headerLength).toString("utf8"));
  } catch {
    throw new RetrievalIndexFormatError("header is not JSON");
  }
  checkHeader(header);
  let at = 16 + pad4(headerLength);
  const take = <T>(
    make: (buffer: ArrayBuffer, offset: number, length: number) => T,
    width: number,
    count: number,
  ): T => {
    const length = width * count;
    if (at + length > bytes.length) throw new RetrievalIndexFormatError("truncated sections");
    const value = make(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, count);
    at += pad4(length);
    return value;
  };
  const u32 = (count: number) => take((b, o, n) => new Uint32Array(b, o, n), 4, count);
  const u16 = (count: number) => take((b, o, n) => new Uint16Array(b, o, n), 2, count);
  const vocabularyIds = u32(header.vocabulary.length);
  const pairs = u32(header.pairs * 3);
  const documentFrequency = u32(header.size);
  const keyMasks = u16(header.size);
  const postingStart = u32(header.size + 1);
  const postings = take((b, o, n) => new Int32Array(b, o, n), 4, header.postings);
  const postingMasks = u16(header.postings);
  const u8 = (count: number) => take((b, o, n) => new Uint8Array(b, o, n), 1, count);
  const effects = u8(header.endpoints);
  const componentLengths = u32(header.endpoints * header.lengthBits.length);
  const tools = header.tools.length;
  const locations: RetrievalIndexLocations = {
    endpointSpans: u32(2 * header.endpoints),
    endpointDigests: u8(DIGEST_BYTES * header.endpoints),
    toolSpans: u32(4 * tools),
    toolDigests: u8(DIGEST_BYTES * tools),
    defStart: u32(header.sources.length + 1),
    defSpans: u32(2 * header.defs),
    defNameStart: u32(header.defs + 1),
    defNames: u8(header.defNameBytes),
  };
  if (at !== bytes.length) throw new RetrievalIndexFormatError("trailing bytes");
  if (postingStart[header.size] !== header.postings)
    throw new RetrievalIndexFormatError("posting offsets disagree");
  return {
    surfaceVersion: header.surfaceVersion,
    sources: header.sources,
    tools: header.tools,
    size: header.size,
    vocabulary: header.vocabulary,
    vocabularyIds,
    pairs,
    documentFrequency,
    keyMasks,
    postingStart,
    postings,
    postingMasks,
    effectNames: header.effects,
    effects,
    lengthBits: header.lengthBits,
    componentLengths,
    locations,
  };
}

function checkHeader(header: Header): void {
  const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  const ok =
    typeof header === "object" &&
    header !== null &&
    count(header.surfaceVersion) &&
    count(header.size) &&
    count(header.pairs) &&
    count(header.postings) &&
    count(header.endpoints) &&
    count(header.defs) &&
    count(header.defNameBytes) &&
    Array.isArray(header.sources) &&
    Array.isArray(header.tools) &&
    Array.isArray(header.effects) &&
    Array.isArray(header.vocabulary) &&
    Array.isArray(header.lengthBits) &&
    header.lengthBits.every(
      (bit, at) =>
        Number.isInteger(bit) &&
        bit > 0 &&
        bit <= 0x8000 &&
        (bit & (bit - 1)) === 0 &&
        header.lengthBits.indexOf(bit) === at,
    ) &&
    header.tools.every(
      (tool) =>
        typeof tool?.name === "string" &&
        count(tool.source) &&
        tool.source < header.sources.length &&
        Array.isArray(tool.endpoints) &&
        tool.endpoints.every((name: unknown) => typeof name === "string"),
    ) &&
    header.sources.every(
      (source) =>
        typeof source?.name === "string" &&
        typeof source.kind === "string" &&
        typeof source.artifactDigest === "string" &&
        count(source.artifactBytes),
    ) &&
    header.vocabulary.every((key) => typeof key === "string") &&
    header.effects.every((effect) => typeof effect === "string") &&
    header.tools.reduce((n, tool) => n + tool.endpoints.length, 0) === header.endpoints;
  if (!ok) throw new RetrievalIndexFormatError("header has the wrong shape");
}
