/**
 * One source's candidates, read and verified one at a time without reading the whole artifact
 * (docs/runtime/loading-and-verification.md, "Candidates"). The lock-pinned retrieval index records
 * where each endpoint, tool and shared definition is in the artifact and the SHA-256 of each endpoint's
 * and tool's text (format/candidate-locations.ts). A candidate's endpoint is read at its span and must
 * have the recorded digest, then it gets every check of a first use (locked-tool.ts: its fingerprint
 * over its contract and the definitions it uses, recomputed from the bytes read, against the lock; its
 * effect; reserved names). Its tool's skeleton text must have the recorded digest and the tool's
 * fingerprint, recomputed from it and the locked endpoint fingerprints, must be the lock's. Each shared
 * definition is read once, at its span, when a fingerprint or a schema first needs it; its digest is
 * part of every fingerprint that uses it. So every byte a candidate is built from is checked against the
 * lock before it is used; a failure is thrown to that use and every later one. Nothing here executes:
 * planning, calls, bindings and `registry.get(tool)` still read and verify the whole artifact first
 * (deferred-source.ts).
 */
import { isAscii } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { LoadError } from "../errors/errors.js";
import { parseSpan } from "../format/artifact-read.js";
import { DefinitionSet, sha256, toolFingerprint } from "../format/fingerprint.js";
import type { LockedSource } from "../format/lockfile.js";
import { DIGEST_BYTES, type RetrievalIndexData } from "../format/retrieval-index.js";
import { deepFreeze } from "../model/freeze.js";
import type { EndpointSpec, JsonSchema, ToolSpec } from "../model/specs.js";
import { lockMismatch, verifyEndpointText } from "./locked-tool.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A value or the failure of computing it, cached: a failed check fails every later use too. */
class Memo<T> {
  readonly #values = new Map<number, T>();
  readonly #failures = new Map<number, unknown>();

  get(key: number, compute: () => T): T {
    const value = this.#values.get(key);
    if (value !== undefined) return value;
    if (this.#failures.has(key)) throw this.#failures.get(key);
    try {
      const computed = compute();
      this.#values.set(key, computed);
      return computed;
    } catch (error) {
      this.#failures.set(key, error);
      throw error;
    }
  }
}

export class CandidateSource {
  readonly #name: string;
  readonly #locked: LockedSource;
  readonly #path: string;
  readonly #data: RetrievalIndexData;
  readonly #source: number;
  /** The source's first tool (index position) and the first endpoint of each of its tools. */
  readonly #firstTool: number;
  readonly #toolEndpoints: Uint32Array;
  readonly #indexPath: string;
  readonly #tools = new Memo<ToolSpec>();
  readonly #endpoints = new Memo<EndpointSpec>();
  #defs: DefinitionSet | undefined;
  #fd: number | undefined;

  /**
   * `firstTool`: the index position of the source's first tool; `toolEndpoints[j]`: the index
   * position of the first endpoint of its j-th tool (one more entry: the end).
   */
  constructor(
    name: string,
    locked: LockedSource,
    path: string,
    data: RetrievalIndexData,
    source: number,
    firstTool: number,
    toolEndpoints: Uint32Array,
    indexPath: string,
  ) {
    this.#indexPath = indexPath;
    this.#name = name;
    this.#locked = locked;
    this.#path = path;
    this.#data = data;
    this.#source = source;
    this.#firstTool = firstTool;
    this.#toolEndpoints = toolEndpoints;
  }

  /** The verified tool at index position `tool` (its `endpoints` are verified on access). */
  tool(tool: number): ToolSpec {
    return this.#tools.get(tool, () => this.#reading(() => this.#verifyTool(tool)));
  }

  /** The verified endpoint at index position `endpoint` of tool `tool`. */
  endpoint(tool: number, endpoint: number): EndpointSpec {
    return this.#endpoints.get(endpoint, () => this.#reading(() => this.#verifyEndpoint(tool, endpoint)));
  }

  /** The source's shared definitions, each read (and digested) on first use. */
  defs(): DefinitionSet {
    this.#defs ??= this.#definitions();
    return this.#defs;
  }

  #lockedTool(tool: number) {
    const name = this.#data.tools[tool]!.name;
    return { name, locked: this.#locked.tools[name]! };
  }

  #verifyEndpoint(tool: number, endpoint: number): EndpointSpec {
    const { name: toolName, locked } = this.#lockedTool(tool);
    const indexed = this.#data.tools[tool]!;
    const first = this.#toolEndpoints[tool - this.#firstTool]!;
    const name = indexed.endpoints[endpoint - first]!;
    const spans = this.#data.locations.endpointSpans;
    const bytes = this.#read(spans[2 * endpoint]!, spans[2 * endpoint + 1]!);
    if (!sameDigest(bytes, this.#data.locations.endpointDigests, endpoint)) {
      throw lockMismatch(
        this.#name,
        "endpoint-fingerprint",
        `endpoint "${toolName}.${name}" in ${this.#path} is not the compiled endpoint the retrieval index pins (checked when it became a candidate)`,
        { tool: toolName, endpoint: name, expected: locked.endpoints[name]!.fingerprint },
      );
    }
    const span = { start: 0, end: bytes.length };
    const parsed = parseSpan({ bytes }, span, this.#path, `endpoint "${toolName}.${name}"`);
    if ((parsed as { name?: unknown } | null)?.name !== name) {
      // The compiled bytes of another endpoint: the index's names disagree with its own spans.
      throw new LoadError(
        "LOCK_MISMATCH",
        `The retrieval index ${this.#indexPath} places endpoint "${toolName}.${name}" where its artifact has another one. Re-run \`schemarouter compile\` and review the lockfile diff.`,
        {
          reason: "retrieval-index",
          source: this.#name,
          path: this.#indexPath,
          tool: toolName,
          endpoint: name,
        },
      );
    }
    const check = { source: this.#name, where: this.#path, locked, defs: this.defs() };
    return verifyEndpointText(check, toolName, name, bytes, span, parsed);
  }

  #verifyTool(tool: number): ToolSpec {
    const { name, locked } = this.#lockedTool(tool);
    const spans = this.#data.locations.toolSpans;
    const head = this.#read(spans[4 * tool]!, spans[4 * tool + 1]!);
    const tail = this.#read(spans[4 * tool + 2]!, spans[4 * tool + 3]!);
    const text = Buffer.concat([head, tail]);
    let skeleton: Record<string, unknown> | undefined;
    if (sameDigest(text, this.#data.locations.toolDigests, tool)) {
      try {
        skeleton = JSON.parse(utf8.decode(text)) as Record<string, unknown>;
      } catch {
        skeleton = undefined;
      }
    }
    const first = this.#toolEndpoints[tool - this.#firstTool]!;
    const names = this.#data.tools[tool]!.endpoints;
    const fingerprints = names.map((endpoint) => locked.endpoints[endpoint]!.fingerprint);
    const actual =
      skeleton !== null &&
      typeof skeleton === "object" &&
      skeleton.name === name &&
      Array.isArray(skeleton.endpoints) &&
      skeleton.endpoints.length === 0
        ? toolFingerprint(skeleton as unknown as ToolSpec, fingerprints)
        : undefined;
    if (skeleton !== undefined && actual !== undefined && actual !== locked.fingerprint) {
      // The skeleton is the compiled one: the index lists the tool's endpoints otherwise than the lock.
      throw new LoadError(
        "LOCK_MISMATCH",
        `The retrieval index ${this.#indexPath} and the lockfile disagree on the endpoints of tool "${name}" (its fingerprint over them is ${actual}, the lock's ${locked.fingerprint}). Re-run \`schemarouter compile\` and review the lockfile diff.`,
        { reason: "retrieval-index", source: this.#name, path: this.#indexPath, tool: name },
      );
    }
    if (skeleton === undefined || actual !== locked.fingerprint || skeleton.remote !== locked.remote) {
      throw lockMismatch(
        this.#name,
        "tool-fingerprint",
        `tool "${name}" in ${this.#path} is not the compiled tool the lock pins (checked when it became a candidate)`,
        { tool: name, expected: locked.fingerprint, ...(actual === undefined ? {} : { actual }) },
      );
    }
    return this.#freezeTool(skeleton, tool, first, names.length);
  }

  /**
   * The verified skeleton deep-frozen, with `endpoints` an accessor list over the tool's endpoints
   * (each verified on access) made when first read: a candidate reads its tool's identity, not its
   * other endpoints, and a tool may have thousands.
   */
  #freezeTool(skeleton: Record<string, unknown>, tool: number, first: number, count: number): ToolSpec {
    for (const key of Object.keys(skeleton)) if (key !== "endpoints") deepFreeze(skeleton[key]);
    let list: readonly EndpointSpec[] | undefined;
    const endpoints = (): readonly EndpointSpec[] => {
      if (list === undefined) {
        const accessors: EndpointSpec[] = [];
        for (let at = 0; at < count; at++) {
          Object.defineProperty(accessors, at, {
            enumerable: true,
            get: () => this.endpoint(tool, first + at),
          });
        }
        list = Object.freeze(accessors);
      }
      return list;
    };
    // Redefining the parsed (empty) member keeps its place in the key order.
    Object.defineProperty(skeleton, "endpoints", { enumerable: true, get: endpoints });
    return Object.freeze(skeleton) as unknown as ToolSpec;
  }

  /** Definitions by name, each read at its span once, when first digested or parsed. */
  #definitions(): DefinitionSet {
    const { defSpans } = this.#data.locations;
    const positionOf = this.#definitionPositions();
    const bytes = new Map<string, Buffer>();
    const bytesOf = (name: string): Buffer | undefined => {
      let read = bytes.get(name);
      if (read === undefined) {
        const d = positionOf(name);
        if (d === undefined) return undefined;
        read = this.#reading(() => this.#read(defSpans[2 * d]!, defSpans[2 * d + 1]!));
        bytes.set(name, read);
      }
      return read;
    };
    const values = new Map<string, JsonSchema>();
    const definitionOf = (name: string): JsonSchema | undefined => {
      let value = values.get(name);
      if (value === undefined) {
        const read = bytesOf(name);
        if (read === undefined) return undefined;
        value = deepFreeze(parseDefinition(read, this.#path, name));
        values.set(name, value);
      }
      return value;
    };
    return new DefinitionSet(definitionRecord(this.#definitionNames, definitionOf), {
      canonicalBytes: bytesOf,
    });
  }

  /** The source's definition names in index order (artifact order). */
  #definitionNames = (): string[] => {
    const { defStart } = this.#data.locations;
    const nameAt = this.#definitionName();
    const names: string[] = [];
    for (let d = defStart[this.#source]!; d < defStart[this.#source + 1]!; d++) names.push(nameAt(d));
    return names;
  };

  /**
   * The name of definition `d` of this source. When the source's names are all ASCII (byte offsets
   * are character offsets), they are decoded once and sliced; otherwise each is decoded on its own.
   */
  #definitionName(): (d: number) => string {
    const { defStart, defNameStart, defNames } = this.#data.locations;
    const from = defNameStart[defStart[this.#source]!]!;
    const to = defNameStart[defStart[this.#source + 1]!]!;
    const region = defNames.subarray(from, to);
    if (!isAscii(region))
      return (d) => utf8.decode(defNames.subarray(defNameStart[d]!, defNameStart[d + 1]!));
    const text = utf8.decode(region);
    return (d) => text.slice(defNameStart[d]! - from, defNameStart[d + 1]! - from);
  }

  /**
   * Index position of a definition by name: binary search over the names, which an artifact writes
   * in code-unit order (canonical JSON), decoding only the names it compares; a name it does not
   * find is looked up in a map of every name, so any order still finds every definition.
   */
  #definitionPositions(): (name: string) => number | undefined {
    const { defStart } = this.#data.locations;
    const from = defStart[this.#source]!;
    const to = defStart[this.#source + 1]!;
    const nameAt = this.#definitionName();
    let all: Map<string, number> | undefined;
    return (name) => {
      let lo = from;
      let hi = to - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = nameAt(mid);
        if (at === name) return mid;
        if (at < name) lo = mid + 1;
        else hi = mid - 1;
      }
      if (all === undefined) {
        all = new Map();
        for (let d = from; d < to; d++) all.set(nameAt(d), d);
      }
      return all.get(name);
    };
  }

  /** Runs `body` with the artifact open (reads inside share one descriptor). */
  #reading<T>(body: () => T): T {
    if (this.#fd !== undefined) return body();
    this.#fd = this.#open();
    try {
      return body();
    } finally {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  #open(): number {
    let fd: number;
    try {
      fd = openSync(this.#path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      throw new LoadError(
        "ARTIFACT_NOT_FOUND",
        `Source "${this.#name}": artifact ${this.#locked.artifact.path} is missing. Re-run \`schemarouter compile\`.`,
        { source: this.#name, path: this.#path },
        { cause: error },
      );
    }
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      throw new LoadError(
        "ARTIFACT_INVALID",
        `artifact ${this.#path} is not a regular file; re-run \`schemarouter compile\`.`,
        { path: this.#path, reason: "not-a-file" },
      );
    }
    return fd;
  }

  /** Bytes [start, end) of the artifact (fewer when the file is shorter: no digest will match). */
  #read(start: number, end: number): Buffer {
    const out = Buffer.allocUnsafe(end - start);
    let at = 0;
    while (at < out.length) {
      const n = readSync(this.#fd!, out, at, out.length - at, start + at);
      if (n === 0) break;
      at += n;
    }
    return at === out.length ? out : out.subarray(0, at);
  }
}

function sameDigest(bytes: Uint8Array, digests: Uint8Array, at: number): boolean {
  const expected = Buffer.from(digests.buffer, digests.byteOffset + at * DIGEST_BYTES, DIGEST_BYTES);
  return sha256(bytes) === `sha256:${expected.toString("hex")}`;
}

function parseDefinition(bytes: Buffer, where: string, name: string): JsonSchema {
  try {
    return JSON.parse(utf8.decode(bytes)) as JsonSchema;
  } catch (error) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where}: $defs/${name} is not valid JSON; re-run \`schemarouter compile\`.`,
      { path: where, member: `$defs/${name}` },
      { cause: error },
    );
  }
}

/**
 * A read-only record of definitions by name whose values are parsed on first read (`definitionOf`), and
 * whose names are listed only when enumerated: a candidate reads a few of a source's definitions.
 */
function definitionRecord(
  namesOf: () => readonly string[],
  definitionOf: (name: string) => JsonSchema | undefined,
): Readonly<Record<string, JsonSchema>> {
  let names: readonly string[] | undefined;
  const value = (key: string | symbol): JsonSchema | undefined =>
    typeof key === "string" ? definitionOf(key) : undefined;
  return new Proxy(Object.create(null) as Record<string, JsonSchema>, {
    get: (_target, key) => value(key),
    has: (_target, key) => value(key) !== undefined,
    ownKeys: () => {
      names ??= namesOf();
      return [...names];
    },
    getOwnPropertyDescriptor: (_target, key) => {
      const found = value(key);
      return found === undefined
        ? undefined
        : { value: found, writable: false, enumerable: true, configurable: true };
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    setPrototypeOf: () => false,
  });
}
