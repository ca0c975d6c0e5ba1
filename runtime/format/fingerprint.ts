/**
 * Canonical JSON (RFC 8785, JSON Canonicalization Scheme) and SHA-256 digests, shared by the compiler
 * and the runtime. A digest is written `sha256:<64 hex>`.
 *
 * Endpoint fingerprint: the EndpointSpec without `metadata`, plus the digest of every shared
 * definition (`$defs`) in the transitive closure of the `$ref`s it uses.
 * Tool fingerprint: the ToolSpec without `metadata` and `endpoints`, plus its endpoint fingerprints
 * in order.
 */
import { createHash } from "node:crypto";
import { decodePointerToken } from "../model/json-pointer.js";
import type { EndpointSpec, JsonSchema, ToolSpec } from "../model/specs.js";

/**
 * RFC 8785 canonical serialization. Throws on values JSON cannot represent.
 *
 * Fast path: a value whose objects are all plain with keys already in code-unit order (every artifact
 * read back from disk, since it was written canonically) serializes exactly as `JSON.stringify`, so the
 * native serializer is used for it, whole or per subtree; everything else goes through the writer.
 */
export function canonicalJson(value: unknown): string {
  const text = value !== undefined && isCanonicalOrder(value) ? JSON.stringify(value) : write(value);
  // JSON.stringify escapes a lone surrogate as `\udXXX` and never escapes a valid pair, so only then can
  // the text contain such an escape (or a string holding those six characters literally): RFC 8785
  // §3.2.2.2 requires rejecting lone surrogates, which the walk below tells apart.
  if (ESCAPED_SURROGATE.test(text)) rejectLoneSurrogates(value);
  return text;
}

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws when any string or key in `value` holds a lone UTF-16 surrogate. Iterative. */
function rejectLoneSurrogates(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (LONE_SURROGATE.test(current))
        throw new TypeError("canonicalJson: a string holds a lone surrogate, which RFC 8785 does not allow");
    } else if (current !== null && typeof current === "object") {
      if (Array.isArray(current)) pending.push(...current);
      else
        for (const key of Object.keys(current)) {
          pending.push(key, (current as Record<string, unknown>)[key]);
        }
    }
  }
}

/**
 * True when `JSON.stringify(value)` is already the canonical form: plain objects with own keys in
 * ascending code-unit order, dense arrays, finite numbers, strings, booleans and null only.
 * Own keys are checked before children, so an unordered object fails without walking its subtree.
 */
function isCanonicalOrder(value: unknown): boolean {
  if (typeof value !== "object") {
    return (
      typeof value === "string" ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value))
    );
  }
  if (value === null) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === undefined) {
        if (!(index in value)) return false;
      } else if (typeof item !== "string" && !isCanonicalOrder(item)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  // `for…in` also sees inherited enumerable keys; any such key only makes this return false.
  let previous: string | undefined;
  for (const key in record) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
  }
  for (const key in record) {
    const child = record[key];
    if (child !== undefined && typeof child !== "string" && !isCanonicalOrder(child)) return false;
  }
  return true;
}

function write(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      // ECMAScript Number-to-String is exactly the RFC 8785 number serialization.
      return Object.is(value, -0) ? "0" : String(value);
    case "string":
      return JSON.stringify(value);
    case "object":
      return Array.isArray(value) ? writeArray(value) : writeRecord(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonicalJson: cannot serialize a ${typeof value}`);
  }
}

function writeChild(value: unknown): string {
  return value !== null && typeof value === "object" && isCanonicalOrder(value)
    ? JSON.stringify(value)
    : write(value);
}

function writeArray(value: readonly unknown[]): string {
  let out = "[";
  for (let index = 0; index < value.length; index++) {
    // Holes are skipped (as Array.prototype.forEach does); `undefined` items are written as null.
    if (!(index in value)) continue;
    if (index > 0) out += ",";
    const item = value[index];
    out += writeChild(item === undefined ? null : item);
  }
  return `${out}]`;
}

function writeRecord(record: Record<string, unknown>): string {
  const keys: string[] = [];
  for (const key of Object.keys(record)) if (record[key] !== undefined) keys.push(key);
  // Default string ordering compares UTF-16 code units, as RFC 8785 requires.
  keys.sort();
  let out = "{";
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (index > 0) out += ",";
    out += `${JSON.stringify(key)}:${writeChild(record[key])}`;
  }
  return `${out}}`;
}

export function sha256(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

export function digestJson(value: unknown): string {
  return sha256(canonicalJson(value));
}

const DEF_PREFIX = "#/$defs/";

/** Names of `$defs` entries referenced directly by a schema (not transitively). */
export function directDefRefs(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) if (item !== null && typeof item === "object") directDefRefs(item, into);
  } else if (schema !== null && typeof schema === "object") {
    const record = schema as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (key === "$ref" && typeof child === "string" && child.startsWith(DEF_PREFIX)) {
        into.add(decodePointerToken(child.slice(DEF_PREFIX.length)));
      } else if (child !== null && typeof child === "object") {
        directDefRefs(child, into);
      }
    }
  }
  return into;
}

const REF_MEMBER = `"$ref":"${DEF_PREFIX}`;

/**
 * `directDefRefs` of a value, read off its canonical JSON text instead of walking it. Equivalent:
 * inside a JSON string every `"` is escaped, so the sequence `"$ref":"#/$defs/` occurs in the text
 * exactly where an object member named `$ref` has a string value with that prefix.
 */
export function directDefRefsInText(text: string, into: Set<string> = new Set()): Set<string> {
  for (let at = text.indexOf(REF_MEMBER); at >= 0; at = text.indexOf(REF_MEMBER, at + 1)) {
    const start = at + REF_MEMBER.length;
    let end = start;
    let escaped = false;
    while (end < text.length) {
      const char = text.charCodeAt(end);
      if (char === 0x22) break; // closing quote
      if (char === 0x5c) escaped = true; // backslash: the token needs JSON decoding
      end += char === 0x5c ? 2 : 1;
    }
    const token = escaped ? (JSON.parse(`"${text.slice(start, end)}"`) as string) : text.slice(start, end);
    into.add(decodePointerToken(token));
  }
  return into;
}

/** Serializations already made of an artifact's definitions and endpoints. */
export interface KnownCanonical {
  /** `digestJson` of each shared definition, by name. */
  readonly digests?: ReadonlyMap<string, string>;
  /** Canonical JSON of each endpoint's contract (the endpoint without `metadata`), by endpoint. */
  readonly contracts?: WeakMap<object, string>;
  /**
   * The bytes of each definition's canonical text as stored (an artifact file), undefined for an
   * unknown name. When given, digests and references are read off these bytes, never off `defs`, so
   * no definition is parsed to fingerprint an endpoint, and a digest is always over the bytes a
   * parse would read.
   */
  readonly canonicalBytes?: (name: string) => Uint8Array | undefined;
}

const utf8 = new TextDecoder();

/**
 * Shared definitions of one artifact, with memoized per-definition digests and reference closures,
 * so fingerprinting hundreds of endpoints that share definitions stays linear.
 */
export class DefinitionSet {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  private readonly digests = new Map<string, string>();
  private readonly direct = new Map<string, Set<string>>();
  /** Closures already computed, by their sorted direct names joined with U+0000. */
  private readonly closures = new Map<string, readonly string[]>();
  /** `"name":"digest"` of each definition, as the endpoint fingerprint writes it. */
  private readonly members = new Map<string, string>();
  private readonly contracts: WeakMap<object, string> | undefined;
  private readonly bytesOf: ((name: string) => Uint8Array | undefined) | undefined;

  /**
   * `known`: canonical serializations a caller already made (the compiler, while writing the
   * artifact), so fingerprinting does not serialize the same definitions and endpoints again.
   */
  constructor(defs: Readonly<Record<string, JsonSchema>>, known: KnownCanonical = {}) {
    this.defs = defs;
    for (const [name, digest] of known.digests ?? []) this.digests.set(name, digest);
    this.contracts = known.contracts;
    this.bytesOf = known.canonicalBytes;
  }

  /** Canonical JSON of `contract`, the contract of `endpoint` (known, or serialized now). */
  contractText(endpoint: EndpointSpec, contract: Omit<EndpointSpec, "metadata">): string {
    return this.contracts?.get(endpoint) ?? canonicalJson(contract);
  }

  digestOf(name: string): string {
    let digest = this.digests.get(name);
    if (digest === undefined) {
      let text: string;
      if (this.bytesOf !== undefined) {
        const bytes = this.bytesOf(name);
        if (bytes === undefined) throw new TypeError(`unknown shared definition "${name}"`);
        digest = sha256(bytes);
        text = utf8.decode(bytes);
      } else {
        const def = Object.hasOwn(this.defs, name) ? this.defs[name] : undefined;
        if (def === undefined) throw new TypeError(`unknown shared definition "${name}"`);
        // One serialization gives both the digest and the direct references.
        text = canonicalJson(def);
        digest = sha256(text);
      }
      this.digests.set(name, digest);
      if (!this.direct.has(name)) this.direct.set(name, directDefRefsInText(text));
    }
    return digest;
  }

  /** `"name":"digest"`: the member of `name` in an endpoint fingerprint's `$defs` (JSON). */
  digestMember(name: string): string {
    let member = this.members.get(name);
    if (member === undefined) {
      member = `${JSON.stringify(name)}:${JSON.stringify(this.digestOf(name))}`;
      this.members.set(name, member);
    }
    return member;
  }

  /** Transitive closure of definitions referenced from `roots`, sorted by name. */
  closure(roots: readonly unknown[]): string[] {
    const direct = new Set<string>();
    for (const root of roots) directDefRefs(root, direct);
    return this.closureOf(direct);
  }

  /** Transitive closure of definitions from the names `roots` reference directly, sorted by name. */
  closureOf(direct: Iterable<string>): string[] {
    return [...this.closureOfNames(direct)];
  }

  /**
   * `closureOf`, shared: the same frozen list for the same direct names (endpoints of one artifact
   * reuse a few definitions, and a closure depends only on the definitions' bytes, read once).
   */
  closureOfNames(direct: Iterable<string>): readonly string[] {
    const roots = [...direct].sort();
    const key = roots.join("\u0000");
    let closure = this.closures.get(key);
    if (closure === undefined) {
      const seen = new Set<string>();
      const stack: string[] = roots;
      while (stack.length > 0) {
        const name = stack.pop()!;
        if (seen.has(name)) continue;
        seen.add(name);
        for (const next of this.directRefsOf(name)) if (!seen.has(next)) stack.push(next);
      }
      closure = Object.freeze([...seen].sort());
      this.closures.set(key, closure);
    }
    return closure;
  }

  private directRefsOf(name: string): Set<string> {
    let refs = this.direct.get(name);
    if (refs === undefined) {
      // Known digests (the compiler's) come without references: walk the definition for those.
      if (this.bytesOf === undefined && this.digests.has(name)) {
        const def = Object.hasOwn(this.defs, name) ? this.defs[name] : undefined;
        if (def === undefined) throw new TypeError(`unknown shared definition "${name}"`);
        refs = directDefRefs(def);
      } else {
        this.digestOf(name);
        refs = this.direct.get(name)!;
      }
      this.direct.set(name, refs);
    }
    return refs;
  }
}

const EMPTY_DEFS = new DefinitionSet({});

/** The fingerprinted contract of an endpoint: everything but `metadata`. */
export function endpointContract(endpoint: EndpointSpec): Omit<EndpointSpec, "metadata"> {
  const { metadata: _metadata, ...contract } = endpoint;
  return contract;
}

export function endpointFingerprint(endpoint: EndpointSpec, defs: DefinitionSet = EMPTY_DEFS): string {
  const contract = endpointContract(endpoint);
  // The contract's references are read off its canonical text (one serialization, no second walk).
  const text = defs.contractText(endpoint, contract);
  return contractFingerprint([text], directDefRefsInText(text), defs);
}

/**
 * The endpoint fingerprint from the contract's canonical text (in pieces, as strings or bytes) and
 * the definitions it references directly: digestJson({ endpoint: contract, $defs: { [name]: digest } })
 * assembled from its parts (the closure is sorted in code-unit order, and "$defs" sorts before
 * "endpoint"), hashed without building a copy of the contract.
 */
export function contractFingerprint(
  pieces: readonly (string | Uint8Array)[],
  refs: Iterable<string>,
  defs: DefinitionSet,
): string {
  let map = "";
  for (const name of defs.closureOfNames(refs)) map += `${map === "" ? "" : ","}${defs.digestMember(name)}`;
  const hash = createHash("sha256").update(`{"$defs":{${map}},"endpoint":`);
  for (const piece of pieces) hash.update(piece);
  return `sha256:${hash.update("}").digest("hex")}`;
}

export function toolFingerprint(tool: ToolSpec, endpointFingerprints: readonly string[]): string {
  const { metadata: _metadata, endpoints: _endpoints, ...contract } = tool;
  // digestJson({ tool: contract, endpoints }) assembled from its members ("endpoints" sorts before
  // "tool"), so a tool of thousands of endpoints serializes its list natively instead of per item.
  return sha256(`{"endpoints":${canonicalJson(endpointFingerprints)},"tool":${canonicalJson(contract)}}`);
}

export interface ToolFingerprints {
  readonly tool: string;
  readonly endpoints: ReadonlyMap<string, string>;
}

/** Fingerprints of a tool and each of its endpoints. */
export function fingerprintTool(tool: ToolSpec, defs: DefinitionSet = EMPTY_DEFS): ToolFingerprints {
  const endpoints = new Map<string, string>();
  for (const endpoint of tool.endpoints) endpoints.set(endpoint.name, endpointFingerprint(endpoint, defs));
  return { tool: toolFingerprint(tool, [...endpoints.values()]), endpoints };
}
