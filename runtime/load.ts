/**
 * Loads `schemarouter.lock.json` and the artifacts it pins, verifies every digest and fingerprint, and
 * builds the frozen Registry. Any mismatch refuses the whole load: nothing drifted is registered.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type Artifact, parseArtifact } from "./artifact.js";
import { LoadError } from "./errors.js";
import { sha256 } from "./fingerprint.js";
import { type LockedSource, type Lockfile, parseLockfile } from "./lockfile.js";
import { type RegisteredTool, Registry, registerTool } from "./registry.js";

export interface LoadOptions {
  /** Project root holding `schemarouter.lock.json` (default: process.cwd()). */
  readonly root?: string;
  /** Explicit lockfile path (overrides `root`). */
  readonly lockfile?: string;
}

export interface LoadedCatalog {
  readonly lockfilePath: string;
  readonly lock: Lockfile;
  readonly artifacts: ReadonlyMap<string, Artifact>;
  readonly registry: Registry;
}

export async function loadCatalog(options: LoadOptions = {}): Promise<LoadedCatalog> {
  const lockfilePath = resolve(
    options.lockfile ?? resolve(options.root ?? process.cwd(), "schemarouter.lock.json"),
  );
  let text: string;
  try {
    text = await readFile(lockfilePath, "utf8");
  } catch (error) {
    throw new LoadError(
      "LOCK_NOT_FOUND",
      `No lockfile at ${lockfilePath}. Run \`schemarouter compile\` to create it, or pass { lockfile } to SchemaRouter.load().`,
      { path: lockfilePath },
      { cause: error },
    );
  }
  const lock = parseLockfile(text, lockfilePath);
  const artifacts = new Map<string, Artifact>();
  const tools: RegisteredTool[] = [];
  for (const [name, locked] of Object.entries(lock.sources).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const artifact = await readVerifiedArtifact(name, locked, dirname(lockfilePath));
    artifacts.set(name, artifact);
    tools.push(...verifyTools(name, locked, artifact));
  }
  return { lockfilePath, lock, artifacts, registry: new Registry(tools) };
}

async function readVerifiedArtifact(name: string, locked: LockedSource, baseDir: string): Promise<Artifact> {
  const path = resolve(baseDir, locked.artifact.path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new LoadError(
      "ARTIFACT_NOT_FOUND",
      `Source "${name}": artifact ${locked.artifact.path} is missing. Re-run \`schemarouter compile\`.`,
      { source: name, path },
      { cause: error },
    );
  }
  const digest = sha256(bytes);
  if (digest !== locked.artifact.digest) {
    throw mismatch(
      name,
      "artifact-digest",
      `artifact ${locked.artifact.path} does not match the lockfile digest`,
      {
        expected: locked.artifact.digest,
        actual: digest,
      },
    );
  }
  const artifact = parseArtifact(bytes.toString("utf8"), path);
  if (artifact.source.name !== name || artifact.source.kind !== locked.kind) {
    throw mismatch(name, "artifact-source", `artifact ${locked.artifact.path} describes another source`, {
      artifactSource: artifact.source.name,
    });
  }
  if (artifact.source.documentDigest !== locked.documentDigest) {
    throw mismatch(
      name,
      "document-digest",
      "the artifact was compiled from another document than the lockfile pins",
    );
  }
  return artifact;
}

function verifyTools(name: string, locked: LockedSource, artifact: Artifact): RegisteredTool[] {
  const out: RegisteredTool[] = [];
  const seen = new Set<string>();
  for (const tool of artifact.tools) {
    const lockedTool = locked.tools[tool.name];
    if (lockedTool === undefined)
      throw mismatch(name, "missing-entry", `tool "${tool.name}" is not in the lockfile`);
    seen.add(tool.name);
    const registered = registerTool({
      tool,
      source: name,
      sourceKind: artifact.source.kind,
      defs: artifact.$defs,
      remoteDigests: artifact.remoteDigests[tool.name] ?? {},
    });
    if (registered.fingerprint !== lockedTool.fingerprint || registered.tool.remote !== lockedTool.remote) {
      throw mismatch(name, "tool-fingerprint", `tool "${tool.name}" does not match its locked fingerprint`, {
        tool: tool.name,
        expected: lockedTool.fingerprint,
        actual: registered.fingerprint,
      });
    }
    const lockedNames = Object.keys(lockedTool.endpoints);
    if (lockedNames.length !== tool.endpoints.length) {
      throw mismatch(
        name,
        "missing-entry",
        `tool "${tool.name}" has a different set of endpoints than the lockfile`,
        {
          tool: tool.name,
        },
      );
    }
    for (const endpoint of tool.endpoints) {
      const lockedEndpoint = lockedTool.endpoints[endpoint.name];
      const actual = registered.endpointFingerprints.get(endpoint.name);
      const remoteDigest = registered.remoteDigests.get(endpoint.name);
      if (
        lockedEndpoint === undefined ||
        lockedEndpoint.fingerprint !== actual ||
        lockedEndpoint.effect !== endpoint.effect ||
        lockedEndpoint.remoteDigest !== remoteDigest
      ) {
        throw mismatch(
          name,
          "endpoint-fingerprint",
          `endpoint "${tool.name}.${endpoint.name}" does not match the lockfile`,
          {
            tool: tool.name,
            endpoint: endpoint.name,
            expected: lockedEndpoint?.fingerprint,
            actual,
          },
        );
      }
    }
    out.push(registered);
  }
  for (const toolName of Object.keys(locked.tools)) {
    if (!seen.has(toolName))
      throw mismatch(name, "missing-entry", `locked tool "${toolName}" is not in the artifact`);
  }
  return out;
}

function mismatch(
  source: string,
  reason: string,
  what: string,
  extra: Record<string, unknown> = {},
): LoadError {
  return new LoadError(
    "LOCK_MISMATCH",
    `Source "${source}": ${what}. The artifacts and the lockfile disagree; re-run \`schemarouter compile\` and review the lockfile diff.`,
    { source, reason, ...extra },
  );
}
