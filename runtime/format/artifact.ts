/**
 * Capability artifact format (`<outDir>/artifacts/<source>.json`): one canonical JSON document per
 * source holding its ToolSpecs, shared definitions and compatibility report, with its own digest.
 * Version 2 adds the endpoint index and the line layout (artifact-layout.ts) that lets the runtime
 * parse each endpoint and definition on first use.
 */

import type { CompatibilityIssue, Effect, JsonSchema, SourceKind, ToolSpec } from "../model/specs.js";
import type { ArtifactEmbeddings } from "./artifact-embeddings.js";
import { digestJson } from "./fingerprint.js";

export const ARTIFACT_FORMAT = "schemarouter.artifact";
export const ARTIFACT_FORMAT_VERSION = 2;

export interface ArtifactSource {
  readonly name: string;
  readonly kind: SourceKind;
  /** Sanitized: no userinfo, query string or fragment. */
  readonly location: string;
  readonly documentDigest: string;
}

/** Per tool, each endpoint's `[name, effect]` in declaration order (layout data, not part of ToolSpec). */
export type EndpointIndex = Readonly<Record<string, readonly (readonly [string, Effect])[]>>;

export interface Artifact {
  readonly format: typeof ARTIFACT_FORMAT;
  readonly formatVersion: number;
  readonly compilerVersion: string;
  readonly source: ArtifactSource;
  readonly $defs: Readonly<Record<string, JsonSchema>>;
  readonly tools: readonly ToolSpec[];
  /** Lets a reader know every endpoint's name and effect without parsing the endpoints. */
  readonly endpointIndex: EndpointIndex;
  /** Per tool, per endpoint: digest of the remote definition exactly as listed (MCP). */
  readonly remoteDigests: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly compatibility: readonly CompatibilityIssue[];
  /**
   * Compile-time vectors of every endpoint and field (only when the config names an embedder;
   * docs/runtime/embeddings.md). Absent otherwise, so such artifacts are byte-identical to before.
   */
  readonly embeddings?: ArtifactEmbeddings;
  /** Digest of the canonical JSON of every other member. */
  readonly digest: string;
}

export type ArtifactBody = Omit<Artifact, "digest">;

export function artifactDigest(body: ArtifactBody): string {
  const { digest: _ignored, ...rest } = body as Artifact;
  return digestJson(rest);
}

export function endpointIndexOf(tools: readonly ToolSpec[]): EndpointIndex {
  const index: Record<string, (readonly [string, Effect])[]> = {};
  for (const tool of tools) index[tool.name] = tool.endpoints.map((e) => [e.name, e.effect] as const);
  return index;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
