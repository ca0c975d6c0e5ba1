/**
 * `schemarouter compile`: resolve every configured source, apply trusted overlays, fingerprint, and
 * emit artifacts, the lockfile and typed bindings. The core returns data; `writeOutputs` does the I/O.
 * A plain write compile is incremental: a local OpenAPI source whose document, config entry, lock
 * entry, artifact and bindings all match what compiling it again would produce is reused as it is
 * (see emit/incremental.ts); `--check`, `--dry-run` and `--frozen` always compile everything.
 */

import { join, relative } from "node:path";
import type { ArtifactEmbeddings, SourceKind, ToolSpec } from "schemarouter/internal";
import {
  DefinitionSet,
  type Lockfile,
  type RegisteredTool,
  registerTool,
  serializeLockfile,
} from "schemarouter/internal";
import { type DriftResult, diffLockStates } from "../compare/lock-state.js";
import { loadConfig, type ResolvedConfig, type SourceConfig } from "../config/config.js";
import { emitArtifact } from "../emit/artifact.js";
import { bindingPaths, emitBindings } from "../emit/bindings.js";
import { embeddingsOf, loadEmbedder } from "../emit/embeddings.js";
import { readPreviousLock, readPreviousState, reuseSource } from "../emit/incremental.js";
import { buildLockfile, type CompiledSource } from "../emit/lockfile.js";
import { readTemplateText } from "../emit/template.js";
import { type OutputFile, type WriteResult, writeOutputs } from "../emit/write.js";
import { WrittenRecord } from "../emit/written-record.js";
import { CompileError } from "../errors/errors.js";
import { applyOverlays } from "../overlays/overlays.js";
import { applyProvider } from "../providers/apply.js";
import type { SourceContext, SourceResult } from "../sources/types.js";
import { coverageOf, type SourceCoverage } from "./coverage.js";
import { type SourceSummary, summarizeLockChanges } from "./summary.js";

export interface CompileOptions {
  /** Path of schemarouter.config.json. */
  readonly config: string;
  readonly mode?: "write" | "dry-run" | "check";
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Refuse to change the lockfile at all (CI): fails with LOCK_FROZEN when it would change. */
  readonly frozen?: boolean;
  /**
   * Reuse sources whose outputs on disk are current (default: true in write mode without `frozen`).
   * `false` compiles every source from its document.
   */
  readonly incremental?: boolean;
  /** Called when a source starts and ends (progress lines). */
  readonly onProgress?: (event: {
    source: string;
    phase: "start" | "end";
    ms?: number;
    reused?: boolean;
  }) => void;
}

export interface CompileResult {
  readonly config: ResolvedConfig;
  readonly lock: Lockfile;
  readonly previousLock: Lockfile | undefined;
  readonly files: readonly OutputFile[];
  readonly write: WriteResult;
  readonly summaries: readonly SourceSummary[];
  /** Per compiled source: operations left out and constructs partly supported, by reason. */
  readonly coverage: readonly SourceCoverage[];
  /**
   * Sources that compiled to 0 endpoints (`--strict` fails on them) and overlay actions that matched
   * nothing; printed as warnings.
   */
  readonly warnings: readonly string[];
  /** Classified change against the previous lockfile and artifacts (absent on a first compile). */
  readonly changes: DriftResult | undefined;
  readonly sources: readonly CompiledSource[];
  readonly notes: readonly string[];
  /** Sources reused from disk without being resolved again (incremental compile). */
  readonly reused: readonly string[];
}

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const config = await loadConfig(options.config);
  const mode = options.mode ?? "write";
  const incremental = options.incremental ?? (mode === "write" && options.frozen !== true);
  const context: SourceContext = {
    cwd: config.dir,
    env: options.env ?? process.env,
    allowInsecureHttp: config.allowInsecureHttp,
    ...(config.file.plugins !== undefined ? { plugins: config.file.plugins } : {}),
    ...(config.file.providers !== undefined ? { providers: config.file.providers } : {}),
  };
  const previousLock = readPreviousLock(config.lockfile);
  // With an embedder configured every source is embedded again: nothing on disk is reused.
  const embedder = await loadEmbedder(config);
  const template =
    incremental && previousLock !== undefined && embedder === undefined
      ? await readTemplateText()
      : undefined;
  // Only a plain compile reuses binding modules, and only those this compiler wrote (docs/reference/cli.md).
  const record = mode === "write" && options.frozen !== true ? WrittenRecord.open(config.path) : undefined;
  const compiled: CompiledSource[] = [];
  const verified = new Map<string, readonly OutputFile[]>();
  const notes: string[] = [];
  const sourceWarnings: string[] = [];
  for (const [name, sourceConfig] of Object.entries(config.sources).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const started = performance.now();
    options.onProgress?.({ source: name, phase: "start" });
    const hit =
      template === undefined
        ? undefined
        : await reuseSource(
            name,
            sourceConfig,
            previousLock,
            config,
            template,
            artifactPathOf(name, config),
            register,
            record,
          );
    if (hit !== undefined) {
      compiled.push(hit.source);
      verified.set(name, hit.bindings);
    } else {
      const result = await resolveSource(name, sourceConfig, context);
      notes.push(...(result.notes ?? []).map((note) => `${name}: ${note}`));
      sourceWarnings.push(...(result.warnings ?? []).map((warning) => `source "${name}": ${warning}`));
      compiled.push(
        compileSource(name, sourceConfig.kind, result, config, await embeddingsOf(result, embedder)),
      );
    }
    options.onProgress?.({
      source: name,
      phase: "end",
      ms: performance.now() - started,
      reused: hit !== undefined,
    });
  }
  const lock = buildLockfile(compiled);
  const files: OutputFile[] = [
    ...compiled.map(
      (source) =>
        source.artifactFile ?? {
          path: join(config.outDir, "artifacts", `${source.name}.json`),
          contents: source.artifactText,
        },
    ),
    { path: config.lockfile, contents: serializeLockfile(lock) },
    ...(await emitBindings(compiled, config, lock, verified, record)),
  ];
  const previous =
    previousLock === undefined
      ? undefined
      : readPreviousState(config.lockfile, previousLock, lock, new Set(verified.keys()));
  const changes =
    previous === undefined
      ? undefined
      : diffLockStates(previous.state, {
          lock,
          artifacts: compiled.filter((s) => !previous.same.has(s.name)).map((s) => s.artifact),
        });
  if (
    options.frozen === true &&
    (previous === undefined || serializeLockfile(previous.state.lock) !== serializeLockfile(lock))
  ) {
    throw new CompileError(
      "LOCK_FROZEN",
      `--frozen: ${previous === undefined ? "there is no valid lockfile" : "the lockfile would change"}; run \`schemarouter compile\` without --frozen and commit the reviewed lockfile.`,
      {
        lockfile: config.lockfile,
        ...(changes === undefined ? {} : { category: changes.report.category }),
      },
    );
  }
  const write = await writeOutputs(files, mode);
  if (record !== undefined) {
    const bindingFiles = new Set(
      compiled.flatMap((source) => Object.values(bindingPaths(config.outDir, source.name))),
    );
    await record.save(files.filter((file) => bindingFiles.has(file.path)));
  }
  const summaries = summarizeLockChanges(previous?.state.lock, lock);
  const coverage = compiled.map((source) => coverageOf(source.artifact));
  return {
    config,
    lock,
    previousLock: previous?.state.lock,
    files,
    write,
    summaries,
    coverage,
    warnings: [...sourceWarnings, ...zeroEndpointWarnings(coverage)],
    changes,
    sources: compiled,
    notes,
    reused: [...verified.keys()],
  };
}

export async function resolveSource(
  name: string,
  config: SourceConfig,
  context: SourceContext,
): Promise<SourceResult> {
  // Imported here, not at the top: a compile that reuses every source never loads an adapter.
  const { ADAPTERS } = await import("../sources/index.js");
  const adapter = ADAPTERS[config.kind] as {
    resolve(name: string, config: SourceConfig, context: SourceContext): Promise<SourceResult>;
  };
  const result = await adapter.resolve(name, config, context);
  const tools = applyProvider(
    name,
    applyOverlays(name, result.tools, result.defs, config.overlays),
    context.providers,
  );
  return { ...result, tools };
}

export function compileSource(
  name: string,
  kind: SourceKind,
  result: SourceResult,
  config: ResolvedConfig,
  embeddings?: ArtifactEmbeddings,
): CompiledSource {
  const { artifact, text: artifactText, defs } = emitArtifact(name, kind, result, embeddings);
  return {
    name,
    artifact,
    artifactText,
    artifactPath: artifactPathOf(name, config),
    tools: register(name, kind, artifact, defs),
  };
}

/** A source that compiled to nothing callable is a warning, whatever the reason. */
export function zeroEndpointWarnings(coverage: readonly SourceCoverage[]): string[] {
  return coverage
    .filter((source) => source.endpoints === 0)
    .map(
      (source) =>
        `source "${source.source}" compiled to 0 endpoints${source.leftOut > 0 ? ` (${source.leftOut} operation(s) left out)` : ""}; run \`schemarouter inspect --report ${source.source}\` to see why.`,
    );
}

/** Registers (fingerprints) every tool of an artifact. */
export function register(
  name: string,
  kind: SourceKind,
  artifact: CompiledSource["artifact"],
  defs: DefinitionSet = new DefinitionSet(artifact.$defs),
): RegisteredTool[] {
  return artifact.tools.map((tool: ToolSpec) =>
    registerTool({
      tool,
      source: name,
      sourceKind: kind,
      defs,
      remoteDigests: artifact.remoteDigests[tool.name] ?? {},
    }),
  );
}

/** The artifact path relative to the lockfile's directory, with `/` separators. */
function artifactPathOf(name: string, config: ResolvedConfig): string {
  return relative(join(config.lockfile, ".."), join(config.outDir, "artifacts", `${name}.json`))
    .split("\\")
    .join("/");
}
