/**
 * Loads `schemarouter.lock.json` and the artifacts it pins and builds the frozen Registry.
 *
 * Verified at load, for every source: the artifact file's SHA-256 against the lockfile (this pins the
 * exact bytes, hence the layout), its line layout and self-digest, its source name, kind and document
 * digest, the tool and endpoint entries (names, effects, order, remote digests, remote flags) against
 * the lock, and every tool fingerprint, recomputed from the tool's contract and the locked endpoint
 * fingerprints. Each endpoint's own contract is verified on its first use (see locked-tool.ts), or
 * at load with `verify: "full"`. Any mismatch refuses: nothing drifted is ever used.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { LoadError } from "../errors/errors.js";
import type { Artifact } from "../format/artifact.js";
import { type ArtifactLayout, readArtifactLayout } from "../format/artifact-layout.js";
import { artifactDefinitions } from "../format/artifact-read.js";
import { type DefinitionSet, sha256 } from "../format/fingerprint.js";
import { type LockedSource, type Lockfile, parseLockfile } from "../format/lockfile.js";
import { readRegularFile } from "../format/regular-file.js";
import { deepFreeze } from "../model/freeze.js";
import { attachStoredIndex, type StoredIndex } from "../retrieval/stored-index.js";
import { lockMismatch, registerLockedTool } from "./locked-tool.js";
import { type RegisteredTool, Registry } from "./registry.js";
import { type RetrievalIndexStatus, readRetrievalIndex } from "./retrieval-index.js";

/**
 * When each endpoint contract is checked against its locked fingerprint:
 * - `"first-use"` (default): when the endpoint is first used (retrieved, planned, validated, called,
 *   inspected); a drifted endpoint fails then with LOCK_MISMATCH, the others keep working;
 * - `"full"`: every endpoint and shared definition is parsed and verified during load (CI, or a
 *   process that prefers to fail at start-up).
 */
export type VerifyMode = "first-use" | "full";

export interface LoadOptions {
  /** Project root holding `schemarouter.lock.json` (default: process.cwd()). */
  readonly root?: string;
  /** Explicit lockfile path (overrides `root`). */
  readonly lockfile?: string;
  /** When endpoint contracts are verified (default `"first-use"`). */
  readonly verify?: VerifyMode;
}

export interface LoadedCatalog {
  readonly lockfilePath: string;
  readonly lock: Lockfile;
  /** The artifacts; `$defs` and the tools' endpoints are parsed (and verified) on first access. */
  readonly artifacts: ReadonlyMap<string, Artifact>;
  readonly registry: Registry;
  /** Whether retrieval on `registry` uses the lock-pinned compile-time index (see retrieval-index.ts). */
  readonly retrievalIndex: RetrievalIndexStatus;
}

export async function loadCatalog(options: LoadOptions = {}): Promise<LoadedCatalog> {
  const lockfilePath = resolve(
    options.lockfile ?? resolve(options.root ?? process.cwd(), "schemarouter.lock.json"),
  );
  const verify = options.verify ?? "first-use";
  if (verify !== "first-use" && verify !== "full") {
    throw new TypeError(`SchemaRouter.load: verify must be "first-use" or "full", not ${String(verify)}.`);
  }
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
    const path = resolve(dirname(lockfilePath), locked.artifact.path);
    const layout = await readVerifiedLayout(name, locked, path);
    const defs = artifactDefinitions(layout, path);
    const registered = registerTools(name, locked, layout, defs, path, verify === "full");
    tools.push(...registered);
    // The skeleton completed with the lazy definitions and tools: the same value as the file.
    artifacts.set(
      name,
      deepFreeze({
        ...layout.skeleton,
        $defs: defs.defs,
        tools: Object.freeze(registered.map((tool) => tool.tool)),
      }),
    );
  }
  const registry = new Registry(tools);
  const stored = await readRetrievalIndex(lock, dirname(lockfilePath));
  if (stored.index !== undefined) {
    checkRegistryOrder(stored.index, registry, lock.retrievalIndex!.path);
    attachStoredIndex(registry, stored.index);
  }
  return { lockfilePath, lock, artifacts, registry, retrievalIndex: stored.status };
}

/** The index's endpoint positions are the registry's: same tools, same endpoints, same order. */
function checkRegistryOrder(index: StoredIndex, registry: Registry, path: string): void {
  const tools = index.data.tools;
  let at = 0;
  for (const registered of registry.registeredTools()) {
    const names = [...registered.endpointFingerprints.keys()];
    if (names.length === 0) continue; // the index lists only tools with endpoints
    const tool = tools[at++];
    if (
      tool === undefined ||
      tool.name !== registered.tool.name ||
      tool.endpoints.length !== names.length ||
      tool.endpoints.some((name, i) => name !== names[i])
    ) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `The retrieval index ${path} orders tool "${registered.tool.name}" differently from its artifact. Re-run \`schemarouter compile\` and review the lockfile diff.`,
        { reason: "retrieval-index", path, tool: registered.tool.name },
      );
    }
  }
  if (at !== tools.length) {
    throw new LoadError(
      "LOCK_MISMATCH",
      `The retrieval index ${path} lists more tools than the artifacts hold. Re-run \`schemarouter compile\` and review the lockfile diff.`,
      { reason: "retrieval-index", path },
    );
  }
}

async function readVerifiedLayout(name: string, locked: LockedSource, path: string): Promise<ArtifactLayout> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(
      "ARTIFACT_NOT_FOUND",
      `Source "${name}": artifact ${locked.artifact.path} is missing. Re-run \`schemarouter compile\`.`,
      { source: name, path },
      { cause: error },
    );
  }
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
  defs: DefinitionSet,
  path: string,
  full: boolean,
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
