/**
 * Capability artifact format (`<outDir>/artifacts/<source>.json`): one canonical JSON document per
 * source holding its ToolSpecs, shared definitions and compatibility report, with its own digest.
 */

import { createHash } from "node:crypto";
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
  const actual = canonicalTextDigest(text, artifact) ?? artifactDigest(artifact);
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

/**
 * The self-digest read off the file text, when the text is the compiler's canonical form: the
 * compiler hashes the canonical JSON of every other member, then writes that same text with the
 * `"digest"` member inserted (between `compilerVersion` and `format`) and a newline. So removing that
 * member gives back exactly the hashed text, with no need to re-serialize the parsed artifact. Returns
 * undefined (the caller recomputes the canonical digest) when the splice does not reproduce the
 * recorded digest, e.g. for a hand-formatted file. A file is accepted here only if its text is byte
 * for byte the text its recorded digest was computed over; the one case judged differently from the
 * recomputation is a digest deliberately computed over non-canonical text, which only a forger
 * produces (who could as well write the canonical digest); the lockfile's byte digest pins the file.
 */
function canonicalTextDigest(text: string, artifact: Artifact): string | undefined {
  if (typeof artifact.compilerVersion !== "string" || !text.startsWith("{")) return undefined;
  const before = `"compilerVersion":${JSON.stringify(artifact.compilerVersion)}`;
  const member = `,"digest":${JSON.stringify(artifact.digest)}`;
  const at = text.indexOf(`${before}${member},"format":`);
  if (at < 0) return undefined;
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  const cut = at + before.length;
  const resume = cut + member.length;
  // Two updates hash the spliced text without building (and flattening) a copy of it.
  const hex = createHash("sha256").update(text.slice(0, cut)).update(text.slice(resume, end)).digest("hex");
  return `sha256:${hex}` === artifact.digest ? artifact.digest : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
