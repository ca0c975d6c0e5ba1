/**
 * A lockfile with its artifacts, read from disk or from a git revision, and the classified difference
 * between two such states (shared by `compile`, `check` and `diff`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Artifact } from "schemarouter/internal";
import {
  LOCKFILE_VERSION,
  LoadError,
  type Lockfile,
  parseLockfile,
  readRegularFileSync,
  sha256,
} from "schemarouter/internal";
import { readAnyArtifact } from "./artifact-legacy.js";
import { type ComparisonReport, compareLocks, type SourceSnapshot, sourceSnapshotOf } from "./compare.js";

export interface DriftResult {
  readonly report: ComparisonReport;
  /** Sources whose document changed although every contract is identical. */
  readonly documentOnly: readonly string[];
}

export function snapshots(artifacts: Iterable<Artifact>): Record<string, SourceSnapshot> {
  const out: Record<string, SourceSnapshot> = {};
  for (const artifact of artifacts) out[artifact.source.name] = sourceSnapshotOf(artifact);
  return out;
}

export function documentOnly(before: Lockfile, after: Lockfile, report: ComparisonReport): string[] {
  if (report.category !== "identical") return [];
  return Object.keys(after.sources).filter(
    (name) => before.sources[name]?.documentDigest !== after.sources[name]?.documentDigest,
  );
}

/** A lockfile and its artifacts, read from a path or from a git revision. */
export interface LockState {
  readonly lock: Lockfile;
  readonly artifacts: readonly Artifact[];
}

export function readLockState(lockfilePath: string): LockState {
  const text = readFileSync(lockfilePath, "utf8");
  const lock = parseLockfile(text, lockfilePath);
  const artifacts = Object.entries(lock.sources).map(([name, source]) => {
    const path = resolve(dirname(lockfilePath), source.artifact.path);
    if (!existsSync(path))
      throw new LoadError("ARTIFACT_NOT_FOUND", `artifact of source "${name}" is missing at ${path}.`, {
        source: name,
        path,
      });
    const bytes = readRegularFileSync(path);
    if (sha256(bytes) !== source.artifact.digest) {
      throw new LoadError("LOCK_MISMATCH", `artifact of source "${name}" does not match ${lockfilePath}.`, {
        source: name,
        reason: "artifact-digest",
      });
    }
    return readAnyArtifact(bytes, path);
  });
  return { lock, artifacts };
}

/**
 * Reads the lockfile at `lockfilePath` as it is in git revision `ref` (with its artifacts). A revision
 * that exists but has no lockfile yet (the change that adds SchemaRouter) is an empty state, so
 * everything reads as added (docs/reference/cli.md).
 */
export function readLockStateAtRevision(lockfilePath: string, ref: string): LockState {
  const cwd = dirname(lockfilePath);
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 512 * 1024 * 1024,
    });
  let top: string;
  try {
    top = git("rev-parse", "--show-toplevel").trim();
  } catch (error) {
    throw new LoadError(
      "LOCK_NOT_FOUND",
      `${cwd} is not inside a git repository (or git is not installed), so --base ${ref} cannot be read; pass --base <path-to-a-lockfile> instead.`,
      { ref, path: lockfilePath },
      { cause: error },
    );
  }
  try {
    git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  } catch (error) {
    throw new LoadError(
      "LOCK_NOT_FOUND",
      `git revision "${ref}" does not exist; pass --base with an existing revision or a lockfile path.`,
      { ref, path: lockfilePath },
      { cause: error },
    );
  }
  const relOf = (path: string) => relative(top, path).split("\\").join("/");
  const show = (path: string) => {
    const rel = relOf(path);
    try {
      return git("show", `${ref}:${rel}`);
    } catch (error) {
      throw new LoadError(
        "LOCK_NOT_FOUND",
        `${rel} does not exist at ${ref}; pass --base with a revision or lockfile that has it.`,
        { ref, path: rel },
        { cause: error },
      );
    }
  };
  if (git("ls-tree", "--name-only", ref, "--", relOf(lockfilePath)).trim() === "")
    return { lock: { "//": "", lockfileVersion: LOCKFILE_VERSION, sources: {} }, artifacts: [] };
  const lock = parseLockfile(show(lockfilePath), `${ref}:${lockfilePath}`);
  const artifacts = Object.values(lock.sources).map((source) => {
    const path = resolve(cwd, source.artifact.path);
    return readAnyArtifact(show(path), `${ref}:${path}`);
  });
  return { lock, artifacts };
}

/** Classifies the change from `base` to `head`. */
export function diffLockStates(base: LockState, head: LockState): DriftResult {
  const report = compareLocks(snapshots(base.artifacts), snapshots(head.artifacts));
  return { report, documentOnly: documentOnly(base.lock, head.lock, report) };
}
