/**
 * Reading artifacts of every format version this compiler knows, for comparison only (`diff`, the
 * change report of `compile`): version 2 (current, runtime/artifact-read.ts) and version 1 (one line,
 * no endpoint index), migrated explicitly. The runtime reads version 2 only and refuses version 1
 * with ARTIFACT_VERSION_UNSUPPORTED; `compile` never reuses a version-1 artifact (it rewrites it).
 */

import type { ToolSpec } from "schemarouter/internal";
import {
  type Artifact,
  artifactDigest,
  endpointIndexOf,
  isRecord,
  LoadError,
  parseArtifact,
} from "schemarouter/internal";

/** An artifact of format version 2 or 1, as a version-2 value. Throws LoadError. */
export function readAnyArtifact(input: Uint8Array | string, where: string): Artifact {
  try {
    return parseArtifact(input, where);
  } catch (error) {
    if (!(error instanceof LoadError && error.code === "ARTIFACT_VERSION_UNSUPPORTED")) throw error;
    if (error.details.formatVersion !== 1) throw error;
  }
  const value = JSON.parse(typeof input === "string" ? input : new TextDecoder().decode(input)) as unknown;
  const ok =
    isRecord(value) &&
    isRecord(value.source) &&
    isRecord(value.$defs) &&
    Array.isArray(value.tools) &&
    isRecord(value.remoteDigests) &&
    Array.isArray(value.compatibility) &&
    typeof value.digest === "string";
  if (!ok) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is missing artifact members; re-run \`schemarouter compile\`.`,
      { path: where },
    );
  }
  // Version 1's self-digest is the canonical digest of every other member, as in version 2.
  const legacy = value as unknown as Omit<Artifact, "endpointIndex">;
  const actual = artifactDigest(legacy as Artifact);
  if (actual !== legacy.digest) {
    throw new LoadError(
      "LOCK_MISMATCH",
      `${where} was modified after it was compiled (content digest ${actual} ≠ recorded ${legacy.digest}). Re-run \`schemarouter compile\`.`,
      { path: where, source: legacy.source.name, reason: "artifact-self-digest" },
    );
  }
  return { ...legacy, endpointIndex: endpointIndexOf(legacy.tools as readonly ToolSpec[]) };
}
