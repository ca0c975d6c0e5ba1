/**
 * schemarouter/compiler — the programmatic compiler API (build time only).
 */

export { main } from "./cli/program.js";
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
} from "./compare/compare.js";
export {
  type DriftResult,
  diffLockStates,
  type LockState,
  readLockState,
  readLockStateAtRevision,
} from "./compare/lock-state.js";
export {
  checkDrift,
  exceedsThreshold,
  type FailOn,
  formatDrift,
  type ReportFormat,
} from "./compile/check.js";
export {
  type CompileOptions,
  type CompileResult,
  compile,
  compileSource,
  resolveSource,
} from "./compile/compile.js";
export { formatSummary, type SourceSummary, summarizeLockChanges } from "./compile/summary.js";
export {
  CONFIG_FILE,
  type ConfigFile,
  DEFAULTS,
  loadConfig,
  type ResolvedConfig,
  type SourceConfig,
} from "./config/config.js";
export { CONFIG_SCHEMA } from "./config/schema.js";
export type { ServeConfig } from "./config/serve.js";
export { COMPILER_VERSION } from "./emit/version.js";
export { COMPILER_ERROR_CODES, CompileError, ConfigError, SourceError } from "./errors/errors.js";
export { applyOverlays } from "./overlays/overlays.js";
export {
  defineProposer,
  type Proposer,
  type ProposerAnswer,
  type ProposerCandidate,
  type ProposerInput,
} from "./proposals/proposer.js";
export { ADAPTERS } from "./sources/index.js";
export {
  defineSourceAdapter,
  type PluginEndpoint,
  type PluginOutput,
  type PluginParameter,
  type PluginResolveContext,
  type SourceAdapterPlugin,
} from "./sources/plugin/define.js";
export type { SchemaProposal } from "./sources/proposal/proposal.js";
export type { SourceAdapter, SourceContext, SourceResult } from "./sources/types.js";
