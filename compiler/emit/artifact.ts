/**
 * Emits one capability artifact per source: canonical JSON (RFC 8785) in the line layout that
 * runtime/artifact-layout.ts reads — one line per shared definition and per endpoint, the self-digest
 * alone on its line, a trailing newline — so identical inputs give byte-identical files, removing the
 * newlines gives back the canonical text, and a changed endpoint or definition is a one-line diff.
 * Every definition and endpoint member is canonicalized once and the text is assembled from those
 * parts: the self-digest, the file, and the definition digests and endpoint contracts that
 * fingerprinting needs all share one serialization.
 */

import { createHash } from "node:crypto";
import type { ArtifactEmbeddings, SourceKind } from "schemarouter/internal";
import {
  ARTIFACT_FORMAT,
  ARTIFACT_FORMAT_VERSION,
  type Artifact,
  type ArtifactBody,
  canonicalJson,
  DefinitionSet,
  endpointIndexOf,
  memberTexts,
  renderArtifact,
  renderList,
  renderMember,
  renderTool,
  sha256,
} from "schemarouter/internal";
import type { SourceResult } from "../sources/types.js";
import { isPlainJson } from "./plain-json.js";
import { COMPILER_VERSION } from "./version.js";

export interface EmittedArtifact {
  readonly artifact: Artifact;
  /** The artifact file's contents (canonical JSON in the line layout, and a newline). */
  readonly text: string;
  /** The artifact's definitions, with the digests and contract texts already computed. */
  readonly defs: DefinitionSet;
}

type Record_ = Record<string, unknown>;

// Every value below is plain JSON data (plainBody): no undefined members.

/** `embeddings`: the compile-time vectors (emit/embeddings.ts), only when the config names an embedder. */
export function emitArtifact(
  name: string,
  kind: SourceKind,
  result: SourceResult,
  embeddings?: ArtifactEmbeddings,
): EmittedArtifact {
  return artifactOfBody(plainBody(name, kind, result, embeddings));
}

/**
 * The artifact file of a body that is plain JSON data (no undefined members): its self-digest, text
 * and definitions. `schemarouter migrate` renders upgraded artifacts with it (docs/reference/formats.md).
 */
export function artifactOfBody(plain: ArtifactBody): EmittedArtifact {
  const digests = new Map<string, string>();
  const contracts = new WeakMap<object, string>();
  const members = new Map<string, string>();
  for (const [key, value] of Object.entries(plain as unknown as Record_)) {
    if (value === undefined) continue;
    if (key === "$defs") members.set(key, definitionsText(value as Record_, digests));
    else if (key === "tools" && Array.isArray(value))
      members.set(key, `[${value.map((tool) => toolText(tool, contracts)).join(",")}]`);
    else members.set(key, renderMember(key, value));
  }
  // Without the newlines, the members other than the digest are exactly their canonical JSON: that
  // is what the self-digest covers.
  const digest = layoutDigest(members);
  members.set("digest", JSON.stringify(digest));
  const artifact: Artifact = { ...plain, digest };
  return {
    artifact,
    text: `${renderArtifact(members)}\n`,
    defs: new DefinitionSet(artifact.$defs, { digests, contracts }),
  };
}

/**
 * `sha256(renderArtifact(members).replaceAll("\n", ""))`, hashed line by line: neither the artifact's
 * text nor its copy without newlines is built for it (for the largest documents each is hundreds of
 * megabytes). Canonical JSON escapes a newline inside a string, so every newline is layout.
 */
function layoutDigest(members: ReadonlyMap<string, string>): string {
  const hash = createHash("sha256");
  hash.update("{");
  memberTexts(members).forEach((text, index) => {
    if (index > 0) hash.update(",");
    for (let start = 0; ; ) {
      const newline = text.indexOf("\n", start);
      if (newline < 0) {
        hash.update(text.slice(start));
        break;
      }
      if (newline > start) hash.update(text.slice(start, newline));
      start = newline + 1;
    }
  });
  hash.update("}");
  return `sha256:${hash.digest("hex")}`;
}

function definitionsText(defs: Record_, digests: Map<string, string>): string {
  const members = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    const text = canonicalJson(def);
    digests.set(name, sha256(text));
    members.set(name, text);
  }
  return renderList("{", memberTexts(members));
}

function toolText(tool: unknown, contracts: WeakMap<object, string>): string {
  const record = tool as Record_;
  if (record === null || typeof record !== "object" || !Array.isArray(record.endpoints))
    return canonicalJson(tool);
  const members = new Map<string, string>();
  for (const [key, value] of Object.entries(record))
    if (key !== "endpoints") members.set(key, canonicalJson(value));
  return renderTool(
    members,
    (record.endpoints as unknown[]).map((endpoint) => endpointText(endpoint, contracts)),
  );
}

/** The endpoint's canonical text; its contract (everything but `metadata`) is recorded on the way. */
function endpointText(endpoint: unknown, contracts: WeakMap<object, string>): string {
  if (endpoint === null || typeof endpoint !== "object" || Array.isArray(endpoint))
    return canonicalJson(endpoint);
  const members = new Map<string, string>();
  for (const [key, value] of Object.entries(endpoint as Record_)) members.set(key, canonicalJson(value));
  const metadata = members.get("metadata");
  members.delete("metadata");
  const contract = objectText(members);
  contracts.set(endpoint, contract);
  if (metadata === undefined) return contract;
  members.set("metadata", metadata);
  return objectText(members);
}

function plainBody(
  name: string,
  kind: SourceKind,
  result: SourceResult,
  embeddings: ArtifactEmbeddings | undefined,
): ArtifactBody {
  const body: ArtifactBody = {
    format: ARTIFACT_FORMAT,
    formatVersion: ARTIFACT_FORMAT_VERSION,
    compilerVersion: COMPILER_VERSION,
    source: { name, kind, location: result.location, documentDigest: result.documentDigest },
    // A copy with Object.prototype, as a reader parses it (adapters build `defs` without a prototype).
    $defs: { ...result.defs },
    tools: result.tools,
    endpointIndex: endpointIndexOf(result.tools),
    remoteDigests: result.remoteDigests ?? {},
    compatibility: result.compatibility,
    // Absent without an embedder: such artifacts are byte-identical to those of earlier compilers.
    ...(embeddings !== undefined ? { embeddings } : {}),
  };
  // The artifact holds exactly what a reader will parse: the body as it is when it is plain JSON data
  // already (nearly always; emit/plain-json.ts), otherwise its JSON round trip.
  return isPlainJson(body) ? body : (JSON.parse(JSON.stringify(body)) as ArtifactBody);
}

/** Canonical text of an object from its members' canonical texts (keys in code-unit order). */
function objectText(members: ReadonlyMap<string, string>): string {
  const keys = [...members.keys()].sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${members.get(key)}`).join(",")}}`;
}
