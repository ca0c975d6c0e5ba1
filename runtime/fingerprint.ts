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
import type { EndpointSpec, JsonSchema, ToolSpec } from "./model.js";

/** RFC 8785 canonical serialization. Throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join("");
}

function write(value: unknown, out: string[]): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      // ECMAScript Number-to-String is exactly the RFC 8785 number serialization.
      out.push(Object.is(value, -0) ? "0" : String(value));
      return;
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "object": {
      if (Array.isArray(value)) {
        out.push("[");
        value.forEach((item, index) => {
          if (index > 0) out.push(",");
          write(item === undefined ? null : item, out);
        });
        out.push("]");
        return;
      }
      const record = value as Record<string, unknown>;
      // Default string ordering compares UTF-16 code units, as RFC 8785 requires.
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      out.push("{");
      keys.forEach((key, index) => {
        if (index > 0) out.push(",");
        out.push(JSON.stringify(key), ":");
        write(record[key], out);
      });
      out.push("}");
      return;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialize a ${typeof value}`);
  }
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
    for (const item of schema) directDefRefs(item, into);
  } else if (schema !== null && typeof schema === "object") {
    for (const [key, child] of Object.entries(schema)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith(DEF_PREFIX)) {
        into.add(decodePointerToken(child.slice(DEF_PREFIX.length)));
      } else {
        directDefRefs(child, into);
      }
    }
  }
  return into;
}

export function decodePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function encodePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Shared definitions of one artifact, with memoized per-definition digests and reference closures,
 * so fingerprinting hundreds of endpoints that share definitions stays linear.
 */
export class DefinitionSet {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  private readonly digests = new Map<string, string>();
  private readonly direct = new Map<string, Set<string>>();

  constructor(defs: Readonly<Record<string, JsonSchema>>) {
    this.defs = defs;
  }

  digestOf(name: string): string {
    let digest = this.digests.get(name);
    if (digest === undefined) {
      const def = this.defs[name];
      if (def === undefined) throw new TypeError(`unknown shared definition "${name}"`);
      digest = digestJson(def);
      this.digests.set(name, digest);
    }
    return digest;
  }

  /** Transitive closure of definitions referenced from `roots`, sorted by name. */
  closure(roots: readonly unknown[]): string[] {
    const seen = new Set<string>();
    const stack: string[] = [];
    for (const root of roots) for (const name of directDefRefs(root)) stack.push(name);
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const next of this.directRefsOf(name)) if (!seen.has(next)) stack.push(next);
    }
    return [...seen].sort();
  }

  private directRefsOf(name: string): Set<string> {
    let refs = this.direct.get(name);
    if (refs === undefined) {
      const def = this.defs[name];
      if (def === undefined) throw new TypeError(`unknown shared definition "${name}"`);
      refs = directDefRefs(def);
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
  const used = defs.closure([contract]);
  const $defs: Record<string, string> = {};
  for (const name of used) $defs[name] = defs.digestOf(name);
  return digestJson({ endpoint: contract, $defs });
}

export function toolFingerprint(tool: ToolSpec, endpointFingerprints: readonly string[]): string {
  const { metadata: _metadata, endpoints: _endpoints, ...contract } = tool;
  return digestJson({ tool: contract, endpoints: endpointFingerprints });
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
