/**
 * `schemarouter compile`: resolve every configured source, apply trusted overlays, fingerprint, and
 * emit artifacts, the lockfile and typed bindings. Each source is one job (source-job.ts): OpenAPI
 * sources run in a pool of worker threads (worker-pool.ts; `jobs`, default one per core), every other
 * kind on the main thread; each job's files are staged as soon as it is done (emit/output-sink.ts) and
 * committed together at the end, the lockfile last, so the output is byte-identical whatever the
 * number of jobs and a failed compile writes nothing (docs/reference/cli.md, "Large projects").
 * A plain write compile is incremental: a local OpenAPI source whose document, config entry, lock
 * entry, artifact and bindings all match what compiling it again would produce is reused as it is
 * (see emit/incremental.ts), decided on the main thread from the compile cache (emit/compile-cache.ts)
 * before any worker starts; `--check`, `--dry-run` and `--frozen` always compile everything.
 */

import { availableParallelism } from "node:os";
import type { Lockfile } from "schemarouter/internal";
import { serializeLockfile } from "schemarouter/internal";
import { type DriftResult, diffLockStates } from "../compare/lock-state.js";
import { loadConfig, type ResolvedConfig } from "../config/config.js";
import { backedSource, lazyFile } from "../emit/backed-source.js";
import { bindingPaths, indexModule } from "../emit/bindings.js";
import { CompileCache } from "../emit/compile-cache.js";
import { type CompileEmbedder, loadEmbedder } from "../emit/embeddings.js";
import { readPreviousLock, readPreviousState } from "../emit/incremental.js";
import { lockText, lockTextDigest, type PreviousLockFile } from "../emit/lock-text.js";
import { buildLockfile, type CompiledSource } from "../emit/lockfile.js";
import { OutputSink } from "../emit/output-sink.js";
import { emitRetrievalIndex } from "../emit/retrieval-index.js";
import { type BindingTool, routerBindingsType } from "../emit/router-bindings.js";
import { SourceStamps } from "../emit/source-stamps.js";
import type { SurfaceSegment } from "../emit/surface-segments.js";
import type { ClientTemplate } from "../emit/template.js";
import { readTemplateText } from "../emit/template.js";
import { cachedClientTemplate } from "../emit/template-cache.js";
import type { OutputFile, WriteResult } from "../emit/write.js";
import { WrittenRecord } from "../emit/written-record.js";
import { CompileError } from "../errors/errors.js";
import { verifyReusableCached } from "./cached-reuse.js";
import type { SourceCoverage } from "./coverage.js";
import { JobQueue } from "./schedule.js";
import { SegmentQueue } from "./segment-queue.js";
import { artifactFileOf, artifactPathOf, register } from "./source-compile.js";
import {
  describe,
  type JobSetting,
  type RefusedOutcome,
  type ReusedOutcome,
  runSourceJob,
  type SourceJob,
  type SourceOutcome,
} from "./source-job.js";
import { type SourceSummary, summarizeLockChanges } from "./summary.js";
import { WorkerPool, workersAvailable } from "./worker-pool.js";

export { compileSource, register, resolveSource } from "./source-compile.js";

export interface ProgressEvent {
  readonly source: string;
  readonly phase: "start" | "end";
  readonly ms?: number;
  readonly reused?: boolean;
  /** The source was refused (`keepGoing`). */
  readonly refused?: boolean;
  /** Sources finished so far, and in all. */
  readonly done: number;
  readonly total: number;
}

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
  /**
   * Sources compiled at once (default: `os.availableParallelism()`): OpenAPI sources in that many
   * worker threads, one source per worker at a time. 1 compiles everything on the main thread.
   */
  readonly jobs?: number;
  /**
   * Compile every source that can be compiled: a source whose document is refused is left out of
   * the lockfile and reported in `refused` (default false: its error is thrown and nothing is written).
   */
  readonly keepGoing?: boolean;
  /**
   * Trust the compile cache (emit/compile-cache.ts): a file whose stat identity is unchanged is not
   * read and hashed again (default true). `false` hashes every file and leaves the cache as it is.
   */
  readonly cache?: boolean;
  /** Called when a source starts and ends (progress). */
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** A source left out of the lockfile (`keepGoing`): its error's code and message. */
export interface RefusedSource {
  readonly source: string;
  readonly code: string;
  readonly message: string;
}

export interface CompileTimings {
  readonly wallMs: number;
  /** Worker threads used (0: every source compiled on the main thread). */
  readonly workers: number;
  /** Milliseconds per source (reuse check, or resolve + emit + bindings), by name. */
  readonly sources: Readonly<Record<string, number>>;
}

export interface CompileResult {
  readonly config: ResolvedConfig;
  readonly lock: Lockfile;
  readonly previousLock: Lockfile | undefined;
  /** Every output; in a writing compile, an artifact's or binding's contents are read back from disk. */
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
  /** Sources left out because they were refused (`keepGoing`), in name order. */
  readonly refused: readonly RefusedSource[];
  readonly timings: CompileTimings;
}

type Kept = Pick<
  Exclude<SourceOutcome, RefusedOutcome>,
  "kind" | "name" | "ms" | "coverage" | "bindingTools"
> & { readonly notes: readonly string[]; readonly warnings: readonly string[] };

/** What the compile keeps of one finished source (its files are already with the sink). */
interface Slot {
  /** The outcome without its texts (artifact, binding modules): those went to the sink. */
  readonly outcome: Kept;
  readonly source: CompiledSource;
  readonly artifact: OutputFile;
  readonly bindings: readonly OutputFile[];
}

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const started = performance.now();
  const config = await loadConfig(options.config);
  const mode = options.mode ?? "write";
  const incremental = options.incremental ?? (mode === "write" && options.frozen !== true);
  const env = options.env ?? process.env;
  const previousFile = readPreviousLock(config.lockfile);
  const previousLock = previousFile?.lock;
  // Only a plain compile reuses binding modules, and only those this compiler wrote (docs/reference/cli.md).
  const record = mode === "write" && options.frozen !== true ? WrittenRecord.open(config.path) : undefined;
  const setting: JobSetting = { config, env, templateText: await readTemplateText() };
  // With an embedder configured (docs/runtime/embeddings.md) every source is embedded again on the
  // main thread (the embedder is the application's own function): nothing on disk is reused.
  const embedder = await loadEmbedder(config);
  const names = Object.keys(config.sources).sort(byCodeUnit);
  const jobs: SourceJob[] = names.map((name) => {
    const locked = incremental && embedder === undefined ? previousLock?.sources[name] : undefined;
    return { name, ...(locked !== undefined ? { locked } : {}) };
  });
  // The record's entries for a job's binding modules, for the jobs that are compiled (not reused).
  const recordedFor = (name: string): Pick<SourceJob, "recorded"> =>
    record === undefined
      ? {}
      : { recorded: record.entriesFor(Object.values(bindingPaths(config.outDir, name))) };
  const sink = new OutputSink(mode);
  const slots = new Map<string, Slot>();
  const refusals = new Map<string, RefusedOutcome>();
  // Each compiled source's retrieval-index segment, built while its artifact text is in memory.
  const segments = new SegmentQueue();
  const cache = record === undefined ? undefined : CompileCache.open(config.path, options.cache !== false);
  const stamps =
    cache === undefined
      ? undefined
      : new SourceStamps(cache, previousFile === undefined ? undefined : lockTextDigest(previousFile.text));
  let workers = 0;
  let output: Awaited<ReturnType<typeof finish>>;
  try {
    // Reuse is decided here, from the compile cache, before any worker starts: an unchanged source
    // costs a few stat calls (docs/sources/openapi.md, "Incremental compile").
    const pending: SourceJob[] = [];
    for (const job of jobs) {
      const outcome =
        cache === undefined || job.locked === undefined
          ? undefined
          : reusedFromCache(job, setting, record!, cache, stamps!);
      if (outcome === undefined) {
        pending.push(
          cache === undefined
            ? { ...job, ...recordedFor(job.name) }
            : { name: job.name, ...recordedFor(job.name) },
        );
        continue;
      }
      options.onProgress?.({ source: job.name, phase: "start", done: slots.size, total: jobs.length });
      slots.set(job.name, await take(outcome, config, previousLock, sink));
      options.onProgress?.({
        source: job.name,
        phase: "end",
        ms: outcome.ms,
        reused: true,
        refused: false,
        done: slots.size,
        total: jobs.length,
      });
    }
    workers = await runJobs(pending, setting, options, embedder, slots.size, jobs.length, async (outcome) => {
      if (outcome.kind === "refused") refusals.set(outcome.name, outcome);
      else slots.set(outcome.name, await take(outcome, config, previousLock, sink, segments));
    });
    const firstRefused = names.find((name) => refusals.has(name));
    if (firstRefused !== undefined && options.keepGoing !== true) throw refusals.get(firstRefused)!.error;
    output = await finish(
      names,
      slots,
      config,
      previousFile,
      sink,
      options,
      cache,
      stamps,
      await segments.drain(),
    );
    await sink.commit();
  } catch (error) {
    await sink.discard();
    throw error;
  }
  if (record !== undefined) {
    for (const [path, digest] of sink.digests) record.set(path, digest);
    await record.save();
  }
  await cache?.save();
  const refused = names.flatMap((name) => {
    const outcome = refusals.get(name);
    return outcome === undefined ? [] : [{ source: name, code: outcome.code, message: outcome.message }];
  });
  const times: Record<string, number> = {};
  for (const name of names) {
    const ms = slots.get(name)?.outcome.ms ?? refusals.get(name)?.ms;
    if (ms !== undefined) times[name] = Math.round(ms);
  }
  return {
    ...output,
    write: sink.result(),
    refused,
    warnings: [
      ...output.warnings,
      ...refused.map(
        (entry) =>
          `source "${entry.source}" was refused and left out [${entry.code}]: ${entry.message.replace(/^source "[^"]*": /, "")}`,
      ),
    ],
    timings: { wallMs: Math.round(performance.now() - started), workers, sources: times },
  };
}

/**
 * Runs every job: OpenAPI sources in the worker pool when there are at least two of them and `jobs`
 * allows it (in the order schedule.ts gives), everything else (and everything, without workers) on
 * the main thread, one at a time in name order. After a refusal (without `keepGoing`) no further job
 * starts and jobs already running finish; the caller reports the first refused source in name order.
 * Returns the number of workers used.
 */
async function runJobs(
  jobs: readonly SourceJob[],
  setting: JobSetting,
  options: CompileOptions,
  embedder: CompileEmbedder | undefined,
  /** Sources already finished before these jobs (reused), and the compile's sources in all (progress). */
  doneBefore: number,
  total: number,
  onOutcome: (outcome: SourceOutcome) => Promise<void>,
): Promise<number> {
  const requested = options.jobs ?? availableParallelism();
  if (!Number.isInteger(requested) || requested < 1)
    throw new RangeError(`compile: jobs must be a positive integer (got ${requested})`);
  const pooled = jobs.filter((job) => setting.config.sources[job.name]?.kind === "openapi");
  const size = workersAvailable() && embedder === undefined ? Math.min(requested, pooled.length) : 0;
  const pool = size >= 2 ? new WorkerPool(size, setting) : undefined;
  let template: Promise<ClientTemplate> | undefined;
  const inProcess = (job: SourceJob) =>
    runSourceJob(
      job,
      setting,
      () => {
        template ??= cachedClientTemplate(setting.templateText, setting.config.path);
        return template;
      },
      embedder,
    );
  let stopped = false;
  let done = doneBefore;
  /** Compiles one job (reproducing a worker's refusal here, so the error thrown is the adapter's own). */
  const obtain = async (job: SourceJob, onWorker: boolean, recycle = false): Promise<SourceOutcome> => {
    options.onProgress?.({ source: job.name, phase: "start", done, total });
    let outcome = onWorker && pool !== undefined ? await viaPool(pool, job, recycle) : await inProcess(job);
    if (
      outcome === undefined ||
      (outcome.kind === "refused" && outcome.error === undefined && !options.keepGoing)
    )
      outcome = await inProcess(job);
    if (outcome.kind === "refused" && options.keepGoing !== true) stopped = true;
    return outcome;
  };
  /** Hands one job's outcome to the compile (its files to the sink). */
  const settle = async (job: SourceJob, outcome: SourceOutcome) => {
    await onOutcome(outcome);
    done++;
    options.onProgress?.({
      source: job.name,
      phase: "end",
      ms: outcome.ms,
      reused: outcome.kind === "reused",
      refused: outcome.kind === "refused",
      done,
      total,
    });
  };
  const lanes: Promise<void>[] = [];
  const lane = async (queue: readonly SourceJob[]) => {
    for (let next = 0; !stopped && next < queue.length; next++) {
      const job = queue[next]!;
      await settle(job, await obtain(job, false));
    }
  };
  if (pool === undefined) lanes.push(lane(jobs));
  else {
    const queue = new JobQueue(pooled, setting.config);
    // A worker takes its next job as soon as it has replied; the main thread hands the previous
    // outcome to the sink meanwhile (one outcome per lane at a time; after a heavy document, first).
    const worker = async () => {
      let handing: Promise<void> = Promise.resolve();
      let failure: { error: unknown } | undefined;
      try {
        for (
          let entry = await queue.take(() => stopped || failure !== undefined);
          entry !== undefined;
          entry = await queue.take(() => stopped || failure !== undefined)
        ) {
          let outcome: SourceOutcome;
          try {
            outcome = await obtain(entry.job, true, entry.heavy);
          } finally {
            queue.finished(entry);
          }
          // The previous outcome is handed over before this one, and this one before the next job's.
          await handing;
          const job = entry.job;
          handing =
            failure !== undefined
              ? Promise.resolve()
              : settle(job, outcome).catch((error: unknown) => {
                  failure ??= { error };
                  stopped = true;
                });
          if (entry.heavy) await handing;
        }
      } finally {
        // Nothing of this lane is still being handed over when the compile commits or discards.
        await handing;
      }
      if (failure !== undefined) throw failure.error;
    };
    for (let i = 0; i < pool.size; i++)
      lanes.push(
        worker().finally(() => {
          // A lane that ends (stopped, or failed) lets the others stop waiting for a heavy job.
          queue.wake();
        }),
      );
    lanes.push(lane(jobs.filter((job) => !pooled.includes(job))));
  }
  try {
    const settled = await Promise.allSettled(
      lanes.map((promise) =>
        promise.catch((error: unknown) => {
          stopped = true;
          throw error;
        }),
      ),
    );
    const failed = settled.find((entry) => entry.status === "rejected");
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  } finally {
    await pool?.close();
  }
  return pool?.size ?? 0;
}

/** The job's source reused as it is on disk, when the compile cache's check says it is current. */
function reusedFromCache(
  job: SourceJob,
  setting: JobSetting,
  record: WrittenRecord,
  cache: CompileCache,
  stamps: SourceStamps,
): ReusedOutcome | undefined {
  const started = performance.now();
  const { config } = setting;
  const summary = verifyReusableCached(
    job.name,
    config.sources[job.name]!,
    job.locked,
    config,
    setting.templateText,
    artifactPathOf(job.name, config),
    record,
    cache,
    stamps,
  );
  if (summary === undefined) return undefined;
  const paths = bindingPaths(config.outDir, job.name);
  return {
    kind: "reused",
    name: job.name,
    ms: performance.now() - started,
    lockEntry: job.locked!,
    coverage: summary.coverage,
    bindingTools: summary.bindingTools,
    bindings: [paths.declarations, paths.types, paths.client].map((path) => ({ path })),
  };
}

/** A job's outcome from a worker; undefined when the worker failed in a way only the main thread can tell. */
async function viaPool(
  pool: WorkerPool,
  job: SourceJob,
  recycle: boolean,
): Promise<SourceOutcome | undefined> {
  try {
    const reply = await pool.run(job, recycle);
    return reply.ok ? reply.outcome : undefined;
  } catch (error) {
    // The worker itself died (COMPILE_WORKER_FAILED): the source is refused with that error.
    return { kind: "refused", name: job.name, ms: 0, ...describe(error), error };
  }
}

/** Hands a finished source's files to the sink and keeps a compiled source backed by them. */
async function take(
  outcome: Exclude<SourceOutcome, RefusedOutcome>,
  config: ResolvedConfig,
  previousLock: Lockfile | undefined,
  sink: OutputSink,
  segments?: SegmentQueue,
): Promise<Slot> {
  const path = artifactFileOf(outcome.name, config);
  // The retrieval index's segment now, from the text in hand: finish() never reads every artifact
  // back (docs/reference/cli.md, "Large projects").
  if (segments !== undefined && outcome.kind === "compiled")
    await segments.add(
      outcome.lockEntry.artifact.digest,
      outcome.artifactText,
      artifactPathOf(outcome.name, config),
    );
  // A reused source keeps the previous lock's own entry object (readPreviousState relies on it).
  const lockEntry =
    outcome.kind === "reused"
      ? (previousLock?.sources[outcome.name] ?? outcome.lockEntry)
      : outcome.lockEntry;
  const artifact = await sink.put(
    outcome.kind === "reused" ? lazyFile(path, true) : { path, contents: outcome.artifactText },
  );
  const bindings: OutputFile[] = [];
  for (const file of outcome.bindings)
    bindings.push(
      await sink.put(
        file.contents === undefined
          ? lazyFile(file.path, true)
          : { path: file.path, contents: file.contents },
        true,
      ),
    );
  return {
    // Only what finish() needs: keeping the texts would hold every artifact until the end.
    outcome: {
      kind: outcome.kind,
      name: outcome.name,
      ms: outcome.ms,
      coverage: outcome.coverage,
      bindingTools: outcome.bindingTools,
      notes: outcome.kind === "compiled" ? outcome.notes : [],
      warnings: outcome.kind === "compiled" ? outcome.warnings : [],
    },
    artifact,
    bindings,
    source: backedSource(outcome.name, artifactPathOf(outcome.name, config), artifact, lockEntry, register),
  };
}

/**
 * After every source: the lockfile, the drift against the previous one, the `--frozen` refusal, and
 * the project-level outputs (index.ts, then the lockfile).
 */
async function finish(
  names: readonly string[],
  slots: ReadonlyMap<string, Slot>,
  config: ResolvedConfig,
  previousFile: PreviousLockFile | undefined,
  sink: OutputSink,
  options: CompileOptions,
  cache: CompileCache | undefined,
  stamps: SourceStamps | undefined,
  built: Pick<ReadonlyMap<string, SurfaceSegment>, "get">,
): Promise<Omit<CompileResult, "refused" | "timings" | "reused" | "write"> & { reused: string[] }> {
  const previousLock = previousFile?.lock;
  const kept = names.flatMap((name) => {
    const slot = slots.get(name);
    return slot === undefined ? [] : [slot];
  });
  const compiled = kept.map((slot) => slot.source);
  const reused = kept.filter((slot) => slot.outcome.kind === "reused").map((slot) => slot.source.name);
  // The retrieval index is built from the artifacts and pinned in the lockfile
  // (docs/runtime/retrieval-and-planning.md, "Stored index").
  const retrievalIndex = emitRetrievalIndex(
    compiled,
    buildLockfile(compiled),
    config,
    cache,
    previousLock?.retrievalIndex,
    built,
  );
  const lock = retrievalIndex.lock;
  const previous =
    previousLock === undefined
      ? undefined
      : readPreviousState(config.lockfile, previousLock, lock, new Set(reused));
  const changes =
    previous === undefined
      ? undefined
      : diffLockStates(previous.state, {
          lock,
          artifacts: compiled.filter((s) => !previous.same.has(s.name)).map((s) => s.artifact),
        });
  const text = lockText(lock, previousFile, cache);
  stamps?.remember(lockTextDigest(text), lock, config.sources);
  if (
    options.frozen === true &&
    (previous === undefined || serializeLockfile(previous.state.lock) !== text)
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
  const tools: BindingTool[] = kept.flatMap((slot) => slot.outcome.bindingTools);
  const index = await sink.put(
    indexModule(
      compiled.map((source) => source.name),
      config,
      routerBindingsType(tools),
    ),
  );
  if (retrievalIndex.bytes === undefined) sink.keep(retrievalIndex.path);
  else await sink.putBytes(retrievalIndex.path, retrievalIndex.bytes, retrievalIndex.replaces === true);
  // The lockfile is put last, so it is renamed into place after everything it pins.
  const lockFile = await sink.put({ path: config.lockfile, contents: text });
  const coverage = kept.map((slot) => slot.outcome.coverage);
  const compiledOnly = kept.flatMap((slot) => (slot.outcome.kind === "compiled" ? [slot.outcome] : []));
  return {
    config,
    lock,
    previousLock: previous?.state.lock,
    files: [...kept.map((slot) => slot.artifact), lockFile, ...kept.flatMap((slot) => slot.bindings), index],
    summaries: summarizeLockChanges(previous?.state.lock, lock),
    coverage,
    warnings: [...compiledOnly.flatMap((outcome) => outcome.warnings), ...zeroEndpointWarnings(coverage)],
    changes,
    sources: compiled,
    notes: compiledOnly.flatMap((outcome) => outcome.notes),
    reused,
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

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
