/**
 * Source and lock comparison: a source's kind, location, tools, MCP remote digests and unused shared
 * definitions; a lock is a set of sources matched by name.
 */
import type { JsonSchema, SourceKind, ToolSpec } from "schemarouter/internal";
import { canonical, show } from "./context.js";
import { DefsPair, defClosure } from "./defs.js";
import { draft, type Emit, pointerOf, scoped } from "./report.js";
import { diffTool, listSome, toolSummary } from "./tool.js";

/** What a comparison needs of one compiled source (an artifact, or a fresh resolve). */
export interface SourceSnapshot {
  readonly name: string;
  readonly kind: SourceKind;
  /** Sanitized location (never userinfo, query string or fragment). */
  readonly location: string;
  readonly tools: readonly ToolSpec[];
  /** Shared definitions the endpoint schemas `$ref` as `#/$defs/<name>`. */
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** MCP: per tool, per endpoint, digest of the remote definition exactly as listed. */
  readonly remoteDigests?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export function diffSource(a: SourceSnapshot, b: SourceSnapshot, emit: Emit): void {
  if (a.name !== b.name)
    emit(draft("/name", "source.renamed", `source renamed from "${a.name}" to "${b.name}"`, a.name, b.name));
  if (a.kind !== b.kind)
    emit(
      draft(
        "/kind",
        "source.kind-changed",
        `source kind changed from ${a.kind} to ${b.kind}`,
        a.kind,
        b.kind,
      ),
    );
  if (a.location !== b.location) {
    emit(
      draft(
        "/location",
        "source.location-changed",
        `contract now comes from ${show(b.location)}: review who controls it`,
        a.location,
        b.location,
      ),
    );
  }
  const defs = new DefsPair(a.defs, b.defs);
  const ta = new Map(a.tools.map((t) => [t.name, t]));
  const tb = new Map(b.tools.map((t) => [t.name, t]));
  for (const name of [...new Set([...ta.keys(), ...tb.keys()])].sort()) {
    const prefix = `/tools${pointerOf(name)}`;
    const before = ta.get(name);
    const after = tb.get(name);
    if (after === undefined) {
      emit({
        ...draft(
          prefix,
          "tool.removed",
          `tool "${name}" removed: calls to it are refused`,
          toolSummary([before!]).summary,
        ),
        tool: name,
      });
    } else if (before === undefined) {
      const { summary, notReadOnly } = toolSummary([after]);
      emit({
        ...(notReadOnly.length === 0
          ? draft(prefix, "tool.added", `new tool "${name}" (read-only endpoints only)`, undefined, summary)
          : draft(
              prefix,
              "tool.added-not-read-only",
              `new tool "${name}" with endpoints that are not read-only: ${listSome(notReadOnly)}`,
              undefined,
              summary,
            )),
        tool: name,
      });
    } else {
      const inner = scoped(emit, prefix, { tool: name });
      diffTool(before, after, defs, inner);
      diffRemoteDigests(a, b, before, after, inner);
    }
  }
  const orderA = a.tools.filter((t) => tb.has(t.name)).map((t) => t.name);
  const orderB = b.tools.filter((t) => ta.has(t.name)).map((t) => t.name);
  if (canonical(orderA) !== canonical(orderB))
    emit(draft("/tools", "source.tool-order-changed", "tools reordered", orderA, orderB));
  diffUnusedDefs(a, b, defs, emit);
}

function diffRemoteDigests(
  a: SourceSnapshot,
  b: SourceSnapshot,
  ta: ToolSpec,
  tb: ToolSpec,
  emit: Emit,
): void {
  const da = a.remoteDigests?.[ta.name] ?? {};
  const db = b.remoteDigests?.[tb.name] ?? {};
  const names = new Set(tb.endpoints.map((e) => e.name));
  for (const endpoint of ta.endpoints
    .map((e) => e.name)
    .filter((n) => names.has(n))
    .sort()) {
    const before = Object.hasOwn(da, endpoint) ? da[endpoint] : undefined;
    const after = Object.hasOwn(db, endpoint) ? db[endpoint] : undefined;
    if (before === after) continue;
    emit({
      ...draft(
        `/endpoints${pointerOf(endpoint)}/remoteDigest`,
        "mcp.remote-definition-changed",
        "the MCP server lists a different definition (description, annotations or schema text reach the model); review it",
        before,
        after,
      ),
      endpoint,
    });
  }
}

function diffUnusedDefs(a: SourceSnapshot, b: SourceSnapshot, defs: DefsPair, emit: Emit): void {
  const contracts = (tools: readonly ToolSpec[]): unknown[] =>
    tools.flatMap((t) => t.endpoints.map(({ metadata: _m, ...contract }) => contract));
  const used = new Set([
    ...defClosure(a.defs, contracts(a.tools)),
    ...defClosure(b.defs, contracts(b.tools)),
  ]);
  for (const name of [...new Set([...Object.keys(a.defs), ...Object.keys(b.defs)])].sort()) {
    if (used.has(name)) continue;
    const before = Object.hasOwn(a.defs, name) ? a.defs[name] : undefined;
    const after = Object.hasOwn(b.defs, name) ? b.defs[name] : undefined;
    if (defs.same(before, after)) continue;
    emit(
      draft(
        `/defs${pointerOf(name)}`,
        "source.unused-definition-changed",
        `shared definition "${name}" changed, but no endpoint uses it`,
        before,
        after,
      ),
    );
  }
}

export function diffLock(
  a: Readonly<Record<string, SourceSnapshot>>,
  b: Readonly<Record<string, SourceSnapshot>>,
  emit: Emit,
): void {
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const prefix = `/sources${pointerOf(name)}`;
    const before = Object.hasOwn(a, name) ? a[name] : undefined;
    const after = Object.hasOwn(b, name) ? b[name] : undefined;
    if (after === undefined) {
      emit({
        ...draft(
          prefix,
          "source.removed",
          `source "${name}" removed: calls to its tools are refused`,
          toolSummary(before!.tools).summary,
        ),
        source: name,
      });
    } else if (before === undefined) {
      const { summary, notReadOnly } = toolSummary(after.tools);
      emit({
        ...(notReadOnly.length === 0
          ? draft(
              prefix,
              "source.added",
              `new ${after.kind} source "${name}" (read-only endpoints only)`,
              undefined,
              summary,
            )
          : draft(
              prefix,
              "source.added-not-read-only",
              `new ${after.kind} source "${name}" with endpoints that are not read-only: ${listSome(notReadOnly)}`,
              undefined,
              summary,
            )),
        source: name,
      });
    } else {
      diffSource(before, after, scoped(emit, prefix, { source: name }));
    }
  }
}
