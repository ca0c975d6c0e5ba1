/**
 * A source whose artifact is read and verified on first use (docs/runtime/loading-and-verification.md,
 * "Deferred sources"). Used at load when the lock pins a retrieval index that applies and `verify` is
 * `"first-use"`: the lock and the index already name every tool, endpoint, effect and fingerprint, so
 * the registry can be built without reading any artifact. At load each artifact is only checked to
 * exist as a regular file of the byte length the index recorded (a different length is a different
 * file: LOCK_MISMATCH `artifact-digest`). The first access to one of the source's tool contracts,
 * endpoints, definitions or its artifact reads the file synchronously and runs every check a full
 * load runs (verified-source.ts: digest, layout, self-digest, source, entries, tool fingerprints), then
 * checks the artifact's tool and endpoint order against the index. A failure is thrown at that access
 * and at every later one; nothing of the source is usable before it passed.
 */
import { statSync } from "node:fs";
import { LoadError } from "../errors/errors.js";
import type { Artifact } from "../format/artifact.js";
import type { LockedSource } from "../format/lockfile.js";
import { readRegularFileSync } from "../format/regular-file.js";
import type { RetrievalIndexTool } from "../format/retrieval-index.js";
import { lockMismatch } from "./locked-tool.js";
import { deferredTool, type RegisteredTool } from "./registry.js";
import { type VerifiedSource, verifySource } from "./verified-source.js";

export class DeferredSource {
  readonly #name: string;
  readonly #locked: LockedSource;
  readonly #path: string;
  readonly #tools: readonly RetrievalIndexTool[];
  readonly #indexPath: string;
  #verified: VerifiedSource | undefined;
  #failure: unknown;

  /** `tools`: the index's tools of this source, in registry order. */
  constructor(
    name: string,
    locked: LockedSource,
    path: string,
    tools: readonly RetrievalIndexTool[],
    indexPath: string,
  ) {
    this.#name = name;
    this.#locked = locked;
    this.#path = path;
    this.#tools = tools;
    this.#indexPath = indexPath;
  }

  /** The load-time check: the artifact exists, is a regular file and has the recorded length. */
  checkFile(bytes: number): void {
    let size: number;
    try {
      const stat = statSync(this.#path);
      if (!stat.isFile()) {
        throw new LoadError(
          "ARTIFACT_INVALID",
          `artifact ${this.#path} is not a regular file; re-run \`schemarouter compile\`.`,
          { path: this.#path, reason: "not-a-file" },
        );
      }
      size = stat.size;
    } catch (error) {
      if (error instanceof LoadError) throw error;
      throw new LoadError(
        "ARTIFACT_NOT_FOUND",
        `Source "${this.#name}": artifact ${this.#locked.artifact.path} is missing. Re-run \`schemarouter compile\`.`,
        { source: this.#name, path: this.#path },
        { cause: error },
      );
    }
    if (size !== bytes) {
      throw lockMismatch(
        this.#name,
        "artifact-digest",
        `artifact ${this.#locked.artifact.path} does not match the lockfile digest (it has ${size} bytes, the compiled file ${bytes})`,
        { expected: this.#locked.artifact.digest },
      );
    }
  }

  /** The registered tools, none read yet (their fingerprint maps are built on first access). */
  registeredTools(): RegisteredTool[] {
    return this.#tools.map((tool) => {
      const lockedTool = this.#locked.tools[tool.name]!;
      let maps: { fingerprints: Map<string, string>; remote: Map<string, string> } | undefined;
      const mapsOf = () => {
        if (maps === undefined) {
          maps = { fingerprints: new Map(), remote: new Map() };
          for (const endpoint of tool.endpoints) {
            const locked = lockedTool.endpoints[endpoint]!;
            maps.fingerprints.set(endpoint, locked.fingerprint);
            if (locked.remoteDigest !== undefined) maps.remote.set(endpoint, locked.remoteDigest);
          }
        }
        return maps;
      };
      return deferredTool(
        tool.name,
        {
          source: this.#name,
          sourceKind: this.#locked.kind,
          fingerprint: lockedTool.fingerprint,
          get endpointFingerprints() {
            return mapsOf().fingerprints;
          },
          get remoteDigests() {
            return mapsOf().remote;
          },
        },
        () => this.#toolNamed(tool.name),
      );
    });
  }

  artifact(): Artifact {
    return this.#verify().artifact;
  }

  /** The source as verified by an earlier use, without reading anything (undefined before that). */
  verified(): VerifiedSource | undefined {
    return this.#verified;
  }

  #toolNamed(name: string): RegisteredTool {
    return this.#verify().tools.find((tool) => tool.tool.name === name)!;
  }

  #verify(): VerifiedSource {
    if (this.#verified !== undefined) return this.#verified;
    if (this.#failure !== undefined) throw this.#failure;
    try {
      const verified = verifySource(
        this.#name,
        this.#locked,
        this.#path,
        readBytes(this.#name, this.#locked, this.#path),
        false,
      );
      this.#checkOrder(verified.tools);
      this.#verified = verified;
      return verified;
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }

  /** The artifact registers the tools and endpoints in the order the index ranked them in. */
  #checkOrder(tools: readonly RegisteredTool[]): void {
    const same =
      tools.length === this.#tools.length &&
      tools.every((registered, at) => {
        const indexed = this.#tools[at]!;
        const names = [...registered.endpointFingerprints.keys()];
        return (
          registered.tool.name === indexed.name &&
          names.length === indexed.endpoints.length &&
          names.every((name, i) => name === indexed.endpoints[i])
        );
      });
    if (!same) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `The retrieval index ${this.#indexPath} orders the tools of source "${this.#name}" differently from its artifact. Re-run \`schemarouter compile\` and review the lockfile diff.`,
        { reason: "retrieval-index", source: this.#name, path: this.#indexPath },
      );
    }
  }
}

function readBytes(name: string, locked: LockedSource, path: string): Buffer {
  try {
    return readRegularFileSync(path);
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

/** The loaded artifacts of deferred sources: `get` reads and verifies one; iterating reads all. */
export class DeferredArtifacts implements ReadonlyMap<string, Artifact> {
  readonly #sources: ReadonlyMap<string, DeferredSource>;

  constructor(sources: ReadonlyMap<string, DeferredSource>) {
    this.#sources = sources;
    Object.freeze(this);
  }

  get size(): number {
    return this.#sources.size;
  }

  get(name: string): Artifact | undefined {
    return this.#sources.get(name)?.artifact();
  }

  has(name: string): boolean {
    return this.#sources.has(name);
  }

  keys(): MapIterator<string> {
    return this.#sources.keys();
  }

  values(): MapIterator<Artifact> {
    return this.#all().values();
  }

  entries(): MapIterator<[string, Artifact]> {
    return this.#all().entries();
  }

  forEach(callback: (value: Artifact, key: string, map: ReadonlyMap<string, Artifact>) => void): void {
    for (const [key, value] of this.#all()) callback(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, Artifact]> {
    return this.entries();
  }

  #all(): Map<string, Artifact> {
    const out = new Map<string, Artifact>();
    for (const [name, source] of this.#sources) out.set(name, source.artifact());
    return out;
  }
}
