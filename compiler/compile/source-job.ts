/**
 * One source's share of a compile, as a job with plain-data input and output so it runs the same on
 * the main thread or in a compile worker (source-worker.ts; docs/reference/cli.md, "Large projects"):
 * reuse the source's files when they are current (emit/incremental.ts), otherwise compile it and
 * generate its binding modules. The outcome carries the artifact text, the lock entry, the binding
 * modules, the coverage and what the project's `index.ts` needs — never a parsed artifact — or, when
 * the source cannot be compiled, its refusal (the error's code and message).
 */

import { type LockedSource, readArtifactLayout } from "schemarouter/internal";
import type { ResolvedConfig } from "../config/config.js";
import { sourceBindings } from "../emit/bindings.js";
import { type CompileEmbedder, embeddingsOf } from "../emit/embeddings.js";
import { verifyReusable } from "../emit/incremental.js";
import { buildLockfile } from "../emit/lockfile.js";
import { type BindingTool, bindingToolsOf } from "../emit/router-bindings.js";
import type { ClientTemplate } from "../emit/template.js";
import { recordEntries } from "../emit/written-record.js";
import { coverageOf, type SourceCoverage } from "./coverage.js";
import {
  artifactFileOf,
  artifactPathOf,
  compileSource,
  resolveSource,
  sourceContext,
} from "./source-compile.js";

export interface SourceJob {
  readonly name: string;
  /** The source's entry in the previous lockfile, when it may be reused (incremental compile). */
  readonly locked?: LockedSource;
  /**
   * What the written record holds for the source's binding modules (absolute path → digest); absent
   * when nothing on disk may be kept (`--check`, `--frozen`).
   */
  readonly recorded?: Readonly<Record<string, string>>;
}

/** What every job of one compile shares. */
export interface JobSetting {
  readonly config: ResolvedConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** templates/source-client.ts as read (its digest is in every binding stamp). */
  readonly templateText: string;
}

/** A binding module: `contents` absent when the file on disk was verified current. */
export interface JobFile {
  readonly path: string;
  readonly contents?: string;
}

interface Done {
  readonly name: string;
  readonly ms: number;
  readonly lockEntry: LockedSource;
  readonly coverage: SourceCoverage;
  readonly bindingTools: readonly BindingTool[];
  readonly bindings: readonly JobFile[];
}

export interface ReusedOutcome extends Done {
  readonly kind: "reused";
}

export interface CompiledOutcome extends Done {
  readonly kind: "compiled";
  readonly artifactText: string;
  readonly notes: readonly string[];
  readonly warnings: readonly string[];
}

export interface RefusedOutcome {
  readonly kind: "refused";
  readonly name: string;
  readonly ms: number;
  /** The error's stable code (`INTERNAL` for an error that is not one of SchemaRouter's). */
  readonly code: string;
  readonly message: string;
  /** The error itself, on the thread that caught it (never sent between threads). */
  readonly error?: unknown;
}

export type SourceOutcome = ReusedOutcome | CompiledOutcome | RefusedOutcome;

/**
 * Runs one job. A source whose adapter (or artifact emission) throws is refused, not thrown; a
 * failure to generate its bindings (a broken template) is thrown, as it concerns every source.
 */
export async function runSourceJob(
  job: SourceJob,
  setting: JobSetting,
  template: () => Promise<ClientTemplate>,
  /** The configured embedder (main thread only; docs/runtime/embeddings.md). */
  embedder?: CompileEmbedder,
): Promise<SourceOutcome> {
  const started = performance.now();
  const { config, templateText } = setting;
  const name = job.name;
  const sourceConfig = config.sources[name];
  if (sourceConfig === undefined) throw new TypeError(`runSourceJob: "${name}" is not a configured source`);
  const record = job.recorded === undefined ? undefined : recordEntries(job.recorded);
  const artifactPath = artifactPathOf(name, config);
  if (job.locked !== undefined) {
    const hit = await verifyReusable(
      name,
      sourceConfig,
      job.locked,
      config,
      templateText,
      artifactPath,
      record,
    );
    if (hit !== undefined) {
      // The bytes matched the lock: the skeleton (everything but definitions and endpoints) is all
      // the summary and index.ts need.
      const skeleton = readArtifactLayout(hit.artifactBytes, artifactFileOf(name, config)).skeleton;
      return {
        kind: "reused",
        name,
        ms: performance.now() - started,
        lockEntry: job.locked,
        coverage: coverageOf(skeleton),
        bindingTools: bindingToolsOf(skeleton.tools),
        bindings: hit.bindings.map((file) => ({ path: file.path })),
      };
    }
  }
  let compiled: ReturnType<typeof compileSource>;
  let notes: readonly string[];
  let warnings: readonly string[];
  try {
    const result = await resolveSource(name, sourceConfig, sourceContext(config, setting.env));
    compiled = compileSource(name, sourceConfig.kind, result, config, await embeddingsOf(result, embedder));
    notes = (result.notes ?? []).map((note) => `${name}: ${note}`);
    warnings = (result.warnings ?? []).map((warning) => `source "${name}": ${warning}`);
  } catch (error) {
    return { kind: "refused", name, ms: performance.now() - started, ...describe(error), error };
  }
  const lockEntry = buildLockfile([compiled]).sources[name]!;
  const bindings = await sourceBindings(compiled, lockEntry, config, templateText, template, record);
  return {
    kind: "compiled",
    name,
    ms: performance.now() - started,
    artifactText: compiled.artifactText,
    lockEntry,
    coverage: coverageOf(compiled.artifact),
    bindingTools: bindingToolsOf(compiled.artifact.tools),
    bindings: bindings.map((file) =>
      file.unchanged === true ? { path: file.path } : { path: file.path, contents: file.contents },
    ),
    notes,
    warnings,
  };
}

/** The code and message of whatever a source threw. */
export function describe(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  return {
    code: typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : "INTERNAL",
    message: typeof message === "string" ? message : String(error),
  };
}
