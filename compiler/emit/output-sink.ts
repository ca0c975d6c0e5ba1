/**
 * Where a compile's files go as soon as each source is done, so a project of thousands of sources
 * never holds every artifact and binding module in memory (docs/reference/cli.md, "Large projects").
 * Writing compiles compare each file with the one on disk and stage a differing one as a temp file
 * beside it at once; `commit` renames every staged file into place (the lockfile last), `discard`
 * removes them, so a compile that fails — a refused source, a frozen lockfile that would change —
 * leaves the project as it was. What the result keeps of a staged file is a handle that reads it back
 * on demand. `--check` and `--dry-run` write nothing and keep the contents (they are the result).
 */
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { sha256 } from "schemarouter/internal";
import { lazyFile } from "./backed-source.js";
import type { OutputFile, WriteResult } from "./write.js";

export class OutputSink {
  private readonly written: string[] = [];
  private readonly unchanged: string[] = [];
  private readonly stale: string[] = [];
  /** Staged temp file by path, until `commit` or `discard`. */
  private readonly staged = new Map<string, string>();
  private readonly dirs = new Set<string>();
  /** SHA-256 of the files put with `remember`, by path (for the written record). */
  readonly digests = new Map<string, string>();

  constructor(private readonly mode: "write" | "dry-run" | "check") {}

  /**
   * Takes one output; returns what the result keeps for it. A file already verified current on disk
   * (`unchanged`) is only counted. `remember`: record the digest of what the file now holds.
   */
  async put(file: OutputFile, remember = false): Promise<OutputFile> {
    if (file.unchanged === true) {
      this.unchanged.push(file.path);
      return file;
    }
    const current = await readFile(file.path, "utf8").catch(() => undefined);
    if (current === file.contents) {
      this.unchanged.push(file.path);
      if (remember) this.digests.set(file.path, sha256(file.contents));
      return this.mode === "write" ? lazyFile(file.path, true) : file;
    }
    this.stale.push(file.path);
    if (this.mode !== "write") return file;
    const dir = dirname(file.path);
    if (!this.dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.dirs.add(dir);
    }
    const temp = `${file.path}.${process.pid}.staged.tmp`;
    this.staged.set(file.path, temp);
    await writeFile(temp, file.contents, "utf8");
    if (remember) this.digests.set(file.path, sha256(file.contents));
    return lazyFile(file.path, false, () => this.staged.get(file.path) ?? file.path);
  }

  /**
   * `put` for a binary output (the retrieval index): compared and staged as bytes; `differs`: the
   * file on disk is already known to hold other bytes (it is not read).
   */
  async putBytes(path: string, bytes: Uint8Array, differs = false): Promise<void> {
    const current = differs ? undefined : await readFile(path).catch(() => undefined);
    if (current !== undefined && Buffer.compare(current, bytes) === 0) {
      this.unchanged.push(path);
      return;
    }
    this.stale.push(path);
    if (this.mode !== "write") return;
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.dirs.add(dir);
    }
    const temp = `${path}.${process.pid}.staged.tmp`;
    this.staged.set(path, temp);
    await writeFile(temp, bytes);
  }

  /** Counts a file already verified to hold exactly its output (it is neither read nor written). */
  keep(path: string): void {
    this.unchanged.push(path);
  }

  /** Moves every staged file into place, in the order they were put. */
  async commit(): Promise<void> {
    for (const [path, temp] of this.staged) {
      await rename(temp, path);
      this.staged.delete(path);
      this.written.push(path);
    }
  }

  /** Removes every staged file (a compile that failed writes nothing). */
  async discard(): Promise<void> {
    const temps = [...this.staged.values()];
    this.staged.clear();
    await Promise.all(temps.map((temp) => rm(temp, { force: true })));
  }

  result(): WriteResult {
    return { written: [...this.written], unchanged: [...this.unchanged], stale: [...this.stale] };
  }
}
