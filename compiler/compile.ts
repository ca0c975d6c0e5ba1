/**
 * `schemarouter compile`: resolve every configured source, apply trusted overlays, fingerprint, and
 * emit artifacts, the lockfile and typed bindings. The core returns data; `writeOutputs` does the I/O.
 */
import { join, relative } from "node:path";
import { DefinitionSet } from "../runtime/fingerprint.js";
import { type Lockfile, serializeLockfile } from "../runtime/lockfile.js";
import type { SourceKind, ToolSpec } from "../runtime/model.js";
import { type RegisteredTool, registerTool } from "../runtime/registry.js";
import { loadConfig, type ResolvedConfig, type SourceConfig } from "./config.js";
import { applyOverlays } from "./contracts.js";
import { buildArtifact, serializeArtifact } from "./emit/artifact.js";
import { emitBindings } from "./emit/bindings.js";
import { buildLockfile, type CompiledSource } from "./emit/lockfile.js";
import { CompileError } from "./errors.js";
import { type DriftResult, diffLockStates, type LockState, readLockState } from "./lock-state.js";
import { ADAPTERS } from "./sources/index.js";
import type { SourceContext, SourceResult } from "./sources/types.js";
import { type SourceSummary, summarizeLockChanges } from "./summary.js";
import { type OutputFile, type WriteResult, writeOutputs } from "./write.js";

export interface CompileOptions {
  /** Path of schemarouter.config.json. */
  readonly config: string;
  readonly mode?: "write" | "dry-run" | "check";
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Refuse to change the lockfile at all (CI): fails with LOCK_FROZEN when it would change. */
  readonly frozen?: boolean;
  /** Called when a source starts and ends (progress lines). */
  readonly onProgress?: (event: { source: string; phase: "start" | "end"; ms?: number }) => void;
}

export interface CompileResult {
  readonly config: ResolvedConfig;
  readonly lock: Lockfile;
  readonly previousLock: Lockfile | undefined;
  readonly files: readonly OutputFile[];
  readonly write: WriteResult;
  readonly summaries: readonly SourceSummary[];
  /** Classified change against the previous lockfile and artifacts (absent on a first compile). */
  readonly changes: DriftResult | undefined;
  readonly sources: readonly CompiledSource[];
  readonly notes: readonly string[];
}

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const config = await loadConfig(options.config);
  const context: SourceContext = {
    cwd: config.dir,
    env: options.env ?? process.env,
    allowInsecureHttp: config.allowInsecureHttp,
  };
  const compiled: CompiledSource[] = [];
  const notes: string[] = [];
  for (const [name, sourceConfig] of Object.entries(config.sources).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const started = performance.now();
    options.onProgress?.({ source: name, phase: "start" });
    const result = await resolveSource(name, sourceConfig, context);
    notes.push(...(result.notes ?? []).map((note) => `${name}: ${note}`));
    compiled.push(compileSource(name, sourceConfig.kind, result, config));
    options.onProgress?.({ source: name, phase: "end", ms: performance.now() - started });
  }
  const lock = buildLockfile(compiled);
  const files: OutputFile[] = [
    ...compiled.map((source) => ({
      path: join(config.outDir, "artifacts", `${source.name}.json`),
      contents: source.artifactText,
    })),
    { path: config.lockfile, contents: serializeLockfile(lock) },
    ...(await emitBindings(compiled, config)),
  ];
  const previous = readPreviousState(config.lockfile);
  const changes =
    previous === undefined
      ? undefined
      : diffLockStates(previous, { lock, artifacts: compiled.map((source) => source.artifact) });
  if (
    options.frozen === true &&
    (previous === undefined || serializeLockfile(previous.lock) !== serializeLockfile(lock))
  ) {
    throw new CompileError(
      "LOCK_FROZEN",
      `--frozen: ${previous === undefined ? "there is no valid lockfile" : "the lockfile would change"}; run \`schemarouter compile\` without --frozen and commit the reviewed lockfile.`,
      { lockfile: config.lockfile, category: changes?.report.category },
    );
  }
  const write = await writeOutputs(files, options.mode ?? "write");
  const previousLock = previous?.lock;
  const summaries = summarizeLockChanges(previousLock, lock);
  return { config, lock, previousLock, files, write, summaries, changes, sources: compiled, notes };
}

export async function resolveSource(
  name: string,
  config: SourceConfig,
  context: SourceContext,
): Promise<SourceResult> {
  const adapter = ADAPTERS[config.kind] as {
    resolve(name: string, config: SourceConfig, context: SourceContext): Promise<SourceResult>;
  };
  const result = await adapter.resolve(name, config, context);
  const tools = applyOverlays(name, result.tools, result.defs, config.overlays);
  return { ...result, tools };
}

export function compileSource(
  name: string,
  kind: SourceKind,
  result: SourceResult,
  config: ResolvedConfig,
): CompiledSource {
  const artifact = buildArtifact(name, kind, result);
  const artifactText = serializeArtifact(artifact);
  const defs = new DefinitionSet(artifact.$defs);
  const tools: RegisteredTool[] = artifact.tools.map((tool: ToolSpec) =>
    registerTool({
      tool,
      source: name,
      sourceKind: kind,
      defs,
      remoteDigests: artifact.remoteDigests[tool.name] ?? {},
    }),
  );
  const artifactPath = relative(join(config.lockfile, ".."), join(config.outDir, "artifacts", `${name}.json`))
    .split("\\")
    .join("/");
  return { name, artifact, artifactText, artifactPath, tools };
}

/** The lockfile and artifacts on disk before this compile; undefined when absent or unreadable. */
function readPreviousState(path: string): LockState | undefined {
  try {
    return readLockState(path);
  } catch {
    return undefined;
  }
}
