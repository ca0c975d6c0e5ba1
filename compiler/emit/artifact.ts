/**
 * Emits one capability artifact per source: canonical JSON (RFC 8785) with a trailing newline, so
 * identical inputs give byte-identical files.
 */
import {
  ARTIFACT_FORMAT,
  ARTIFACT_FORMAT_VERSION,
  type Artifact,
  type ArtifactBody,
  artifactDigest,
} from "../../runtime/artifact.js";
import { canonicalJson } from "../../runtime/fingerprint.js";
import type { SourceKind } from "../../runtime/model.js";
import type { SourceResult } from "../sources/types.js";
import { COMPILER_VERSION } from "../version.js";

export function buildArtifact(name: string, kind: SourceKind, result: SourceResult): Artifact {
  const body: ArtifactBody = {
    format: ARTIFACT_FORMAT,
    formatVersion: ARTIFACT_FORMAT_VERSION,
    compilerVersion: COMPILER_VERSION,
    source: { name, kind, location: result.location, documentDigest: result.documentDigest },
    $defs: result.defs,
    tools: result.tools,
    remoteDigests: result.remoteDigests ?? {},
    compatibility: result.compatibility,
  };
  // Round-trip through JSON so the artifact holds exactly what a reader will parse.
  const plain = JSON.parse(JSON.stringify(body)) as ArtifactBody;
  return { ...plain, digest: artifactDigest(plain) };
}

export function serializeArtifact(artifact: Artifact): string {
  return `${canonicalJson(artifact)}\n`;
}
