/**
 * Capability snapshots (docs/runtime/snapshots.md): the verified lockfile and its artifacts, identified
 * by the digest of the lockfile (which pins every artifact digest and fingerprint), so the id names
 * exactly one catalog. Runtime health and availability are not part of it.
 */
import { type Stats, unwatchFile, watchFile } from "node:fs";
import { digestJson } from "../format/fingerprint.js";
import type { LoadedCatalog } from "../load/load.js";

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

/** Polls the lockfile (fs.watchFile, unref'd) and calls `reload` when it changes. */
export function watchLockfile(
  lockfile: string,
  reload: () => Promise<ReloadResult>,
  options: WatchOptions,
): () => void {
  const intervalMs = options.intervalMs ?? 1_000;
  if (!Number.isInteger(intervalMs) || intervalMs < 10) {
    throw new TypeError(`watch: intervalMs must be an integer ≥ 10, not ${String(intervalMs)}.`);
  }
  const listener = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    reload().then(
      (result) => {
        if (result.changed) options.onReload?.(result);
      },
      (error: unknown) => options.onError?.(error),
    );
  };
  const watcher = watchFile(lockfile, { interval: intervalMs, persistent: false }, listener);
  watcher.unref?.();
  return () => unwatchFile(lockfile, listener);
}
