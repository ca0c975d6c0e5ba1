/**
 * Incremental compile: digests decide what needs regenerating. A local OpenAPI source is reused
 * without being parsed again when its document bytes still have the locked digest, its artifact
 * still has the locked digest, and its binding modules carry the stamps this compile would write
 * (the client's stamp covers the config entry and the whole lock entry) and are the bytes this
 * compiler last wrote (written-record.ts). Remote sources (URLs, MCP,
 * OPTIMADE) and local tool modules are always resolved again; their bindings are still kept when
 * the artifact they would be generated from did not change (see bindings.ts). A source whose external
 * `$ref`s read other files is locked with a digest over all of them (sources/openapi/external-refs.ts),
 * which never equals its root document's byte digest: such a source is never reused, so a change to
 * any referenced file is always compiled (docs/sources/openapi-external-refs.md).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  ARTIFACT_FORMAT_VERSION,
  type Artifact,
  isUrl,
  type LockedSource,
  type Lockfile,
  parseLockfile,
  readRegularFileSync,
  sha256,
} from "schemarouter/internal";
import { readAnyArtifact } from "../compare/artifact-legacy.js";
import type { LockState } from "../compare/lock-state.js";
import type { ResolvedConfig, SourceConfig } from "../config/config.js";
import { currentBindings, expectedStamps } from "./bindings.js";
import type { PreviousLockFile } from "./lock-text.js";
import type { OutputFile } from "./write.js";
import type { RecordView } from "./written-record.js";

export interface ReusableSource {
  /** The artifact file's bytes, verified against the lock entry. */
  readonly artifactBytes: Buffer;
  /** The binding modules on disk, verified current. */
  readonly bindings: readonly OutputFile[];
}

/** The lockfile before this compile, with its text; undefined when absent or unreadable. */
export function readPreviousLock(path: string): PreviousLockFile | undefined {
  try {
    const text = readFileSync(path, "utf8");
    return { lock: parseLockfile(text, path), text };
  } catch {
    return undefined;
  }
}

/**
 * The source's files as the previous compile left them, when everything it depends on is unchanged;
 * otherwise undefined (the source is compiled from its document). `locked` is the source's entry in
 * the previous lockfile; `record` answers whether a binding module is what this compiler last wrote.
 */
/**
 * A source that can be reused at all — a local OpenAPI document, locked as OpenAPI with its artifact at
 * `artifactPath` — as its document's location and its lock entry; undefined otherwise (everything else
 * is resolved again on every compile).
 */
export function reuseCandidate(
  config: SourceConfig,
  locked: LockedSource | undefined,
  artifactPath: string,
): { readonly location: string; readonly locked: LockedSource } | undefined {
  if (config.kind !== "openapi" || isUrl(config.location)) return undefined;
  if (locked === undefined || locked.kind !== "openapi" || locked.artifact.path !== artifactPath)
    return undefined;
  return { location: config.location, locked };
}

export async function verifyReusable(
  name: string,
  config: SourceConfig,
  lockEntry: LockedSource | undefined,
  resolved: ResolvedConfig,
  templateText: string,
  artifactPath: string,
  record: RecordView | undefined,
): Promise<ReusableSource | undefined> {
  const candidate = reuseCandidate(config, lockEntry, artifactPath);
  if (candidate === undefined) return undefined;
  const { location, locked } = candidate;
  // Whole-file synchronous reads: fs/promises reads big files in 512 KiB thread-pool round trips, which
  // for a 13 MB document is most of a no-op compile's wall time.
  const document = readIfPresent(resolve(resolved.dir, location));
  if (document === undefined || sha256(document) !== locked.documentDigest) return undefined;
  const artifactFile = join(resolved.outDir, "artifacts", `${name}.json`);
  const artifactBytes = readIfPresent(artifactFile);
  if (artifactBytes === undefined || sha256(artifactBytes) !== locked.artifact.digest) return undefined;
  // An artifact of an older format version (or layout) is compiled again, never kept.
  if (!isCurrentFormat(artifactBytes)) return undefined;
  const bindings = await currentBindings(
    name,
    resolved,
    expectedStamps(name, locked, resolved, templateText),
    record,
  );
  if (bindings === undefined) return undefined;
  return { artifactBytes, bindings };
}

/** A regular file's bytes; undefined when it is absent or not a regular file. */
export function readIfPresent(path: string): Buffer | undefined {
  try {
    return readRegularFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Whether an artifact a compile wrote (its bytes match the lock) is of the current format: in the
 * line layout every top-level member starts a line, and a raw newline is never inside a string, so
 * this line exists exactly in artifacts of this format version. Everything else about the file was
 * checked when it was written, and is checked again when it is loaded.
 */
export function isCurrentFormat(bytes: Buffer): boolean {
  return (
    bytes.toString("latin1", 0, ARTIFACT_HEAD.length) === ARTIFACT_HEAD &&
    bytes.indexOf(`\n,"formatVersion":${ARTIFACT_FORMAT_VERSION}\n`) > 0 &&
    // Reuse happens only without an embedder (compile.ts), so vectors on disk are stale by then
    // (docs/runtime/embeddings.md).
    bytes.indexOf('\n,"embeddings":') < 0
  );
}

const ARTIFACT_HEAD = '{"$defs":{\n';

export interface PreviousState {
  /** The previous lock, with the artifacts of the sources whose artifact changed. */
  readonly state: LockState;
  /** Sources whose new artifact is byte-identical to the previous one (nothing to compare). */
  readonly same: ReadonlySet<string>;
}

/**
 * The previous lock and artifacts, verified as `readLockState` does (undefined when any artifact is
 * missing, does not match its lock digest, or is invalid). Artifacts byte-identical to the new ones
 * are verified by digest only (reused ones not again) and left out of the comparison: they cannot
 * differ.
 */
export function readPreviousState(
  lockfilePath: string,
  previous: Lockfile,
  next: Lockfile,
  verified: ReadonlySet<string> = new Set(),
): PreviousState | undefined {
  try {
    const same = new Set<string>();
    const artifacts: Artifact[] = [];
    for (const [name, locked] of Object.entries(previous.sources)) {
      // A reused source's artifact was read and checked against this lock entry moments ago.
      if (verified.has(name) && next.sources[name] === locked) {
        same.add(name);
        continue;
      }
      const path = resolve(dirname(lockfilePath), locked.artifact.path);
      const bytes = readRegularFileSync(path);
      if (sha256(bytes) !== locked.artifact.digest) return undefined;
      if (next.sources[name]?.artifact.digest === locked.artifact.digest) same.add(name);
      else artifacts.push(readAnyArtifact(bytes, path));
    }
    return { state: { lock: previous, artifacts }, same };
  } catch {
    return undefined;
  }
}
