/**
 * Emits `<outDir>/retrieval-index.bin`, the compile-time retrieval index, and pins it in the lockfile
 * (docs/runtime/retrieval-and-planning.md, "Stored index"). Each source's surface is built by the
 * runtime's own code (`SurfaceBuilder`/`addEntry`/`tokenize`) over its artifact exactly as the runtime
 * parses it from the artifact text (surface-segments.ts), with each candidate's byte locations read by
 * the runtime's own layout reader (docs/runtime/loading-and-verification.md, "Candidates"); sources in
 * the order the loader registers them (by name, tools and endpoints in artifact order). The index is
 * canonical (index-merge.ts), so its bytes depend only on the artifacts.
 *
 * Incremental (docs/sources/openapi.md, "Incremental compile"): when the previous index is one this
 * compiler wrote (the compile cache recorded its digest) and its file still has that digest and the
 * digest the previous lock pins, the sources whose artifacts did not change are cut out of it as they
 * are, and only the changed sources' segments are merged in; when no artifact changed, the file is
 * kept as it is. Anything else builds the index from every source's segment. Both give the same bytes.
 */

import { join, relative } from "node:path";
import {
  decodeRetrievalIndex,
  encodeRetrievalIndex,
  type Lockfile,
  RETRIEVAL_INDEX_FORMAT,
  type RetrievalIndexData,
  type RetrievalIndexSource,
  SURFACE_VERSION,
  sha256,
} from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import type { CompileCache } from "./compile-cache.js";
import { mergeRuns, type PostingRun, runOfIndex, runOfSegment } from "./index-merge.js";
import {
  type IndexedSection,
  indexDataOfSections,
  type SourceSection,
  sectionOfSegment,
  sectionsOfIndex,
} from "./index-sections.js";
import type { CompiledSource } from "./lockfile.js";
import { type SurfaceSegment, segmentOf } from "./surface-segments.js";

export const RETRIEVAL_INDEX_FILE = "retrieval-index.bin";

/** Beyond this many stretches of unchanged sources, the index is built from every segment instead. */
const MAX_KEPT_RUNS = 8;
/** The compile cache's record of an index this compiler wrote, by its digest. */
const WRITTEN_INDEX = "retrieval-index";

export interface RetrievalIndexOutput {
  /** The lockfile with `retrievalIndex` pinning the file. */
  readonly lock: Lockfile;
  readonly path: string;
  /** The index's bytes; undefined when the file on disk is already exactly this index (kept). */
  readonly bytes: Uint8Array | undefined;
  /** The file on disk was verified to hold the previous index, and these bytes differ from it. */
  readonly replaces?: boolean;
}

/** What the compile cache records of an index it wrote. */
interface WrittenIndex {
  readonly format: number;
  readonly surface: number;
  /** SHA-256 over the sources' names, kinds and artifact digests, in order. */
  readonly sources: string;
}

/**
 * Builds the index of `sources` (sorted by name) against `lock` (built from the same sources). With
 * the compile `cache`, segments of artifacts it has seen are read from it instead of the artifact
 * being parsed and tokenised again, and the previous index (`previous`: the previous lock's pin) is
 * reused as described above; `built` holds segments already built by artifact digest (a compiled
 * source's, from its text while it was in memory, see `segmentOf`). The bytes are the same either way.
 */
export function emitRetrievalIndex(
  sources: readonly CompiledSource[],
  lock: Lockfile,
  config: ResolvedConfig,
  cache?: CompileCache,
  previous?: Lockfile["retrievalIndex"],
  built?: Pick<ReadonlyMap<string, SurfaceSegment>, "get">,
): RetrievalIndexOutput {
  const path = join(config.outDir, RETRIEVAL_INDEX_FILE);
  const pinned = relative(join(config.lockfile, ".."), path).split("\\").join("/");
  const pin = (digest: string): Lockfile => ({ ...lock, retrievalIndex: { path: pinned, digest } });
  const identity = sha256(
    JSON.stringify(
      sources.map((source) => {
        const locked = lock.sources[source.name]!;
        return [source.name, locked.kind, locked.artifact.digest];
      }),
    ),
  );
  const found =
    cache === undefined || previous?.path !== pinned ? undefined : writtenIndex(cache, path, previous);
  // No artifact changed: the index on disk is exactly the one this compile would write.
  if (found !== undefined && found.written.sources === identity) {
    return { lock: pin(previous!.digest), path, bytes: undefined };
  }
  const kept = found === undefined ? undefined : keptIndex(cache!, path, previous!.digest, found.bytes);
  const segments = cache?.segments();
  const segmentFor = (source: CompiledSource): SurfaceSegment => {
    const digest = lock.sources[source.name]!.artifact.digest;
    const ready = built?.get(digest);
    if (ready !== undefined) {
      segments?.put(digest, ready);
      return ready;
    }
    let segment = segments?.get(digest);
    if (segment === undefined) {
      // The artifact as the runtime reads it (parsed from its text), not the compiler's in-memory value.
      segment = segmentOf(source.artifactText, source.artifactPath);
      segments?.put(digest, segment);
    }
    return segment;
  };
  const headerOf = (source: CompiledSource, artifactBytes: number): RetrievalIndexSource => {
    const locked = lock.sources[source.name]!;
    return { name: source.name, kind: locked.kind, artifactDigest: locked.artifact.digest, artifactBytes };
  };
  // Each source from the previous index when its artifact is the one indexed there, else its segment.
  const old = kept === undefined ? undefined : new Map(kept.sections.map((s) => [s.source.name, s]));
  const plan = sources.map((source) => {
    const section = old?.get(source.name);
    const locked = lock.sources[source.name]!;
    return section !== undefined &&
      section.source.artifactDigest === locked.artifact.digest &&
      section.source.kind === locked.kind
      ? section
      : source;
  });
  const stretches = countStretches(plan);
  const sections: SourceSection[] = [];
  const runs: PostingRun[] = [];
  let stretch: { first: number; end: number; at: number } | undefined;
  const closeStretch = () => {
    if (stretch !== undefined) runs.push(runOfIndex(kept!.data, stretch.first, stretch.end));
    stretch = undefined;
  };
  plan.forEach((part, at) => {
    if (!isSection(part) || stretches > MAX_KEPT_RUNS) {
      closeStretch();
      const source = sources[at]!;
      const segment = segmentFor(source);
      sections.push(sectionOfSegment(headerOf(source, segment.artifactBytes), segment));
      runs.push(runOfSegment(segment));
      return;
    }
    sections.push(part);
    if (stretch !== undefined && stretch.end === part.first && stretch.at + 1 === part.at) {
      stretch.end = part.end;
      stretch.at = part.at;
    } else {
      closeStretch();
      stretch = { first: part.first, end: part.end, at: part.at };
    }
  });
  closeStretch();
  const bytes = encodeRetrievalIndex(indexDataOfSections(SURFACE_VERSION, sections, mergeRuns(runs)));
  const digest = sha256(bytes);
  if (cache !== undefined) {
    const written: WrittenIndex = {
      format: RETRIEVAL_INDEX_FORMAT,
      surface: SURFACE_VERSION,
      sources: identity,
    };
    cache.setDerived(WRITTEN_INDEX, digest, written);
  }
  return { lock: pin(digest), path, bytes, replaces: kept !== undefined && digest !== previous!.digest };
}

const isSection = (part: CompiledSource | IndexedSection): part is IndexedSection => "first" in part;

/** Stretches of consecutive sources taken from the previous index. */
function countStretches(plan: readonly (CompiledSource | IndexedSection)[]): number {
  let count = 0;
  let last: IndexedSection | undefined;
  for (const part of plan) {
    if (!isSection(part)) last = undefined;
    else {
      if (last === undefined || last.at + 1 !== part.at) count++;
      last = part;
    }
  }
  return count;
}

/**
 * The cache's record of the previous index, when this compiler wrote it (the cache recorded it under
 * its digest), the previous lock pins that digest, and the file still has it; undefined otherwise.
 * With the file's bytes when they had to be read to tell its digest (they are not read twice).
 */
function writtenIndex(
  cache: CompileCache,
  path: string,
  previous: NonNullable<Lockfile["retrievalIndex"]>,
): { readonly written: WrittenIndex; readonly bytes?: Buffer } | undefined {
  const written = cache.derivedOf(WRITTEN_INDEX, previous.digest) as WrittenIndex | undefined;
  if (
    typeof written !== "object" ||
    written === null ||
    written.format !== RETRIEVAL_INDEX_FORMAT ||
    written.surface !== SURFACE_VERSION ||
    typeof written.sources !== "string"
  )
    return undefined;
  const file = cache.digestOf(path);
  if (file?.digest !== previous.digest) return undefined;
  return file.bytes === undefined ? { written } : { written, bytes: file.bytes };
}

/**
 * The previous index decoded, with its sources' sections; undefined when its bytes are not the pinned
 * ones. `hashed`: the file's bytes, just read and found to have `digest` (else they are read here).
 */
function keptIndex(
  cache: CompileCache,
  path: string,
  digest: string,
  hashed?: Buffer,
): { readonly data: RetrievalIndexData; readonly sections: IndexedSection[] } | undefined {
  const bytes = hashed ?? cache.bytesOf(path, digest);
  if (bytes === undefined) return undefined;
  try {
    const data = decodeRetrievalIndex(bytes);
    return data.surfaceVersion === SURFACE_VERSION ? { data, sections: sectionsOfIndex(data) } : undefined;
  } catch {
    return undefined;
  }
}
