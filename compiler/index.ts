/**
 * schemarouter/compiler — the programmatic compiler API (build time only).
 */

export { main } from "./cli.js";
export {
  type Change,
  type ChangeCategory,
  type ComparisonReport,
  categoryRank,
  compareEndpoints,
  compareLocks,
  compareSources,
  compareTools,
  formatReportMarkdown,
  formatReportText,
  mergeReports,
  RULES,
  RULES_VERSION,
  type SourceSnapshot,
  sourceSnapshotOf,
  worst,
} from "./compare.js";
export { type CompileOptions, type CompileResult, compile, compileSource, resolveSource } from "./compile.js";
export {
  CONFIG_FILE,
  type ConfigFile,
  DEFAULTS,
  loadConfig,
  type ResolvedConfig,
  type SourceConfig,
} from "./config.js";
export { CONFIG_SCHEMA } from "./config-schema.js";
export { applyOverlays } from "./contracts.js";
export { checkDrift, exceedsThreshold, type FailOn, formatDrift, type ReportFormat } from "./drift.js";
export { COMPILER_ERROR_CODES, CompileError, ConfigError, SourceError } from "./errors.js";
export {
  type DriftResult,
  diffLockStates,
  type LockState,
  readLockState,
  readLockStateAtRevision,
} from "./lock-state.js";
export { ADAPTERS } from "./sources/index.js";
export type { SourceAdapter, SourceContext, SourceResult } from "./sources/types.js";
export { formatSummary, type SourceSummary, summarizeLockChanges } from "./summary.js";
export { COMPILER_VERSION } from "./version.js";
