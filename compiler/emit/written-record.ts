/**
 * The record of the binding modules this machine's compiler wrote (or regenerated and found equal):
 * their whole-file SHA-256, kept outside the committed tree in `node_modules/.cache/schemarouter/` of the
 * nearest package (docs/reference/cli.md, "Incremental compile"). A stamp inside a generated file is
 * text anyone can recompute after editing the file, so it only says which inputs a file claims; a
 * file is reused without regenerating it only when its bytes are also the bytes this record holds.
 * A fresh clone (or a project outside any package) has no record: its first compile regenerates every
 * binding module, and `--check` / `--frozen` never use the record at all.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { sha256 } from "schemarouter/internal";
import { writeAtomic } from "./write.js";

const RECORD_VERSION = 1;

/** What reuse needs of a record: whether some bytes are what this compiler last wrote at a path. */
export interface RecordView {
  holds(path: string, bytes: Uint8Array): boolean;
  /** Whether the record has an entry for `path` at all (without one, `holds` is false for any bytes). */
  knows(path: string): boolean;
}

/**
 * A view of some of a record's entries (absolute path → digest), as handed to a compile worker
 * (compile/source-worker.ts) with the job it belongs to.
 */
export function recordEntries(entries: Readonly<Record<string, string>>): RecordView {
  return {
    holds: (path, bytes) => entries[path] !== undefined && entries[path] === sha256(bytes),
    knows: (path) => entries[path] !== undefined,
  };
}

export class WrittenRecord implements RecordView {
  private readonly digests: Map<string, string>;

  private constructor(
    private readonly file: string,
    private readonly root: string,
    digests: Map<string, string>,
  ) {
    this.digests = digests;
  }

  /** The record of the project whose config is `configPath`. */
  static open(configPath: string): WrittenRecord {
    const cacheDir = cacheDirFor(dirname(configPath));
    const file = join(cacheDir, `written-${sha256(configPath).slice("sha256:".length, 23)}.json`);
    const root = dirname(configPath);
    return new WrittenRecord(file, root, readDigests(file));
  }

  /** Whether `bytes` are exactly what this compiler last wrote (or verified) at `path`. */
  holds(path: string, bytes: Uint8Array): boolean {
    const digest = this.digests.get(this.key(path));
    return digest !== undefined && digest === sha256(bytes);
  }

  knows(path: string): boolean {
    return this.digests.has(this.key(path));
  }

  /** The digest recorded for the file at `path` (absolute), if any. */
  digestAt(path: string): string | undefined {
    return this.digests.get(this.key(path));
  }

  /** The recorded digests of `paths` (absolute), for those the record has. */
  entriesFor(paths: readonly string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const path of paths) {
      const digest = this.digests.get(this.key(path));
      if (digest !== undefined) out[path] = digest;
    }
    return out;
  }

  /** Records that the file at `path` now has the contents whose SHA-256 is `digest` (saved by `save`). */
  set(path: string, digest: string): void {
    this.digests.set(this.key(path), digest);
  }

  /** Replaces the record's entries for `files` with their current contents' digests, and saves it. */
  async save(files: readonly { readonly path: string; readonly contents: string }[] = []): Promise<void> {
    for (const file of files) this.digests.set(this.key(file.path), sha256(file.contents));
    const entries = Object.fromEntries([...this.digests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeAtomic(this.file, `${JSON.stringify({ version: RECORD_VERSION, files: entries }, null, 2)}\n`);
  }

  private key(path: string): string {
    return projectKey(this.root, path);
  }
}

/** A non-empty run of path segments none of which is empty, `.` or `..` (what `join` leaves). */
const PLAIN_TAIL = /^(?!\.\.?(?:\/|$))[^/]+(?:\/(?!\.\.?(?:\/|$))[^/]+)*$/;

/**
 * `relative(root, path)` with `/` separators: the key of a file in the written record and the compile
 * cache. A path under `root` as `join` builds it (the usual case: thousands per compile) is cut
 * instead of resolved; anything else goes through `relative`.
 */
export function projectKey(root: string, path: string): string {
  if (
    sep === "/" &&
    path.length > root.length + 1 &&
    path.startsWith(root) &&
    path[root.length] === "/" &&
    !root.endsWith("/") &&
    PLAIN_TAIL.test(path.slice(root.length + 1))
  )
    return path.slice(root.length + 1);
  return relative(root, path).split("\\").join("/");
}

/**
 * `node_modules/.cache/schemarouter` of the nearest directory (from `dir` up) with a package.json, as
 * other build tools place their caches; in a project outside any package, the one of `dir` itself
 * (docs/sources/openapi.md, "The compile cache"), so incremental compiles work there too.
 */
export function cacheDirFor(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "package.json"))) {
      return join(current, "node_modules", ".cache", "schemarouter");
    }
    if (dirname(current) === current) return join(dir, "node_modules", ".cache", "schemarouter");
  }
}

function readDigests(file: string): Map<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; files?: unknown };
    if (parsed.version !== RECORD_VERSION || parsed.files === null || typeof parsed.files !== "object")
      return new Map();
    return new Map(
      Object.entries(parsed.files as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    );
  } catch {
    // Missing or unreadable: nothing is trusted, everything is regenerated (and the record rewritten).
    return new Map();
  }
}
