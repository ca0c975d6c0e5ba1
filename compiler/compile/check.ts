/**
 * Drift review: `schemarouter check` (re-resolve every source, write nothing, classify what changed
 * against the lock) and `schemarouter diff` (classify two lockfiles plus artifacts, e.g. the working
 * tree against a git ref). Reports are diagnostic only; exit codes come from their category.
 */
import { loadCatalog } from "schemarouter/internal";
import {
  type ChangeCategory,
  categoryRank,
  compareLocks,
  formatReportMarkdown,
  formatReportText,
} from "../compare/compare.js";
import { type DriftResult, documentOnly, snapshots } from "../compare/lock-state.js";
import { loadConfig } from "../config/config.js";
import { buildLockfile } from "../emit/lockfile.js";
import type { SourceContext } from "../sources/types.js";
import { checkEmbeddings, type EmbeddingDrift } from "./check-embeddings.js";
import { compileSource, resolveSource, zeroEndpointWarnings } from "./compile.js";
import { coverageOf, type SourceCoverage } from "./coverage.js";

export type FailOn = "any" | "breaking" | "security-review";
export type ReportFormat = "text" | "markdown" | "json";

export interface CheckResult extends DriftResult {
  /** What the freshly resolved sources leave out or support partly (`check --strict` fails on left-out ones). */
  readonly coverage: readonly SourceCoverage[];
  readonly warnings: readonly string[];
  /** Where the locked vectors are not what the configured embedder writes now (`check` exits 1). */
  readonly embeddings: readonly EmbeddingDrift[];
}

/** Re-resolves every configured source and compares it with the lock. Writes nothing. */
export async function checkDrift(
  configPath: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<CheckResult> {
  const config = await loadConfig(configPath);
  // Every locked contract is compared, so every one is verified now.
  const locked = await loadCatalog({ lockfile: config.lockfile, verify: "full" });
  const context: SourceContext = {
    cwd: config.dir,
    env,
    allowInsecureHttp: config.allowInsecureHttp,
    ...(config.file.plugins !== undefined ? { plugins: config.file.plugins } : {}),
    ...(config.file.providers !== undefined ? { providers: config.file.providers } : {}),
  };
  const fresh = [];
  const sourceWarnings: string[] = [];
  for (const [name, source] of Object.entries(config.sources).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const result = await resolveSource(name, source, context);
    sourceWarnings.push(...(result.warnings ?? []).map((warning) => `source "${name}": ${warning}`));
    fresh.push(compileSource(name, source.kind, result, config));
  }
  const report = compareLocks(
    snapshots(locked.artifacts.values()),
    snapshots(fresh.map((source) => source.artifact)),
  );
  const coverage = fresh.map((source) => coverageOf(source.artifact));
  return {
    report,
    documentOnly: documentOnly(locked.lock, buildLockfile(fresh), report),
    coverage,
    warnings: [...sourceWarnings, ...zeroEndpointWarnings(coverage)],
    embeddings: await checkEmbeddings(config, locked.artifacts.values()),
  };
}

export function exceedsThreshold(category: ChangeCategory, failOn: FailOn): boolean {
  if (category === "identical") return false;
  if (failOn === "any") return true;
  return categoryRank(category) >= categoryRank(failOn);
}

/**
 * The report in `format`. JSON carries `check`'s embedding findings too (`embeddings`, one entry per
 * drifted source, docs/runtime/embeddings.md "Checking the vectors") when the result has them.
 */
export function formatDrift(
  result: DriftResult & { readonly embeddings?: readonly EmbeddingDrift[] },
  format: ReportFormat,
): string {
  if (format === "json") {
    const embeddings = result.embeddings === undefined ? {} : { embeddings: result.embeddings };
    return `${JSON.stringify({ ...result.report, documentOnly: result.documentOnly, ...embeddings }, null, 2)}\n`;
  }
  const body = format === "markdown" ? formatReportMarkdown(result.report) : formatReportText(result.report);
  const notes = result.documentOnly.map(
    (name) => `note: source "${name}": the document changed, but every capability contract is identical.`,
  );
  return `${body.trimEnd()}\n${notes.length > 0 ? `${notes.join("\n")}\n` : ""}`;
}
