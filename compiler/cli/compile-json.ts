/**
 * `schemarouter compile --json` (docs/reference/cli.md, "`compile --json`"): the per-source summaries,
 * coverage, warnings, drift and files as before, plus the run's totals — sources compiled, reused and
 * refused (with each refusal's code and message), endpoints locked — and its timings.
 */
import type { CompileResult } from "../compile/compile.js";

export function compileJson(
  result: CompileResult,
  mode: "write" | "dry-run" | "check",
  relative: (path: string) => string,
): Record<string, unknown> {
  const total = Object.keys(result.config.sources).length;
  const reused = result.reused.length;
  return {
    mode,
    sources: {
      total,
      compiled: result.sources.length - reused,
      reused,
      refused: result.refused.length,
    },
    endpoints: result.coverage.reduce((sum, source) => sum + source.endpoints, 0),
    refused: result.refused,
    timings: result.timings,
    summaries: result.summaries,
    coverage: result.coverage,
    warnings: result.warnings,
    changes: result.changes?.report ?? null,
    stale: result.write.stale.map(relative),
    written: result.write.written.map(relative),
    notes: result.notes,
  };
}
