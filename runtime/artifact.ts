/**
 * Capability artifact format (`<outDir>/artifacts/<source>.json`): one canonical JSON document per
 * source holding its ToolSpecs, shared definitions and compatibility report, with its own digest.
 */
import { LoadError } from "./errors.js";
import { digestJson } from "./fingerprint.js";
import type { CompatibilityIssue, JsonSchema, SourceKind, ToolSpec } from "./model.js";

export const ARTIFACT_FORMAT = "schemarouter.artifact";
export const ARTIFACT_FORMAT_VERSION = 1;

export interface ArtifactSource {
  readonly name: string;
  readonly kind: SourceKind;
  /** Sanitized: no userinfo, query string or fragment. */
  readonly location: string;
  readonly documentDigest: string;
}

export interface Artifact {
  readonly format: typeof ARTIFACT_FORMAT;
  readonly formatVersion: number;
  readonly compilerVersion: string;
  readonly source: ArtifactSource;
  readonly $defs: Readonly<Record<string, JsonSchema>>;
  readonly tools: readonly ToolSpec[];
  /** Per tool, per endpoint: digest of the remote definition exactly as listed (MCP). */
  readonly remoteDigests: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly compatibility: readonly CompatibilityIssue[];
  /** Digest of the canonical JSON of every other member. */
  readonly digest: string;
}

export type ArtifactBody = Omit<Artifact, "digest">;

export function artifactDigest(body: ArtifactBody): string {
  const { digest: _ignored, ...rest } = body as Artifact;
  return digestJson(rest);
}

/** Parses and checks an artifact's format, version and self-digest. Throws LoadError. */
export function parseArtifact(text: string, where: string): Artifact {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not valid JSON; re-run \`schemarouter compile\`.`,
      {
        path: where,
      },
      { cause: error },
    );
  }
  if (!isRecord(value) || value.format !== ARTIFACT_FORMAT) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not a schemarouter artifact; re-run \`schemarouter compile\`.`,
      {
        path: where,
      },
    );
  }
  if (value.formatVersion !== ARTIFACT_FORMAT_VERSION) {
    throw new LoadError(
      "ARTIFACT_VERSION_UNSUPPORTED",
      `${where} has artifact format version ${String(value.formatVersion)}, but this schemarouter reads version ${ARTIFACT_FORMAT_VERSION}. ` +
        "Upgrade schemarouter, or re-run `schemarouter compile` with this version.",
      { path: where, formatVersion: value.formatVersion },
    );
  }
  const ok =
    isRecord(value.source) &&
    typeof value.source.name === "string" &&
    typeof value.source.kind === "string" &&
    isRecord(value.$defs) &&
    Array.isArray(value.tools) &&
    isRecord(value.remoteDigests) &&
    Array.isArray(value.compatibility) &&
    typeof value.digest === "string";
  if (!ok) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is missing artifact members; re-run \`schemarouter compile\`.`,
      {
        path: where,
      },
    );
  }
  const artifact = value as unknown as Artifact;
  const actual = artifactDigest(artifact);
  if (actual !== artifact.digest) {
    throw new LoadError(
      "LOCK_MISMATCH",
      `${where} was modified after it was compiled (content digest ${actual} ≠ recorded ${artifact.digest}). ` +
        "Re-run `schemarouter compile`; never edit artifacts by hand.",
      { path: where, source: artifact.source.name, reason: "artifact-self-digest" },
    );
  }
  return artifact;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
