/**
 * Capability snapshots (docs/runtime/snapshots.md): the verified lockfile and its artifacts, identified
 * by the digest of the lockfile (which pins every artifact digest and fingerprint), so the id names
 * exactly one catalog. Runtime health and availability are not part of it.
 */
import { type Stats, stat, statSync } from "node:fs";
import { digestJson } from "../format/fingerprint.js";
import type { LoadedCatalog, LockfileStamp } from "../load/load.js";

export interface RouterSnapshot {
  /** `sha256:` digest of the canonical lockfile: the same catalog always has the same id. */
  readonly id: string;
  readonly lockfile: string;
  /** Locked sources with their artifact digests, sorted by name. */
  readonly sources: readonly { readonly name: string; readonly digest: string }[];
}

export interface ReloadResult {
  /** False when the lockfile on disk is the snapshot already in use (nothing was swapped). */
  readonly changed: boolean;
  readonly previous: RouterSnapshot;
  readonly snapshot: RouterSnapshot;
}

export function snapshotOf(catalog: LoadedCatalog): RouterSnapshot {
  const sources = Object.entries(catalog.lock.sources)
    .map(([name, entry]) => ({ name, digest: entry.artifact.digest }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // The id is computed when first read (a reload compares it): digesting a whole-catalog lockfile
  // costs a tenth of a second that a load need not spend.
  let id: string | undefined;
  const snapshot = {
    lockfile: catalog.lockfilePath,
    sources: Object.freeze(sources.map((source) => Object.freeze(source))),
  } as RouterSnapshot;
  Object.defineProperty(snapshot, "id", {
    enumerable: true,
    get: () => {
      id ??= digestJson(catalog.lock);
      return id;
    },
  });
  return Object.freeze(snapshot);
}

export interface WatchOptions {
  /** How often the lockfile is stat'ed (default 1,000 ms; the timer is unref'd). */
  readonly intervalMs?: number;
  /** Called after each reload attempt that swapped a snapshot. */
  readonly onReload?: (result: ReloadResult) => void;
  /** Called when a successor is refused (the current snapshot stays in use). */
  readonly onError?: (error: unknown) => void;
}

/** The stamp of a stat result (undefined: no file). */
function stampOf(stats: Stats | undefined): LockfileStamp | undefined {
  return stats === undefined ? undefined : { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
}

function sameStamp(a: LockfileStamp | undefined, b: LockfileStamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

/**
 * Whether the lockfile on disk is no longer the file `catalog` was read from (changed, replaced or
 * removed since). False when the catalog carries no stamp (it was not read from a file).
 */
export function lockfileChangedSince(catalog: LoadedCatalog): boolean {
  if (catalog.lockfileStamp === undefined) return false;
  let stats: Stats | undefined;
  try {
    stats = statSync(catalog.lockfilePath);
  } catch {
    stats = undefined;
  }
  return !sameStamp(stampOf(stats), catalog.lockfileStamp);
}

/**
 * Polls the lockfile (an unref'd timer and `fs.stat`) and calls `reload` when the file differs from
 * the last version seen, starting from `loaded` (the file the snapshot in use was read from), so a
 * change made between `load()` and `watch()` is not missed (docs/runtime/snapshots.md, "Watching the lockfile").
 */
export function watchLockfile(
  lockfile: string,
  loaded: LockfileStamp | undefined,
  reload: () => Promise<ReloadResult>,
  options: WatchOptions,
): () => void {
  const intervalMs = options.intervalMs ?? 1_000;
  if (!Number.isInteger(intervalMs) || intervalMs < 10) {
    throw new TypeError(`watch: intervalMs must be an integer ≥ 10, not ${String(intervalMs)}.`);
  }
  let seen = loaded;
  let statting = false;
  let stopped = false;
  const poll = () => {
    if (statting || stopped) return;
    statting = true;
    stat(lockfile, (error, stats) => {
      statting = false;
      if (stopped) return;
      const current = stampOf(error === null ? stats : undefined);
      if (sameStamp(current, seen)) return;
      seen = current;
      // A removed lockfile is reported too: the reload is refused (LOCK_NOT_FOUND) through onError.
      reload().then(
        (result) => {
          if (result.changed) options.onReload?.(result);
        },
        (failure: unknown) => options.onError?.(failure),
      );
    });
  };
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
