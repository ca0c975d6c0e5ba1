/**
 * The compile cache (docs/sources/openapi.md, "Incremental compile"), kept beside the written record in
 * `node_modules/.cache/schemarouter/` of the project's nearest package. It remembers two things:
 *
 * - the SHA-256 of files the compile reads (documents, artifacts, binding modules) by their stat
 *   identity — size, mtime and ctime in nanoseconds, inode and device — as Bazel's digest cache and
 *   git's index do, so an unchanged file is not read and hashed again. ctime cannot be set from user
 *   space, so a tool that restores mtimes (`cp -p`, `touch -d`, an archive) still changes it. A
 *   digest taken less than `RACY_NS` after the file's last change is not trusted later (git's "racy
 *   clean" rule): the file might have been written again within one timestamp tick.
 * - values derived from bytes with a given digest (a binding module's stamp, an artifact's summary),
 *   keyed by that digest and the compiler version, so they are not derived again.
 *
 * A missing, unreadable or other-version cache is empty; `--no-cache` ignores it (every file is read
 * and hashed) and does not write it.
 */
import { type BigIntStats, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { readRegularFileSync, sha256 } from "schemarouter/internal";
import { SegmentStore } from "./surface-segments.js";
import { COMPILER_VERSION } from "./version.js";
import { writeAtomic } from "./write.js";
import { cacheDirFor, projectKey } from "./written-record.js";

const CACHE_VERSION = 1;
/** How long after a file's last change its digest starts to be trusted (git's racy-clean window, generously). */
const RACY_NS = 2_000_000_000n;

/** size, mtimeNs, ctimeNs, ino, dev (decimal strings), then the digest. */
type StatEntry = readonly [string, string, string, string, string, string];

/** A file's digest, with its bytes when they had to be read to get it. */
export interface FileDigest {
  readonly digest: string;
  readonly bytes?: Buffer;
}

export class CompileCache {
  private readonly stats: Map<string, StatEntry>;
  private readonly derived: Map<string, unknown>;
  /** Keys looked up or recorded by this compile: only those are saved, so nothing stale accumulates. */
  private readonly usedStats = new Set<string>();
  private readonly usedDerived = new Set<string>();
  private changed = false;

  private constructor(
    private readonly file: string | undefined,
    private readonly root: string,
    stats: Map<string, StatEntry>,
    derived: Map<string, unknown>,
  ) {
    this.stats = stats;
    this.derived = derived;
  }

  /**
   * The cache of the project whose config is `configPath`; `enabled: false` gives one that starts
   * empty and is never saved.
   */
  static open(configPath: string, enabled = true): CompileCache {
    const root = dirname(configPath);
    const dir = enabled ? cacheDirFor(root) : undefined;
    if (dir === undefined) return new CompileCache(undefined, root, new Map(), new Map());
    const file = join(dir, `compile-${sha256(configPath).slice("sha256:".length, 23)}.json`);
    const { stats, derived } = readCache(file);
    return new CompileCache(file, root, stats, derived);
  }

  /**
   * The SHA-256 of the regular file at `path` (undefined when it is missing or not a regular file):
   * from the cache when its stat identity is the one recorded, otherwise read (the bytes are returned)
   * and recorded.
   */
  digestOf(path: string): FileDigest | undefined {
    const stat = statOf(path);
    if (stat === undefined || !stat.isFile()) return undefined;
    const key = this.key(path);
    this.usedStats.add(key);
    const entry = this.stats.get(key);
    if (entry !== undefined && sameIdentity(entry, stat)) return { digest: entry[5] };
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(path);
    } catch {
      return undefined;
    }
    const digest = sha256(bytes);
    this.record(key, stat, digest);
    return { digest, bytes };
  }

  /**
   * The bytes of the regular file at `path` when their SHA-256 is `digest`, else undefined: trusted
   * by the file's unchanged stat identity as `digestOf` trusts it (checked after the read), otherwise
   * hashed.
   */
  bytesOf(path: string, digest: string): Buffer | undefined {
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(path);
    } catch {
      return undefined;
    }
    const stat = statOf(path);
    const entry = this.stats.get(this.key(path));
    if (
      stat !== undefined &&
      entry !== undefined &&
      entry[5] === digest &&
      sameIdentity(entry, stat) &&
      stat.size === BigInt(bytes.length)
    )
      return bytes;
    return sha256(bytes) === digest ? bytes : undefined;
  }

  /** The cache file (undefined when there is no package to hold it, or the cache is disabled). */
  get path(): string | undefined {
    return this.file;
  }

  /** The store of retrieval-index surface segments (surface-segments.ts); undefined without a cache. */
  segments(): SegmentStore | undefined {
    return this.file === undefined ? undefined : new SegmentStore(join(dirname(this.file), "surfaces"));
  }

  /** A value derived from bytes whose SHA-256 is `digest` (`kind` names the derivation). */
  derivedOf(kind: string, digest: string): unknown {
    const key = `${kind}:${digest}`;
    this.usedDerived.add(key);
    return this.derived.get(key);
  }

  setDerived(kind: string, digest: string, value: unknown): void {
    const key = `${kind}:${digest}`;
    this.usedDerived.add(key);
    if (JSON.stringify(this.derived.get(key)) === JSON.stringify(value)) return;
    this.derived.set(key, value);
    this.changed = true;
  }

  /** Writes the cache when anything changed (temp file, then rename). */
  async save(): Promise<void> {
    const unused = (keys: Iterable<string>, used: ReadonlySet<string>) => [...keys].some((k) => !used.has(k));
    if (this.file === undefined) return;
    if (
      !this.changed &&
      !unused(this.stats.keys(), this.usedStats) &&
      !unused(this.derived.keys(), this.usedDerived)
    )
      return;
    const body = {
      version: CACHE_VERSION,
      compiler: COMPILER_VERSION,
      files: Object.fromEntries([...this.stats].filter(([key]) => this.usedStats.has(key))),
      derived: Object.fromEntries([...this.derived].filter(([key]) => this.usedDerived.has(key))),
    };
    await writeAtomic(this.file, `${JSON.stringify(body)}\n`);
    this.changed = false;
  }

  private record(key: string, stat: BigIntStats, digest: string): void {
    // Changed too recently (or in the future): a later write within the same tick would not show.
    const settled = BigInt(Date.now()) * 1_000_000n - RACY_NS;
    if (stat.mtimeNs > settled || stat.ctimeNs > settled) {
      if (this.stats.delete(key)) this.changed = true;
      return;
    }
    this.stats.set(key, [
      String(stat.size),
      String(stat.mtimeNs),
      String(stat.ctimeNs),
      String(stat.ino),
      String(stat.dev),
      digest,
    ]);
    this.changed = true;
  }

  private key(path: string): string {
    return projectKey(this.root, path);
  }
}

function statOf(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}

function sameIdentity(entry: StatEntry, stat: BigIntStats): boolean {
  return (
    entry[0] === String(stat.size) &&
    entry[1] === String(stat.mtimeNs) &&
    entry[2] === String(stat.ctimeNs) &&
    entry[3] === String(stat.ino) &&
    entry[4] === String(stat.dev)
  );
}

function readCache(file: string): { stats: Map<string, StatEntry>; derived: Map<string, unknown> } {
  const empty = { stats: new Map<string, StatEntry>(), derived: new Map<string, unknown>() };
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    if (parsed.version !== CACHE_VERSION || parsed.compiler !== COMPILER_VERSION) return empty;
    const files = parsed.files as Record<string, unknown> | null;
    const derived = parsed.derived as Record<string, unknown> | null;
    if (files === null || typeof files !== "object" || derived === null || typeof derived !== "object")
      return empty;
    const stats = new Map<string, StatEntry>();
    for (const [key, value] of Object.entries(files)) {
      if (Array.isArray(value) && value.length === 6 && value.every((part) => typeof part === "string"))
        stats.set(key, value as unknown as StatEntry);
    }
    return { stats, derived: new Map(Object.entries(derived)) };
  } catch {
    // Missing or unreadable: nothing is trusted, every file is hashed again (and the cache rewritten).
    return empty;
  }
}
