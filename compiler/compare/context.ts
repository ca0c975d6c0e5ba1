/**
 * The state of one schema comparison: which side (request or response) the schema constrains, the
 * definitions of both sides, the `$ref` pairs being expanded (recursion guard), and a step budget.
 */

import type { JsonObject, JsonValue } from "schemarouter/internal";
import { canonicalJson } from "schemarouter/internal";
import type { DefsPair } from "./defs.js";
import { draft, type Emit } from "./report.js";
import type { Side } from "./rule-table.js";
import { RULES, type RuleId, type SideRuleSuffix, sideRule } from "./rules.js";

export type { Side };

/** Schema nodes one endpoint comparison may visit before it gives up (deterministically). */
export const STEP_BUDGET = 100_000;

export interface Budget {
  remaining: number;
  exhausted: boolean;
}

export interface SchemaContext {
  readonly side: Side;
  readonly defs: DefsPair;
  readonly emit: Emit;
  /** MCP contracts: descriptions and annotations reach the model, so their changes need review. */
  readonly mcp: boolean;
  /** Inside oneOf/not/if: a change that looks compatible cannot be proved so. */
  readonly nonMonotone: boolean;
  /** `$ref` pairs currently being expanded, outermost first. */
  readonly stack: readonly string[];
  readonly definition?: string;
  readonly budget: Budget;
}

export function newBudget(): Budget {
  return { remaining: STEP_BUDGET, exhausted: false };
}

/** Spends one step; false (after one report) once the budget is exhausted. */
export function spend(ctx: SchemaContext, pointer: string): boolean {
  if (ctx.budget.exhausted) return false;
  if (ctx.budget.remaining <= 0) {
    ctx.budget.exhausted = true;
    emitFixed(
      ctx,
      pointer,
      "schema.comparison-budget-exceeded",
      `schemas too large to compare fully (more than ${STEP_BUDGET} differing nodes); review this change by hand`,
    );
    return false;
  }
  ctx.budget.remaining -= 1;
  return true;
}

export function emitFixed(
  ctx: SchemaContext,
  pointer: string,
  rule: RuleId,
  message: string,
  before?: unknown,
  after?: unknown,
): void {
  ctx.emit(draft(pointer, rule, message, before, after, ctx.definition));
}

/** Emits a side rule; inside a non-monotone construct a compatible-looking change becomes breaking. */
export function emitSide(
  ctx: SchemaContext,
  pointer: string,
  suffix: SideRuleSuffix,
  message: string,
  before?: unknown,
  after?: unknown,
): void {
  const rule = sideRule(ctx.side, suffix);
  if (ctx.nonMonotone && RULES[rule].category === "compatible") {
    emitFixed(
      ctx,
      pointer,
      "schema.non-monotone-change",
      `${message} (inside oneOf/not/if, so it cannot be proved compatible)`,
      before,
      after,
    );
    return;
  }
  emitFixed(ctx, pointer, rule, message, before, after);
}

export function emitUnknown(
  ctx: SchemaContext,
  pointer: string,
  message: string,
  before?: unknown,
  after?: unknown,
): void {
  emitFixed(ctx, pointer, "schema.unknown-change", message, before, after);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function isJsonArray(value: unknown): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** Short rendering of a value for messages. */
export function show(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Canonical JSON of a value, with `undefined` (absent) distinct from every JSON value. */
export function canonical(value: unknown): string {
  return value === undefined ? "" : canonicalJson(value);
}

/** Classifies one changed keyword group of two object schemas. */
export type KeywordHandler = (a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext) => void;

export interface KeywordEntry {
  /** The keywords the handler covers; it runs once when any of them differs. */
  readonly keys: readonly string[];
  readonly fn: KeywordHandler;
}

/** The schema comparison itself, passed to applicator handlers (which recurse into subschemas). */
export type Recurse = (before: unknown, after: unknown, pointer: string, ctx: SchemaContext) => void;
