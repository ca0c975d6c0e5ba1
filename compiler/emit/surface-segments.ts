/**
 * Per-source surface segments for the retrieval index (docs/runtime/retrieval-and-planning.md,
 * "Stored index"; docs/sources/openapi.md, "Incremental compile"). A segment is one source's scoring
 * rows built by the runtime's own `SurfaceBuilder`/`addEntry` over its artifact alone, with ids local
 * to the source, and its candidate locations; the compile merges the segments' postings into the
 * project's canonical index (index-merge.ts), which is what `buildSurface` over every endpoint gives,
 * canonicalised.
 *
 * Segments are a pure function of the artifact's bytes, so the compile cache keeps them by artifact
 * digest, SURFACE_VERSION and compiler version (`node_modules/.cache/schemarouter/surfaces/`): an
 * unchanged source's segment is read back instead of its artifact being parsed and tokenised again.
 * A segment file that is not exactly well-formed, or whose body does not have the digest its header
 * records, is ignored and built again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Artifact,
  addEntry,
  DIGEST_BYTES,
  locateSource,
  readArtifactLayout,
  type SourceLocations,
  SURFACE_VERSION,
  SurfaceBuilder,
  sha256,
} from "schemarouter/internal";
import { COMPILER_VERSION } from "./version.js";

const SEGMENT_VERSION = 2;

/** A local id's key: a vocabulary key, or the pair key of (concept id, unit id), both local. */
type LocalKey = string | readonly [number, number];

export interface SurfaceSegment {
  /** Byte length of the artifact file the segment was built from. */
  readonly artifactBytes: number;
  /** Local id → its key (ids in first-use order). */
  readonly keys: readonly LocalKey[];
  /** The source's tools, in artifact order, with their endpoint names. */
  readonly tools: readonly { readonly name: string; readonly endpoints: readonly string[] }[];
  /** Each endpoint's side-effect class, in row order. */
  readonly effects: readonly string[];
  /** Row of endpoint e: ids[starts[e]..starts[e + 1]) ascending (local ids), with their masks. */
  readonly ids: Uint32Array;
  readonly masks: Uint16Array;
  readonly starts: Uint32Array;
  /** Where each candidate's bytes are in the artifact (docs/runtime/loading-and-verification.md, "Candidates"). */
  readonly locations: SourceLocations;
}

/**
 * The segment of one artifact, from its text (parsed as the runtime parses it; its locations read
 * with the runtime's own layout reader; `artifactPath` names the file in a layout error).
 */
export function segmentOf(artifactText: string, artifactPath: string): SurfaceSegment {
  const locations = locateSource(readArtifactLayout(Buffer.from(artifactText, "utf8"), artifactPath));
  const artifact = JSON.parse(artifactText) as Artifact;
  const builder = new SurfaceBuilder();
  const effects: string[] = [];
  for (const tool of artifact.tools) {
    for (const endpoint of tool.endpoints) {
      // addEntry reads only the tool and the endpoint of a registry entry.
      addEntry(builder, { tool, endpoint } as Parameters<typeof addEntry>[1]);
      builder.finish();
      effects.push(endpoint.effect);
    }
  }
  const keys: LocalKey[] = new Array(builder.size);
  for (const [key, id] of builder.vocabulary) keys[id] = key;
  for (const [concept, byUnit] of builder.pairs) for (const [unit, id] of byUnit) keys[id] = [concept, unit];
  return {
    artifactBytes: Buffer.byteLength(artifactText, "utf8"),
    keys,
    tools: artifact.tools.map((tool) => ({
      name: tool.name,
      endpoints: tool.endpoints.map((endpoint) => endpoint.name),
    })),
    effects,
    ids: builder.ids.data.slice(0, builder.ids.length),
    masks: Uint16Array.from(builder.masks.data.subarray(0, builder.masks.length)),
    starts: Uint32Array.from(builder.starts),
    locations,
  };
}

/** Segments kept in the compile cache directory, one file per artifact digest. */
export class SegmentStore {
  constructor(private readonly dir: string) {}

  /** The stored segment of the artifact with `digest`; undefined when absent or not well-formed. */
  get(digest: string): SurfaceSegment | undefined {
    try {
      return decodeSegment(readFileSync(this.fileOf(digest)), digest);
    } catch {
      return undefined;
    }
  }

  /** Stores a segment (temp file, then rename); a cache that cannot be written is skipped. */
  put(digest: string, segment: SurfaceSegment): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const file = this.fileOf(digest);
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, encodeSegment(segment, digest));
      renameSync(temp, file);
    } catch {
      // The cache only saves work; the index was built either way.
    }
  }

  private fileOf(digest: string): string {
    return join(this.dir, `${digest.replace(/^sha256:/, "")}-s${SURFACE_VERSION}.bin`);
  }
}

interface SegmentHeader {
  readonly version: number;
  readonly compiler: string;
  readonly surface: number;
  readonly digest: string;
  readonly artifactBytes: number;
  readonly keys: readonly LocalKey[];
  readonly tools: SurfaceSegment["tools"];
  readonly effects: readonly string[];
  readonly ids: number;
  readonly starts: number;
  /** Counts of the locations' arrays (endpoints, tools, definitions) and the definitions' names. */
  readonly endpoints: number;
  readonly toolCount: number;
  readonly defNames: readonly string[];
  /** SHA-256 of the binary part (a disk-damaged segment is rebuilt, not used). */
  readonly body: string;
}

const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * u32 header length · header JSON (zero-padded to 4) · ids u32[] · masks u16[] (padded) · starts u32[] ·
 * endpoint spans u32[] · tool spans u32[] · definition spans u32[] · endpoint digests · tool digests.
 */
export function encodeSegment(segment: SurfaceSegment, digest: string): Buffer {
  const masks = Buffer.alloc(pad4(segment.masks.byteLength));
  Buffer.from(segment.masks.buffer, segment.masks.byteOffset, segment.masks.byteLength).copy(masks);
  const body = Buffer.concat([
    Buffer.from(segment.ids.buffer, segment.ids.byteOffset, segment.ids.byteLength),
    masks,
    Buffer.from(segment.starts.buffer, segment.starts.byteOffset, segment.starts.byteLength),
    ...[
      segment.locations.endpointSpans,
      segment.locations.toolSpans,
      segment.locations.defSpans,
      segment.locations.endpointDigests,
      segment.locations.toolDigests,
    ].map((array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength)),
  ]);
  const header: SegmentHeader = {
    version: SEGMENT_VERSION,
    compiler: COMPILER_VERSION,
    surface: SURFACE_VERSION,
    digest,
    artifactBytes: segment.artifactBytes,
    keys: segment.keys,
    tools: segment.tools,
    effects: segment.effects,
    ids: segment.ids.length,
    starts: segment.starts.length,
    endpoints: segment.locations.endpointSpans.length / 2,
    toolCount: segment.locations.toolSpans.length / 4,
    defNames: segment.locations.defNames.map((name) => name.toString("utf8")),
    body: sha256(body),
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const head = Buffer.alloc(4 + pad4(json.length));
  head.writeUInt32LE(json.length, 0);
  json.copy(head, 4);
  return Buffer.concat([head, body]);
}

export function decodeSegment(bytes: Buffer, digest: string): SurfaceSegment | undefined {
  const length = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString("utf8", 4, 4 + length)) as SegmentHeader;
  if (
    header.version !== SEGMENT_VERSION ||
    header.compiler !== COMPILER_VERSION ||
    header.surface !== SURFACE_VERSION ||
    header.digest !== digest ||
    !Number.isSafeInteger(header.artifactBytes) ||
    !Array.isArray(header.keys) ||
    !Array.isArray(header.tools) ||
    !Array.isArray(header.effects) ||
    !Number.isSafeInteger(header.endpoints) ||
    !Number.isSafeInteger(header.toolCount) ||
    !Array.isArray(header.defNames) ||
    !header.defNames.every((name) => typeof name === "string")
  )
    return undefined;
  let offset = 4 + pad4(length);
  if (sha256(bytes.subarray(offset)) !== header.body) return undefined;
  // Views on the file's bytes where they are aligned (a whole-file read starts on its own buffer).
  const view = <T>(
    count: number,
    width: number,
    make: (buffer: ArrayBufferLike, at: number, n: number) => T,
  ): T => {
    const end = offset + count * width;
    if (end > bytes.length) throw new RangeError("truncated segment");
    let at = bytes.byteOffset + offset;
    let buffer: ArrayBufferLike = bytes.buffer;
    if (at % width !== 0) {
      buffer = Uint8Array.from(bytes.subarray(offset, end)).buffer;
      at = 0;
    }
    offset = pad4(end);
    return make(buffer, at, count);
  };
  const ids = view(header.ids, 4, (buffer, at, n) => new Uint32Array(buffer, at, n));
  const masks = view(header.ids, 2, (buffer, at, n) => new Uint16Array(buffer, at, n));
  const starts = view(header.starts, 4, (buffer, at, n) => new Uint32Array(buffer, at, n));
  const u32 = (buffer: ArrayBufferLike, at: number, n: number) => new Uint32Array(buffer, at, n);
  const u8 = (buffer: ArrayBufferLike, at: number, n: number) => new Uint8Array(buffer, at, n);
  const endpointSpans = view(2 * header.endpoints, 4, u32);
  const toolSpans = view(4 * header.toolCount, 4, u32);
  const defSpans = view(2 * header.defNames.length, 4, u32);
  const endpointDigests = view(DIGEST_BYTES * header.endpoints, 1, u8);
  const toolDigests = view(DIGEST_BYTES * header.toolCount, 1, u8);
  if (offset !== bytes.length) return undefined;
  const segment: SurfaceSegment = {
    artifactBytes: header.artifactBytes,
    keys: header.keys,
    tools: header.tools,
    effects: header.effects,
    ids,
    masks,
    starts,
    locations: {
      endpointSpans,
      endpointDigests,
      toolSpans,
      toolDigests,
      defSpans,
      defNames: header.defNames.map((name) => Buffer.from(name, "utf8")),
    },
  };
  return wellFormed(segment) ? segment : undefined;
}

/** Every reference in range, rows ascending, and as many endpoints as rows. */
function wellFormed(segment: SurfaceSegment): boolean {
  const { keys, ids, starts, tools, effects } = segment;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === "string") continue;
    if (!Array.isArray(key) || key.length !== 2) return false;
    const [concept, unit] = key;
    if (!Number.isInteger(concept) || !Number.isInteger(unit) || concept < 0 || unit < 0) return false;
    if (concept >= i || unit >= i || typeof keys[concept] !== "string" || typeof keys[unit] !== "string")
      return false;
  }
  if (starts.length === 0 || starts[0] !== 0 || starts[starts.length - 1] !== ids.length) return false;
  for (let e = 0; e + 1 < starts.length; e++) {
    if (starts[e]! > starts[e + 1]!) return false;
    for (let i = starts[e]!; i < starts[e + 1]!; i++) {
      if (ids[i]! >= keys.length || (i > starts[e]! && ids[i - 1]! >= ids[i]!)) return false;
    }
  }
  const endpoints = tools.reduce(
    (sum, tool) =>
      sum +
      (typeof tool?.name === "string" &&
      Array.isArray(tool.endpoints) &&
      tool.endpoints.every((n) => typeof n === "string")
        ? tool.endpoints.length
        : Number.NaN),
    0,
  );
  return (
    endpoints === starts.length - 1 &&
    segment.locations.endpointSpans.length === 2 * endpoints &&
    segment.locations.toolSpans.length === 4 * tools.length &&
    effects.length === endpoints &&
    effects.every((effect) => typeof effect === "string")
  );
}
