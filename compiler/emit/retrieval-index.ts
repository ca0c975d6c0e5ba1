/**
 * Emits `<outDir>/retrieval-index.bin`, the compile-time retrieval index, and pins it in the lockfile
 * (docs/runtime/retrieval-and-planning.md, "Stored index"). The surfaces are built by the runtime's own
 * code (`indexDataOf` → `buildSurface` → `addEntry`/`tokenize`) over each artifact exactly as the runtime
 * parses it from the artifact text, in the order the loader registers it (sources by name, tools and
 * endpoints in artifact order), so a loaded process ranks from it exactly as if it had built the index
 * itself. It also records where each endpoint, tool and shared definition is in its artifact, with their
 * digests (format/candidate-locations.ts), so a candidate is verified without reading its whole
 * artifact. The bytes depend only on the artifacts: the same inputs give the same file and digest.
 */

import { join, relative } from "node:path";
import type { Artifact, IndexedTool, Lockfile, SourceLocations } from "schemarouter/internal";
import {
  encodeRetrievalIndex,
  indexDataOf,
  joinLocations,
  locateSource,
  readArtifactLayout,
  sha256,
} from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import type { CompiledSource } from "./lockfile.js";

export const RETRIEVAL_INDEX_FILE = "retrieval-index.bin";

export interface RetrievalIndexOutput {
  /** The lockfile with `retrievalIndex` pinning the file. */
  readonly lock: Lockfile;
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** Builds the index of `sources` (sorted by name) against `lock` (built from the same sources). */
export function emitRetrievalIndex(
  sources: readonly CompiledSource[],
  lock: Lockfile,
  config: ResolvedConfig,
): RetrievalIndexOutput {
  const tools: IndexedTool[] = [];
  const located: SourceLocations[] = [];
  const indexSources = sources.map((source) => {
    const locked = lock.sources[source.name]!;
    const text = source.artifactText;
    // Where each candidate's bytes are, read with the runtime's own layout reader.
    located.push(locateSource(readArtifactLayout(Buffer.from(text, "utf8"), source.artifactPath)));
    // The artifact as the runtime reads it (parsed from its text), not the compiler's in-memory value.
    const artifact = JSON.parse(text) as Artifact;
    for (const tool of artifact.tools) {
      const lockedTool = locked.tools[tool.name]!;
      tools.push({
        name: tool.name,
        source: source.name,
        entries: tool.endpoints.map((endpoint) => ({
          source: source.name,
          tool,
          endpoint,
          toolFingerprint: lockedTool.fingerprint,
          endpointFingerprint: lockedTool.endpoints[endpoint.name]!.fingerprint,
        })),
      });
    }
    return {
      name: source.name,
      kind: locked.kind,
      artifactDigest: locked.artifact.digest,
      artifactBytes: Buffer.byteLength(text, "utf8"),
    };
  });
  const bytes = encodeRetrievalIndex(indexDataOf(indexSources, tools, joinLocations(located)));
  const path = join(config.outDir, RETRIEVAL_INDEX_FILE);
  const pinned = relative(join(config.lockfile, ".."), path).split("\\").join("/");
  return { lock: { ...lock, retrievalIndex: { path: pinned, digest: sha256(bytes) } }, path, bytes };
}
