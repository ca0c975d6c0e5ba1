/**
 * Watches the lockfile and the artifacts it pins (docs/serve.md, "Lock changes"). Their directories
 * are watched (a compile replaces files by rename), changes are debounced, and the files are
 * re-read from the newest lock after every reload, so a new source's artifact is watched too. The
 * watchers never keep the process alive on their own.
 */
import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { SchemaRouter } from "../router/router.js";
import { lockfileChangedSince } from "../router/snapshot.js";

/** The lockfile and artifact paths a router was loaded from (none for a router built from a registry). */
export function lockFilesOf(router: SchemaRouter): string[] {
  const loaded = router.catalog;
  if (loaded === undefined) return [];
  const dir = dirname(loaded.lockfilePath);
  const artifacts = Object.values(loaded.lock.sources).map((source) => resolve(dir, source.artifact.path));
  return [loaded.lockfilePath, ...artifacts];
}

/**
 * `FileWatcher.watch()`'s arguments for `router`: its lock files, and whether the lockfile already
 * changed since the router read it (a compile that finished between load and watch).
 */
export function watchedFilesOf(router: SchemaRouter): [files: string[], changedAlready: boolean] {
  const loaded = router.catalog;
  return [lockFilesOf(router), loaded !== undefined && lockfileChangedSince(loaded)];
}

export class FileWatcher {
  #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly onChange: () => void,
    private readonly debounceMs = 150,
  ) {}

  /**
   * Watches exactly `files` from now on. `changedAlready`: the files changed before watching began
   * (after the router was loaded), so a reload is scheduled at once rather than at the next change.
   */
  watch(files: readonly string[], changedAlready = false): void {
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
    if (this.#closed) return;
    const byDir = new Map<string, Set<string>>();
    for (const file of files) {
      const names = byDir.get(dirname(file)) ?? new Set<string>();
      names.add(basename(file));
      byDir.set(dirname(file), names);
    }
    for (const [dir, names] of byDir) {
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(String(name))) this.#schedule();
        });
        watcher.on("error", () => undefined);
        this.#watchers.push(watcher);
      } catch {
        // A directory that does not exist (yet) is not watched; the next reload retries.
      }
    }
    if (changedAlready) this.#schedule();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (!this.#closed) this.onChange();
    }, this.debounceMs);
    this.#timer.unref();
  }
}
