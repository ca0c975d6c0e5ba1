/**
 * The reuse decision of an incremental compile answered from the compile cache, on the main thread
 * before any worker starts (docs/sources/openapi.md, "The compile cache"): the conditions of
 * `verifyReusable` (emit/incremental.ts) on the same files, with file digests and the artifact's
 * summary read from the cache (emit/compile-cache.ts) when nothing about the file changed, and the
 * lock entry's stamp from the cache's record of the previous lockfile (emit/source-stamps.ts).
 */
import { join, resolve } from "node:path";
import { type LockedSource, readArtifactLayout } from "schemarouter/internal";
import type { ResolvedConfig, SourceConfig } from "../config/config.js";
import { bindingsCurrentCached } from "../emit/bindings.js";
import type { CompileCache } from "../emit/compile-cache.js";
import { isCurrentFormat, readIfPresent, reuseCandidate } from "../emit/incremental.js";
import { bindingsInputs } from "../emit/inputs.js";
import { type BindingTool, bindingToolsOf } from "../emit/router-bindings.js";
import type { SourceStamps } from "../emit/source-stamps.js";
import type { WrittenRecord } from "../emit/written-record.js";
import { coverageOf, type SourceCoverage } from "./coverage.js";

/** What a reused source contributes besides its files: all the summary and index.ts need of its artifact. */
export interface ReuseSummary {
  readonly coverage: SourceCoverage;
  readonly bindingTools: readonly BindingTool[];
}

/**
 * `verifyReusable` answered from the compile cache (compile-cache.ts), on the main thread: the same
 * conditions on the same files — document digest, artifact digest and format, binding modules
 * current — but a file's digest is read from the cache when its stat identity is unchanged, and the
 * artifact's summary (format check, coverage, binding tools) is what the cache derived from bytes
 * with that digest. Undefined when the source must be compiled.
 */
export function verifyReusableCached(
  name: string,
  config: SourceConfig,
  lockEntry: LockedSource | undefined,
  resolved: ResolvedConfig,
  templateText: string,
  artifactPath: string,
  record: WrittenRecord | undefined,
  cache: CompileCache,
  sourceStamps: SourceStamps,
): ReuseSummary | undefined {
  if (record === undefined) return undefined;
  const candidate = reuseCandidate(config, lockEntry, artifactPath);
  if (candidate === undefined) return undefined;
  const { location, locked } = candidate;
  if (cache.digestOf(resolve(resolved.dir, location))?.digest !== locked.documentDigest) return undefined;
  const artifactFile = join(resolved.outDir, "artifacts", `${name}.json`);
  const artifact = cache.digestOf(artifactFile);
  if (artifact === undefined || artifact.digest !== locked.artifact.digest) return undefined;
  // A pure function of the artifact's bytes: `false` when the artifact is not of the current format.
  let summary = cache.derivedOf("artifact", artifact.digest) as ReuseSummary | false | undefined;
  if (summary === undefined || (summary !== false && typeof summary?.coverage !== "object")) {
    const bytes = artifact.bytes ?? readIfPresent(artifactFile);
    if (bytes === undefined) return undefined;
    const skeleton = isCurrentFormat(bytes) ? readArtifactLayout(bytes, artifactFile).skeleton : undefined;
    summary =
      skeleton === undefined
        ? false
        : { coverage: coverageOf(skeleton), bindingTools: bindingToolsOf(skeleton.tools) };
    cache.setDerived("artifact", artifact.digest, summary);
  }
  if (summary === false) return undefined;
  // `expectedStamps` (bindings.ts), the lock entry's part remembered per lockfile text (source-stamps.ts).
  const stamps = {
    bindings: bindingsInputs(name, locked.artifact.digest, resolved.runtimeImport, templateText),
    source: sourceStamps.ofPrevious(name, config, locked),
  };
  if (!bindingsCurrentCached(name, resolved, stamps, record, cache)) return undefined;
  return summary;
}
