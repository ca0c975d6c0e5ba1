/**
 * One source's artifact checked against its lock entry (docs/runtime/loading-and-verification.md): the
 * file's SHA-256 against the lockfile (this pins the exact bytes, hence the layout), its line layout
 * and self-digest, its source name, kind and document digest, the tool and endpoint entries (names,
 * effects, order, remote digests, remote flags) against the lock, and every tool fingerprint,
 * recomputed from the tool's contract and the locked endpoint fingerprints. Endpoint contracts are
 * verified on first use (locked-tool.ts), or here with `full`. Used at load, and by a deferred source
 * (deferred-source.ts) on its first use.
 */
import type { Artifact } from "../format/artifact.js";
import { type ArtifactLayout, readArtifactLayout } from "../format/artifact-layout.js";
import { artifactDefinitions } from "../format/artifact-read.js";
import { sha256 } from "../format/fingerprint.js";
import type { LockedSource } from "../format/lockfile.js";
import { deepFreeze } from "../model/freeze.js";
import { lockMismatch, registerLockedTool } from "./locked-tool.js";
import type { RegisteredTool } from "./registry.js";

export interface VerifiedSource {
  readonly tools: readonly RegisteredTool[];
  /** The artifact value; `$defs` and the tools' endpoints are parsed (and verified) on first access. */
  readonly artifact: Artifact;
}

/** Verifies the artifact `bytes` read from `path` for source `name` and registers its tools. */
export function verifySource(
  name: string,
  locked: LockedSource,
  path: string,
  bytes: Buffer,
  full: boolean,
): VerifiedSource {
  const layout = verifiedLayout(name, locked, path, bytes);
  const defs = artifactDefinitions(layout, path);
  const tools = registerTools(name, locked, layout, path, full, defs);
  // The skeleton completed with the lazy definitions and tools: the same value as the file.
  const artifact = deepFreeze({
    ...layout.skeleton,
    $defs: defs.defs,
    tools: Object.freeze(tools.map((tool) => tool.tool)),
  });
  return { tools, artifact };
}

function verifiedLayout(name: string, locked: LockedSource, path: string, bytes: Buffer): ArtifactLayout {
  const digest = sha256(bytes);
  if (digest !== locked.artifact.digest) {
    throw lockMismatch(
      name,
      "artifact-digest",
      `artifact ${locked.artifact.path} does not match the lockfile digest`,
      { expected: locked.artifact.digest, actual: digest },
    );
  }
  const layout = readArtifactLayout(bytes, path);
  const source = layout.skeleton.source;
  if (source.name !== name || source.kind !== locked.kind) {
    throw lockMismatch(name, "artifact-source", `artifact ${locked.artifact.path} describes another source`, {
      artifactSource: source.name,
    });
  }
  if (source.documentDigest !== locked.documentDigest) {
    throw lockMismatch(
      name,
      "document-digest",
      "the artifact was compiled from another document than the lockfile pins",
    );
  }
  return layout;
}

function registerTools(
  name: string,
  locked: LockedSource,
  layout: ArtifactLayout,
  path: string,
  full: boolean,
  defs: ReturnType<typeof artifactDefinitions>,
): RegisteredTool[] {
  const out: RegisteredTool[] = [];
  const seen = new Set<string>();
  layout.skeleton.tools.forEach((tool, position) => {
    const lockedTool = Object.hasOwn(locked.tools, tool.name) ? locked.tools[tool.name] : undefined;
    if (lockedTool === undefined || seen.has(tool.name))
      throw lockMismatch(name, "missing-entry", `tool "${tool.name}" is not in the lockfile`);
    seen.add(tool.name);
    out.push(
      registerLockedTool(
        {
          source: name,
          sourceKind: layout.skeleton.source.kind,
          layout,
          position,
          defs,
          locked: lockedTool,
          where: path,
        },
        full,
      ),
    );
  });
  for (const toolName of Object.keys(locked.tools)) {
    if (!seen.has(toolName))
      throw lockMismatch(name, "missing-entry", `locked tool "${toolName}" is not in the artifact`);
  }
  // Full verification also parses the definitions no endpoint uses (only the self-digest covers them).
  if (full) for (const def of Object.keys(defs.defs)) void defs.defs[def];
  return out;
}
