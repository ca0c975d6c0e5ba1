/**
 * Builds `schemarouter.lock.json` from the compiled sources: per source its provenance and artifact
 * pin, per tool and endpoint the fingerprints, side-effect class and remote flag.
 */
import type { Artifact, RegisteredTool } from "schemarouter/internal";
import {
  LOCKFILE_MARKER,
  LOCKFILE_VERSION,
  type LockedSource,
  type LockedTool,
  type Lockfile,
  sha256,
} from "schemarouter/internal";
import type { OutputFile } from "./write.js";

export interface CompiledSource {
  readonly name: string;
  readonly artifact: Artifact;
  readonly artifactText: string;
  /** Artifact path relative to the lockfile directory, with `/` separators. */
  readonly artifactPath: string;
  readonly tools: readonly RegisteredTool[];
  /** The lock entry, when it is already known (a source reused from the previous compile). */
  readonly lockEntry?: LockedSource;
  /** The artifact file as it is on disk, when it was reused from the previous compile. */
  readonly artifactFile?: OutputFile;
}

export function buildLockfile(sources: readonly CompiledSource[]): Lockfile {
  const out: Record<string, LockedSource> = {};
  for (const source of sources) {
    if (source.lockEntry !== undefined) {
      out[source.name] = source.lockEntry;
      continue;
    }
    const tools: Record<string, LockedTool> = {};
    for (const registered of source.tools) {
      const endpoints: Record<string, LockedTool["endpoints"][string]> = {};
      for (const endpoint of registered.tool.endpoints) {
        const remoteDigest = registered.remoteDigests.get(endpoint.name);
        endpoints[endpoint.name] = {
          effect: endpoint.effect,
          fingerprint: registered.endpointFingerprints.get(endpoint.name)!,
          ...(remoteDigest !== undefined ? { remoteDigest } : {}),
        };
      }
      tools[registered.tool.name] = {
        fingerprint: registered.fingerprint,
        remote: registered.tool.remote,
        endpoints,
      };
    }
    out[source.name] = {
      kind: source.artifact.source.kind,
      location: source.artifact.source.location,
      documentDigest: source.artifact.source.documentDigest,
      artifact: { path: source.artifactPath, digest: sha256(source.artifactText) },
      tools,
    };
  }
  return { "//": LOCKFILE_MARKER, lockfileVersion: LOCKFILE_VERSION, sources: out };
}
