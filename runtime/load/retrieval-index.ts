/**
 * Reads and verifies the lock-pinned retrieval index (docs/runtime/loading-and-verification.md,
 * "Retrieval index"). The file's SHA-256 must equal the lock's `retrievalIndex.digest`, and what it
 * describes must be the locked catalog: the same tools and endpoint names with the locked effects;
 * otherwise the load is refused with LOCK_MISMATCH (reason `retrieval-index`). An index that is intact
 * but does not apply is verified by digest and then not used, and the retriever builds its index in
 * memory exactly as for a lockfile without one: one written for another surface version or index
 * format (a runtime upgrade), or one built from other artifacts than the lock now pins (an artifact
 * re-pinned by hand, whose endpoints are still verified on first use).
 */
import { resolve } from "node:path";
import { LoadError } from "../errors/errors.js";
import { sha256 } from "../format/fingerprint.js";
import type { Lockfile } from "../format/lockfile.js";
import { readRegularFileSync } from "../format/regular-file.js";
import {
  decodeRetrievalIndex,
  type RetrievalIndexData,
  RetrievalIndexFormatError,
} from "../format/retrieval-index.js";
import { SURFACE_VERSION } from "../format/surface-version.js";
import { prepareStoredIndex, type StoredIndex } from "./stored-index.js";

/** What happened to the lock's retrieval index at load. */
export type RetrievalIndexStatus =
  /** Verified; retrieval on the loaded registry uses it. */
  | "used"
  /** The lockfile pins none (an older compiler): the retriever builds its index in memory. */
  | "absent"
  /** Verified by digest but written for another surface version or format: built in memory instead. */
  | "other-version"
  /** Verified by digest but built from other artifacts than the lock pins: built in memory instead. */
  | "stale";

export interface LoadedRetrievalIndex {
  readonly status: RetrievalIndexStatus;
  readonly index: StoredIndex | undefined;
}

function refused(
  path: string,
  what: string,
  extra: { expected?: string; actual?: string } = {},
  cause?: unknown,
) {
  return new LoadError(
    "LOCK_MISMATCH",
    `The retrieval index ${path} ${what}. Re-run \`schemarouter compile\` and review the lockfile diff.`,
    { reason: "retrieval-index", path, ...extra },
    cause === undefined ? undefined : { cause },
  );
}

export async function readRetrievalIndex(lock: Lockfile, lockDir: string): Promise<LoadedRetrievalIndex> {
  const pin = lock.retrievalIndex;
  if (pin === undefined) return { status: "absent", index: undefined };
  const path = resolve(lockDir, pin.path);
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(path);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw refused(pin.path, "is missing", {}, error);
  }
  const digest = sha256(bytes);
  if (digest !== pin.digest) {
    throw refused(pin.path, "does not match the lockfile digest", { expected: pin.digest, actual: digest });
  }
  let data: RetrievalIndexData;
  try {
    data = decodeRetrievalIndex(bytes);
  } catch (error) {
    if (error instanceof RetrievalIndexFormatError && error.format !== undefined) {
      return { status: "other-version", index: undefined };
    }
    throw refused(pin.path, "is not a valid retrieval index", {}, error);
  }
  if (data.surfaceVersion !== SURFACE_VERSION) return { status: "other-version", index: undefined };
  if (!sameSources(data, lock)) return { status: "stale", index: undefined };
  checkAgainstLock(data, lock, pin.path);
  return { status: "used", index: prepareStoredIndex(data) };
}

const sortedNames = (lock: Lockfile): string[] =>
  Object.keys(lock.sources).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The index was built from exactly the sources and artifact bytes the lock pins. */
function sameSources(data: RetrievalIndexData, lock: Lockfile): boolean {
  const names = sortedNames(lock);
  return (
    names.length === data.sources.length &&
    data.sources.every((source, at) => {
      const locked = Object.hasOwn(lock.sources, source.name) ? lock.sources[source.name] : undefined;
      return (
        source.name === names[at] &&
        locked !== undefined &&
        locked.kind === source.kind &&
        locked.artifact.digest === source.artifactDigest
      );
    })
  );
}

/** The index describes exactly the locked tools, endpoints and effects (its sources are the lock's). */
function checkAgainstLock(data: RetrievalIndexData, lock: Lockfile, path: string): void {
  const names = sortedNames(lock);
  const seen = new Set<string>();
  let position = 0;
  for (const tool of data.tools) {
    const source = data.sources[tool.source]!;
    const lockedTool = Object.hasOwn(lock.sources[source.name]!.tools, tool.name)
      ? lock.sources[source.name]!.tools[tool.name]
      : undefined;
    const key = `${source.name}\u0000${tool.name}`;
    if (lockedTool === undefined || seen.has(key)) {
      throw refused(
        path,
        `lists tool "${tool.name}", which the lockfile does not pin once for "${source.name}"`,
      );
    }
    seen.add(key);
    const endpoints = new Set(tool.endpoints);
    if (
      endpoints.size !== tool.endpoints.length ||
      endpoints.size !== Object.keys(lockedTool.endpoints).length
    ) {
      throw refused(path, `lists other endpoints for tool "${tool.name}" than the lockfile`);
    }
    for (const endpoint of tool.endpoints) {
      const locked = Object.hasOwn(lockedTool.endpoints, endpoint)
        ? lockedTool.endpoints[endpoint]
        : undefined;
      const effect = data.effectNames[data.effects[position++]!];
      if (locked === undefined || locked.effect !== effect) {
        throw refused(path, `disagrees with the lockfile on endpoint "${tool.name}.${endpoint}"`);
      }
    }
  }
  const lockedTools = names.reduce((n, name) => n + Object.keys(lock.sources[name]!.tools).length, 0);
  if (seen.size !== lockedTools) throw refused(path, "leaves out tools the lockfile pins");
  checkRanges(data, path);
}

/** Every id and endpoint position the scorer will read is in range (a corrupt index never misranks). */
function checkRanges(data: RetrievalIndexData, path: string): void {
  const n = data.effects.length;
  const size = data.size;
  let ok = data.postingStart[0] === 0;
  for (let t = 0; ok && t < size; t++) ok = data.postingStart[t]! <= data.postingStart[t + 1]!;
  for (let t = 0; ok && t < size; t++) {
    let previous = -1;
    for (let p = data.postingStart[t]!; p < data.postingStart[t + 1]!; p++) {
      const e = data.postings[p]!;
      if (e <= previous || e >= n) {
        ok = false;
        break;
      }
      previous = e;
    }
  }
  for (let i = 0; ok && i < data.vocabularyIds.length; i++) ok = data.vocabularyIds[i]! < size;
  // Strictly ascending keys: the loader looks them up by binary search (stored-index.ts).
  for (let i = 1; ok && i < data.vocabulary.length; i++) ok = data.vocabulary[i - 1]! < data.vocabulary[i]!;
  for (let i = 0; ok && i < data.pairs.length; i++) ok = data.pairs[i]! < size;
  for (let i = 0; ok && i < n; i++) ok = data.effects[i]! < data.effectNames.length;
  if (!ok) throw refused(path, "is internally inconsistent");
}
