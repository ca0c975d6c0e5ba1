/**
 * `schemarouter migrate`: upgrades the artifacts a lockfile pins from an older format version to the
 * current one, explicitly (docs/reference/formats.md, "Migrating older artifacts"). Fail-closed:
 * an artifact whose bytes differ from the lock, whose self-digest is wrong, that has members its
 * format never had, or that comes from an unknown (future) format is refused, and nothing is written.
 * Migration changes the container only: every tool fingerprint is the same before and after, and an
 * artifact holds no secret, invoker or authority for it to restore.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  ARTIFACT_FORMAT,
  ARTIFACT_FORMAT_VERSION,
  type Artifact,
  type ArtifactBody,
  DefinitionSet,
  fingerprintTool,
  LoadError,
  type Lockfile,
  parseArtifact,
  parseLockfile,
  serializeLockfile,
  sha256,
} from "schemarouter/internal";
import { readAnyArtifact } from "../compare/artifact-legacy.js";
import { artifactOfBody } from "../emit/artifact.js";
import { writeAtomic } from "../emit/write.js";

/** The members a version-1 artifact has; anything else is not a version-1 artifact. */
const VERSION_1_MEMBERS = new Set([
  "format",
  "formatVersion",
  "compilerVersion",
  "source",
  "$defs",
  "tools",
  "remoteDigests",
  "compatibility",
  "digest",
]);

export interface SourceMigration {
  readonly source: string;
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

export interface MigrationPlan {
  readonly lockfile: string;
  /** Sources whose artifact is upgraded (empty: everything is current). */
  readonly migrations: readonly SourceMigration[];
  /** Sources already at the current version. */
  readonly current: readonly string[];
}

interface Upgrade {
  readonly migration: SourceMigration;
  readonly absolute: string;
  readonly text: string;
}

/** Reads and checks everything, then (unless `check`) writes the upgraded artifacts and the lockfile last. */
export async function migrateLockfile(
  lockfile: string,
  options: { check?: boolean } = {},
): Promise<MigrationPlan> {
  const lockText = await readFile(lockfile, "utf8");
  const lock = parseLockfile(lockText, lockfile);
  const root = dirname(lockfile);
  const upgrades: Upgrade[] = [];
  const current: string[] = [];
  const sources: Record<string, Lockfile["sources"][string]> = {};
  for (const [name, entry] of Object.entries(lock.sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const absolute = resolve(root, entry.artifact.path);
    const bytes = await readFile(absolute);
    if (sha256(bytes) !== entry.artifact.digest) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `${entry.artifact.path} differs from the digest ${lockfile} records for source "${name}"; migrate only upgrades artifacts exactly as they were locked. Restore the file (git checkout) or re-run \`schemarouter compile\`.`,
        { path: entry.artifact.path, source: name, reason: "artifact-digest" },
      );
    }
    const version = formatVersionOf(bytes, entry.artifact.path);
    if (version === ARTIFACT_FORMAT_VERSION) {
      parseArtifact(bytes, entry.artifact.path);
      current.push(name);
      sources[name] = entry;
      continue;
    }
    if (version !== 1) {
      throw new LoadError(
        "ARTIFACT_VERSION_UNSUPPORTED",
        `${entry.artifact.path} has artifact format version ${String(version)}; this schemarouter migrates version 1 to ${ARTIFACT_FORMAT_VERSION}. ${typeof version === "number" && version > ARTIFACT_FORMAT_VERSION ? "It was written by a newer schemarouter: upgrade instead of migrating." : "It is not an artifact any release wrote: re-run `schemarouter compile`."}`,
        { path: entry.artifact.path, formatVersion: version },
      );
    }
    const upgraded = upgradeVersion1(bytes, entry.artifact.path);
    upgrades.push({
      migration: { source: name, path: entry.artifact.path, from: 1, to: ARTIFACT_FORMAT_VERSION },
      absolute,
      text: upgraded,
    });
    sources[name] = { ...entry, artifact: { ...entry.artifact, digest: sha256(upgraded) } };
  }
  const plan = { lockfile, migrations: upgrades.map((u) => u.migration), current };
  if (options.check === true || upgrades.length === 0) return plan;
  for (const upgrade of upgrades) await writeAtomic(upgrade.absolute, upgrade.text);
  await writeAtomic(lockfile, serializeLockfile({ ...lock, sources }));
  return plan;
}

function formatVersionOf(bytes: Uint8Array, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new LoadError("ARTIFACT_INVALID", `${where} is not JSON; re-run \`schemarouter compile\`.`, {
      path: where,
    });
  }
  if (
    value === null ||
    typeof value !== "object" ||
    (value as { format?: unknown }).format !== ARTIFACT_FORMAT
  ) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} is not a schemarouter artifact; re-run \`schemarouter compile\`.`,
      {
        path: where,
      },
    );
  }
  return (value as { formatVersion?: unknown }).formatVersion;
}

/** A version-1 artifact as version-2 text, with the contract proven unchanged. */
function upgradeVersion1(bytes: Uint8Array, where: string): string {
  const raw = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  const extra = Object.keys(raw).filter((key) => !VERSION_1_MEMBERS.has(key));
  if (extra.length > 0) {
    throw new LoadError(
      "ARTIFACT_INVALID",
      `${where} has member(s) ${extra.map((key) => `"${key}"`).join(", ")} that no version-1 artifact has; it is refused, not migrated. Re-run \`schemarouter compile\`.`,
      { path: where, member: extra[0]! },
    );
  }
  // Verifies the version-1 self-digest (a tampered contract is refused here).
  const legacy: Artifact = readAnyArtifact(bytes, where);
  const { digest: _digest, ...rest } = legacy;
  const body: ArtifactBody = { ...rest, formatVersion: ARTIFACT_FORMAT_VERSION };
  const emitted = artifactOfBody(JSON.parse(JSON.stringify(body)) as ArtifactBody);
  const before = new DefinitionSet(legacy.$defs);
  for (const [index, tool] of legacy.tools.entries()) {
    const after = emitted.artifact.tools[index]!;
    if (fingerprintTool(tool, before).tool !== fingerprintTool(after, emitted.defs).tool) {
      throw new LoadError(
        "ARTIFACT_INVALID",
        `${where}: migrating tool "${tool.name}" would change its contract; refused. Re-run \`schemarouter compile\`.`,
        { path: where, tool: tool.name },
      );
    }
  }
  return emitted.text;
}
