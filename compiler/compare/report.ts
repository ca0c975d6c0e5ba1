/**
 * The comparison report: one Change per classified difference, collected through scoped emitters and
 * sorted deterministically. Diagnostic only: a report carries no fingerprint and grants nothing.
 */
import { canonicalJson, encodePointerToken, sha256 } from "schemarouter/internal";
import {
  type ChangeCategory,
  type ChangeSeverity,
  RULES,
  RULES_VERSION,
  type RuleId,
  worst,
} from "./rules.js";

/** One classified difference between two contracts. */
export interface Change {
  /** JSON pointer into the name-keyed contract, e.g. `/tools/github/endpoints/repos~1get/parameters/owner`. */
  readonly pointer: string;
  readonly category: ChangeSeverity;
  /** Stable rule id (see RULES); the rule decides the category. */
  readonly rule: RuleId;
  /** The value before (small values only; large ones are summarized by digest). Absent: did not exist. */
  readonly before?: unknown;
  /** The value after. Absent: no longer exists. */
  readonly after?: unknown;
  /** One-line human explanation. */
  readonly message: string;
  readonly source?: string;
  readonly tool?: string;
  readonly endpoint?: string;
  /** Innermost shared definition (`$defs` entry) the change sits in, when reached through `$ref`. */
  readonly definition?: string;
}

/**
 * The classification of every change between two contracts, and of the whole.
 *
 * Diagnostic only: the report never carries or updates a fingerprint, a pin or a binding, so nothing
 * in it can make a ToolCall or an invoker bound to an older contract runnable. Calls and bindings must
 * still be re-planned and re-bound against the current fingerprints.
 */
export interface ComparisonReport {
  readonly rulesVersion: number;
  /** The worst category of any change; `identical` exactly when there is no change. */
  readonly category: ChangeCategory;
  /** Sorted by pointer, then rule. */
  readonly changes: readonly Change[];
}

/** A change before its category is looked up and its scope labels are attached. */
export interface Draft {
  readonly pointer: string;
  readonly rule: RuleId;
  readonly message: string;
  readonly before?: unknown;
  readonly after?: unknown;
  readonly definition?: string;
  readonly source?: string;
  readonly tool?: string;
  readonly endpoint?: string;
}

export type Emit = (draft: Draft) => void;

export interface Scope {
  readonly source?: string;
  readonly tool?: string;
  readonly endpoint?: string;
}

/** An emitter that prefixes pointers and fills scope labels the inner emitter did not set. */
export function scoped(emit: Emit, prefix: string, scope: Scope): Emit {
  return (draft) => {
    const next: { -readonly [K in keyof Draft]: Draft[K] } = { ...draft, pointer: prefix + draft.pointer };
    if (scope.source !== undefined && next.source === undefined) next.source = scope.source;
    if (scope.tool !== undefined && next.tool === undefined) next.tool = scope.tool;
    if (scope.endpoint !== undefined && next.endpoint === undefined) next.endpoint = scope.endpoint;
    emit(next);
  };
}

/** `/a/b` from segments, each encoded as a JSON pointer token. */
export function pointerOf(...segments: readonly string[]): string {
  return segments.map((segment) => `/${encodePointerToken(segment)}`).join("");
}

const SMALL_LIMIT = 200;

/** A detached copy of a small JSON value, or a digest summary of a large one. */
export function small(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = canonicalJson(value);
  if (text.length <= SMALL_LIMIT) return JSON.parse(text) as unknown;
  return `<${Array.isArray(value) ? "array" : typeof value} of ${text.length} bytes, ${sha256(text).slice(0, 19)}…>`;
}

/** A draft with `before`/`after` set only when defined (exactOptionalPropertyTypes). */
export function draft(
  pointer: string,
  rule: RuleId,
  message: string,
  before?: unknown,
  after?: unknown,
  definition?: string,
): Draft {
  const out: { -readonly [K in keyof Draft]: Draft[K] } = { pointer, rule, message };
  const b = small(before);
  const a = small(after);
  if (b !== undefined) out.before = b;
  if (a !== undefined) out.after = a;
  if (definition !== undefined) out.definition = definition;
  return out;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function order(a: Change, b: Change): number {
  return (
    compareStrings(a.pointer, b.pointer) ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.message, b.message) ||
    compareStrings(canonicalJson(a.before ?? null), canonicalJson(b.before ?? null)) ||
    compareStrings(canonicalJson(a.after ?? null), canonicalJson(b.after ?? null))
  );
}

/** Looks up each draft's category, sorts, and classifies the whole. */
export function buildReport(drafts: readonly Draft[]): ComparisonReport {
  const changes: Change[] = drafts.map((d) => {
    const change: { -readonly [K in keyof Change]: Change[K] } = {
      pointer: d.pointer,
      category: RULES[d.rule].category,
      rule: d.rule,
      message: d.message,
    };
    if (d.before !== undefined) change.before = d.before;
    if (d.after !== undefined) change.after = d.after;
    if (d.source !== undefined) change.source = d.source;
    if (d.tool !== undefined) change.tool = d.tool;
    if (d.endpoint !== undefined) change.endpoint = d.endpoint;
    if (d.definition !== undefined) change.definition = d.definition;
    return change;
  });
  changes.sort(order);
  return { rulesVersion: RULES_VERSION, category: worst(changes.map((c) => c.category)), changes };
}

/** Merges reports produced by the same rule version into one, re-sorted. */
export function mergeReports(reports: readonly ComparisonReport[]): ComparisonReport {
  return buildReport(reports.flatMap((report) => report.changes));
}
