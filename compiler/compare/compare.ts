/**
 * Contract comparison (public programmatic API): classifies every change between two endpoints,
 * tools, sources or whole locks as compatible, breaking or security-review, and the whole as the
 * worst of them (`identical` when nothing changed), with versioned rules.
 *
 * Diagnostic only: a ComparisonReport never carries or updates a fingerprint, pin or binding. Nothing
 * in it can make a ToolCall planned against, or an invoker bound to, an older contract runnable; the
 * execution boundary keeps refusing those until they are re-planned and re-bound.
 */
import type { Artifact, EndpointSpec, JsonSchema, ToolSpec } from "schemarouter/internal";
import { DefsPair } from "./defs.js";
import { diffEndpoint } from "./endpoint.js";
import { buildReport, type ComparisonReport, type Draft, type Emit } from "./report.js";
import { diffLock, diffSource, type SourceSnapshot } from "./source.js";
import { diffTool } from "./tool.js";

export { formatReportMarkdown, formatReportText } from "./format.js";
export { type Change, type ComparisonReport, mergeReports } from "./report.js";
export {
  type ChangeCategory,
  type ChangeSeverity,
  categoryRank,
  RULES,
  RULES_VERSION,
  type RuleId,
  type RuleInfo,
  worst,
} from "./rules.js";
export type { SourceSnapshot } from "./source.js";

export type Definitions = Readonly<Record<string, JsonSchema>>;

export interface EndpointSnapshot {
  readonly endpoint: EndpointSpec;
  /** The artifact's shared definitions (`$defs`) the endpoint schemas may `$ref`. */
  readonly defs: Definitions;
}

export interface ToolSnapshot {
  readonly tool: ToolSpec;
  readonly defs: Definitions;
}

function collect(run: (emit: Emit) => void): ComparisonReport {
  const drafts: Draft[] = [];
  run((d) => drafts.push(d));
  return buildReport(drafts);
}

/** Classifies the changes between two versions of one endpoint. Pointers are relative to the endpoint. */
export function compareEndpoints(before: EndpointSnapshot, after: EndpointSnapshot): ComparisonReport {
  const defs = new DefsPair(before.defs, after.defs);
  const endpoint = after.endpoint.name;
  return collect((emit) =>
    diffEndpoint(before.endpoint, after.endpoint, { defs, mcp: false }, (d) =>
      emit({ ...d, endpoint: d.endpoint ?? endpoint }),
    ),
  );
}

/** Classifies the changes between two versions of one tool. Pointers are relative to the tool. */
export function compareTools(before: ToolSnapshot, after: ToolSnapshot): ComparisonReport {
  const defs = new DefsPair(before.defs, after.defs);
  const tool = after.tool.name;
  return collect((emit) =>
    diffTool(before.tool, after.tool, defs, (d) => emit({ ...d, tool: d.tool ?? tool })),
  );
}

/** Classifies the changes between two snapshots of one source. Pointers are relative to the source. */
export function compareSources(before: SourceSnapshot, after: SourceSnapshot): ComparisonReport {
  const source = after.name;
  return collect((emit) => diffSource(before, after, (d) => emit({ ...d, source: d.source ?? source })));
}

/** Classifies the changes between two locks (sources by name). Pointers start with `/sources/<name>`. */
export function compareLocks(
  before: Readonly<Record<string, SourceSnapshot>>,
  after: Readonly<Record<string, SourceSnapshot>>,
): ComparisonReport {
  return collect((emit) => diffLock(before, after, emit));
}

/** The comparable part of a capability artifact (as loaded from disk, or as `compile` is about to write it). */
export function sourceSnapshotOf(
  artifact: Pick<Artifact, "source" | "$defs" | "tools" | "remoteDigests">,
): SourceSnapshot {
  return {
    name: artifact.source.name,
    kind: artifact.source.kind,
    location: artifact.source.location,
    tools: artifact.tools,
    defs: artifact.$defs,
    remoteDigests: artifact.remoteDigests,
  };
}
