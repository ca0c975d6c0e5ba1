/**
 * schemarouter/traces — persisted run events and their export: the SQLite trace store, non-executing
 * replay, redaction, and the OpenTelemetry exporter (docs/runtime/traces.md).
 */
export {
  createOtelExporter,
  type OtelExporter,
  type OtelExporterOptions,
  type OtelSpanLike,
  type OtelTracerLike,
} from "./otel.js";
export { isRedactedMarker, redactEvent } from "./redact.js";
export { type ReplayResult, replayRun } from "./replay.js";
export {
  buildDecisionReport,
  type CodeCount,
  type DecisionReport,
  type FallbackSummary,
  type LatencySummary,
  latencyOf,
  type ReportOptions,
  type RouteSummary,
} from "./report.js";
export { SqliteTraceStore, type SqliteTraceStoreOptions } from "./sqlite.js";
export type { StoredEvent, TraceStore } from "./store.js";
