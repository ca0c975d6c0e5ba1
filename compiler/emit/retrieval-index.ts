/**
 * Emits `<outDir>/retrieval-index.bin`, the compile-time retrieval index, and pins it in the lockfile
 * (docs/runtime/retrieval-and-planning.md, "Stored index"). The surfaces are built by the runtime's own
 * code (`indexDataOf` → `buildSurface` → `addEntry`/`tokenize`) over each artifact exactly as the runtime
 * parses it from the artifact text, in the order the loader registers it (sources by name, tools and
 * endpoints in artifact order), so a loaded process ranks from it exactly as if it had built the index
 * itself; with each candidate's byte locations, read by the runtime's own layout reader
 * (docs/runtime/loading-and-verification.md, "Candidates"). The bytes depend only on the artifacts: the same inputs give the same file and digest.
 */

import { join, relative } from "node:path";
import type { Lockfile } from "schemarouter/internal";
import {
  encodeRetrievalIndex,
  indexDataOfSurface,
  joinLocations,
  sha256,
  surfaceOfRows,
} from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import type { CompiledSource } from "./lockfile.js";
import { assembleSegments, type SegmentStore, segmentOf } from "./surface-segments.js";

export const RETRIEVAL_INDEX_FILE = "retrieval-index.bin";

export interface RetrievalIndexOutput {
  /** The lockfile with `retrievalIndex` pinning the file. */
  readonly lock: Lockfile;
  readonly path: string;
  readonly bytes: Uint8Array;
}

/**
 * Builds the index of `sources` (sorted by name) against `lock` (built from the same sources). With
 * `segments` (the compile cache), an unchanged artifact's segment is read from it instead of the
 * artifact being parsed and tokenised again (surface-segments.ts); the bytes are the same either way.
 */
export function emitRetrievalIndex(
  sources: readonly CompiledSource[],
  lock: Lockfile,
  config: ResolvedConfig,
  segments?: SegmentStore,
): RetrievalIndexOutput {
  const parts = sources.map((source) => {
    const digest = lock.sources[source.name]!.artifact.digest;
    let segment = segments?.get(digest);
    if (segment === undefined) {
      // The artifact as the runtime reads it (parsed from its text), not the compiler's in-memory value.
      segment = segmentOf(source.artifactText, source.artifactPath);
      segments?.put(digest, segment);
    }
    return { source: source.name, segment };
  });
  const indexSources = sources.map((source, at) => {
    const locked = lock.sources[source.name]!;
    return {
      name: source.name,
      kind: locked.kind,
      artifactDigest: locked.artifact.digest,
      artifactBytes: parts[at]!.segment.artifactBytes,
    };
  });
  const { rows, tools, effects } = assembleSegments(parts);
  const bytes = encodeRetrievalIndex(
    indexDataOfSurface(
      indexSources,
      tools,
      surfaceOfRows(rows, true),
      effects,
      joinLocations(parts.map((part) => part.segment.locations)),
    ),
  );
  const path = join(config.outDir, RETRIEVAL_INDEX_FILE);
  const pinned = relative(join(config.lockfile, ".."), path).split("\\").join("/");
  return { lock: { ...lock, retrievalIndex: { path: pinned, digest: sha256(bytes) } }, path, bytes };
}
