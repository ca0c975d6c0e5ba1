/**
 * Loads `schemarouter.lock.json` and the artifacts it pins and builds the frozen Registry
 * (docs/runtime/loading-and-verification.md).
 *
 * With `verify: "full"`, or when the lock pins no retrieval index that applies, every artifact is read
 * and verified at load (verified-source.ts): its SHA-256 against the lockfile, layout and self-digest,
 * source, document digest, entries and every tool fingerprint; each endpoint's own contract on its
 * first use (locked-tool.ts), or at load with `"full"`. When the lock pins a verified retrieval index
 * (retrieval-index.ts) and `verify` is `"first-use"`, the registry is built from the lock and the index
 * alone and each source's artifact gets all those checks on the first use of one of its tools
 * (deferred-source.ts). Any mismatch refuses: nothing drifted is ever used.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { LoadError } from "../errors/errors.js";
import type { Artifact } from "../format/artifact.js";
import { type LockedSource, type Lockfile, parseLockfile } from "../format/lockfile.js";
import { readRegularFile } from "../format/regular-file.js";
import { registryViews, StoredCandidates } from "./candidate-views.js";
import { DeferredArtifacts, DeferredSource } from "./deferred-source.js";
import { type RegisteredTool, Registry } from "./registry.js";
import { type RetrievalIndexStatus, readRetrievalIndex } from "./retrieval-index.js";
import { attachStoredIndex, type StoredIndex } from "./stored-index.js";
import { verifySource } from "./verified-source.js";

/**
 * When each endpoint contract is checked against its locked fingerprint:
 * - `"first-use"` (default): when the endpoint is first used (retrieved, planned, validated, called,
 *   inspected); a drifted endpoint fails then with LOCK_MISMATCH, the others keep working;
 * - `"full"`: every endpoint and shared definition is parsed and verified during load (CI, or a
 *   process that prefers to fail at start-up).
 */
export type VerifyMode = "first-use" | "full";

export interface LoadOptions {
  /** Project root holding `schemarouter.lock.json` (default: process.cwd()). */
  readonly root?: string;
  /** Explicit lockfile path (overrides `root`). */
  readonly lockfile?: string;
  /** When endpoint contracts are verified (default `"first-use"`). */
  readonly verify?: VerifyMode;
}

export interface LoadedCatalog {
  readonly lockfilePath: string;
  readonly lock: Lockfile;
  /** The artifacts; `$defs` and the tools' endpoints are parsed (and verified) on first access. */
  readonly artifacts: ReadonlyMap<string, Artifact>;
  readonly registry: Registry;
  /** Whether retrieval on `registry` uses the lock-pinned compile-time index (see retrieval-index.ts). */
  readonly retrievalIndex: RetrievalIndexStatus;
  /**
   * The lockfile file as it was when its text was read (from the same open file): `watch()` reloads
   * when the file on disk differs from this, including a change made before watching began
   * (docs/runtime/snapshots.md, "Watching the lockfile").
   */
  readonly lockfileStamp?: LockfileStamp;
}

/** What identifies one version of the lockfile file on disk. */
export interface LockfileStamp {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
}

/** The lockfile's text and the stamp of the very file that text came from. */
function readLockfileText(path: string): { text: string; stamp: LockfileStamp } {
  const fd = openSync(path, "r");
  try {
    const stats = fstatSync(fd);
    // Synchronous: one read of a large file, not a chain of chunked reads through the event loop.
    const text = readFileSync(fd, "utf8");
    return { text, stamp: { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino } };
  } finally {
    closeSync(fd);
  }
}

export async function loadCatalog(options: LoadOptions = {}): Promise<LoadedCatalog> {
  const lockfilePath = resolve(
    options.lockfile ?? resolve(options.root ?? process.cwd(), "schemarouter.lock.json"),
  );
  const verify = options.verify ?? "first-use";
  if (verify !== "first-use" && verify !== "full") {
    throw new TypeError(`SchemaRouter.load: verify must be "first-use" or "full", not ${String(verify)}.`);
  }
  let text: string;
  let lockfileStamp: LockfileStamp;
  try {
    ({ text, stamp: lockfileStamp } = readLockfileText(lockfilePath));
  } catch (error) {
    throw new LoadError(
      "LOCK_NOT_FOUND",
      `No lockfile at ${lockfilePath}. Run \`schemarouter compile\` to create it, or pass { lockfile } to SchemaRouter.load().`,
      { path: lockfilePath },
      { cause: error },
    );
  }
  const lock = parseLockfile(text, lockfilePath);
  const stored = await readRetrievalIndex(lock, dirname(lockfilePath));
  const sources = Object.entries(lock.sources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const pathOf = (locked: LockedSource): string => resolve(dirname(lockfilePath), locked.artifact.path);
  if (stored.index !== undefined && verify === "first-use") {
    const index = stored.index;
    const deferred = new Map<string, DeferredSource>();
    const tools: RegisteredTool[] = [];
    index.data.sources.forEach((indexed, at) => {
      const locked = lock.sources[indexed.name]!;
      const source = new DeferredSource(
        indexed.name,
        locked,
        pathOf(locked),
        index.data.tools.filter((tool) => tool.source === at),
        lock.retrievalIndex!.path,
      );
      source.checkFile(indexed.artifactBytes);
      deferred.set(indexed.name, source);
      tools.push(...source.registeredTools());
    });
    const registry = new Registry(tools);
    const verified = (name: string) => deferred.get(name)?.verified();
    attachStoredIndex(registry, index, new StoredCandidates(index.data, lock, pathOf, verified));
    return {
      lockfilePath,
      lock,
      artifacts: new DeferredArtifacts(deferred),
      registry,
      retrievalIndex: stored.status,
      lockfileStamp,
    };
  }
  const artifacts = new Map<string, Artifact>();
  const tools: RegisteredTool[] = [];
  for (const [name, locked] of sources) {
    const path = pathOf(locked);
    const verified = verifySource(
      name,
      locked,
      path,
      await readArtifact(name, locked, path),
      verify === "full",
    );
    tools.push(...verified.tools);
    artifacts.set(name, verified.artifact);
  }
  const registry = new Registry(tools);
  if (stored.index !== undefined) {
    checkRegistryOrder(stored.index, registry, lock.retrievalIndex!.path);
    attachStoredIndex(registry, stored.index, registryViews(registry));
  }
  return { lockfilePath, lock, artifacts, registry, retrievalIndex: stored.status, lockfileStamp };
}

async function readArtifact(name: string, locked: LockedSource, path: string): Promise<Buffer> {
  try {
    return await readRegularFile(path);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(
      "ARTIFACT_NOT_FOUND",
      `Source "${name}": artifact ${locked.artifact.path} is missing. Re-run \`schemarouter compile\`.`,
      { source: name, path },
      { cause: error },
    );
  }
}

/** The index's endpoint positions are the registry's: same tools, same endpoints, same order. */
function checkRegistryOrder(index: StoredIndex, registry: Registry, path: string): void {
  const tools = index.data.tools;
  let at = 0;
  for (const registered of registry.registeredTools()) {
    const tool = tools[at++];
    const names = [...registered.endpointFingerprints.keys()];
    if (
      tool === undefined ||
      tool.name !== registered.tool.name ||
      tool.endpoints.length !== names.length ||
      tool.endpoints.some((name, i) => name !== names[i])
    ) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `The retrieval index ${path} orders tool "${registered.tool.name}" differently from its artifact. Re-run \`schemarouter compile\` and review the lockfile diff.`,
        { reason: "retrieval-index", path, tool: registered.tool.name },
      );
    }
  }
  if (at !== tools.length) {
    throw new LoadError(
      "LOCK_MISMATCH",
      `The retrieval index ${path} lists more tools than the artifacts hold. Re-run \`schemarouter compile\` and review the lockfile diff.`,
      { reason: "retrieval-index", path },
    );
  }
}
