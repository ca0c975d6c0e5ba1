/**
 * JSON Schema 2020-12 validation keywords that restrict values by their presence or their bound
 * (Validation §6.2-6.5: const, pattern, format, content*, minimum…maxContains, multipleOf,
 * uniqueItems, dependentRequired): added or tightened restricts, removed or loosened relaxes.
 */
import {
  canonical,
  emitSide,
  emitUnknown,
  isJsonArray,
  isJsonObject,
  type KeywordEntry,
  type KeywordHandler,
  type SchemaContext,
  show,
} from "./context.js";
import { pointerOf } from "./report.js";

const PRESENCE_KEYWORDS = ["const", "pattern", "format", "contentMediaType", "contentEncoding"];
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
const BOUND_KEYWORDS: readonly string[] = [...LOWER_BOUNDS, ...UPPER_BOUNDS];

/** Keywords that restrict values just by being present: added = tighter, removed = looser. */
const presence: KeywordHandler = (a, b, pointer, ctx) => {
  for (const key of PRESENCE_KEYWORDS) {
    if (canonical(a[key]) === canonical(b[key])) continue;
    presenceChange(ctx, pointer + pointerOf(key), key, a[key], b[key]);
  }
};

function presenceChange(
  ctx: SchemaContext,
  where: string,
  key: string,
  before: unknown,
  after: unknown,
): void {
  if (before === undefined)
    emitSide(ctx, where, "constraint.added", `${key} ${show(after)} added`, before, after);
  else if (after === undefined)
    emitSide(ctx, where, "constraint.removed", `${key} ${show(before)} removed`, before, after);
  else
    emitSide(
      ctx,
      where,
      "constraint.changed",
      `${key} changed from ${show(before)} to ${show(after)}`,
      before,
      after,
    );
}

const bounds: KeywordHandler = (a, b, pointer, ctx) => {
  for (const key of BOUND_KEYWORDS) {
    if (canonical(a[key]) === canonical(b[key])) continue;
    bound(ctx, pointer + pointerOf(key), key, LOWER_BOUNDS.includes(key), a[key], b[key]);
  }
};

function bound(
  ctx: SchemaContext,
  where: string,
  key: string,
  lower: boolean,
  before: unknown,
  after: unknown,
): void {
  // OpenAPI 3.0 boolean exclusiveMinimum/exclusiveMaximum: `true` makes the bound exclusive.
  const present = (v: unknown): boolean => v !== undefined && v !== false;
  if (typeof before === "number" && typeof after === "number") {
    const tighter = lower ? after > before : after < before;
    const verb = after > before ? "raised" : "lowered";
    emitSide(
      ctx,
      where,
      tighter ? "constraint.tightened" : "constraint.loosened",
      `${key} ${verb} from ${before} to ${after}`,
      before,
      after,
    );
  } else if (!present(before) && (typeof after === "number" || after === true)) {
    emitSide(ctx, where, "constraint.added", `${key} ${show(after)} added`, before, after);
  } else if ((typeof before === "number" || before === true) && !present(after)) {
    emitSide(ctx, where, "constraint.removed", `${key} ${show(before)} removed`, before, after);
  } else if (!present(before) && !present(after)) {
    return; // false vs absent: the same
  } else if (typeof before === "boolean" || typeof after === "boolean") {
    emitSide(
      ctx,
      where,
      "constraint.changed",
      `${key} changed from ${show(before)} to ${show(after)}`,
      before,
      after,
    );
  } else {
    emitUnknown(ctx, where, `${key} changed to a value this rule version does not understand`, before, after);
  }
}

const multipleOf: KeywordHandler = (a, b, pointer, ctx) => {
  const before = a.multipleOf;
  const after = b.multipleOf;
  const where = pointer + "/multipleOf";
  if (before === undefined || after === undefined) {
    presenceChange(ctx, where, "multipleOf", before, after);
  } else if (typeof before !== "number" || typeof after !== "number" || before <= 0 || after <= 0) {
    emitUnknown(ctx, where, "multipleOf is not a positive number", before, after);
  } else if (isWholeRatio(after, before)) {
    emitSide(
      ctx,
      where,
      "constraint.tightened",
      `multipleOf changed from ${before} to ${after} (a multiple of it)`,
      before,
      after,
    );
  } else if (isWholeRatio(before, after)) {
    emitSide(
      ctx,
      where,
      "constraint.loosened",
      `multipleOf changed from ${before} to ${after} (a divisor of it)`,
      before,
      after,
    );
  } else {
    emitSide(
      ctx,
      where,
      "constraint.changed",
      `multipleOf changed from ${before} to ${after}`,
      before,
      after,
    );
  }
};

function isWholeRatio(n: number, d: number): boolean {
  const ratio = n / d;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

const uniqueItems: KeywordHandler = (a, b, pointer, ctx) => {
  const before = a.uniqueItems;
  const after = b.uniqueItems;
  const where = pointer + "/uniqueItems";
  if (
    (before !== undefined && typeof before !== "boolean") ||
    (after !== undefined && typeof after !== "boolean")
  ) {
    emitUnknown(ctx, where, "uniqueItems is not a boolean", before, after);
  } else if (after === true && before !== true) {
    emitSide(ctx, where, "constraint.added", "items must now be unique", before, after);
  } else if (before === true && after !== true) {
    emitSide(ctx, where, "constraint.removed", "items no longer need to be unique", before, after);
  }
};

const dependentRequired: KeywordHandler = (a, b, pointer, ctx) => {
  const base = pointer + "/dependentRequired";
  const ma = a.dependentRequired ?? {};
  const mb = b.dependentRequired ?? {};
  if (!isJsonObject(ma) || !isJsonObject(mb)) {
    emitUnknown(ctx, base, "dependentRequired is not an object", a.dependentRequired, b.dependentRequired);
    return;
  }
  for (const key of [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort()) {
    const before = ma[key];
    const after = mb[key];
    const where = base + pointerOf(key);
    if (canonical(before) === canonical(after)) continue;
    if (before === undefined || after === undefined) {
      presenceChange(ctx, where, `dependentRequired "${key}"`, before, after);
      continue;
    }
    if (!isStringArray(before) || !isStringArray(after)) {
      emitUnknown(ctx, where, "dependentRequired entry is not a string array", before, after);
      continue;
    }
    const more = after.filter((n) => !before.includes(n));
    const fewer = before.filter((n) => !after.includes(n));
    if (more.length === 0 && fewer.length === 0) continue;
    const suffix =
      fewer.length === 0
        ? "constraint.tightened"
        : more.length === 0
          ? "constraint.loosened"
          : "constraint.changed";
    emitSide(
      ctx,
      where,
      suffix,
      `properties required with "${key}" changed from ${show(before)} to ${show(after)}`,
      before,
      after,
    );
  }
};

function isStringArray(value: unknown): value is readonly string[] {
  return isJsonArray(value) && value.every((v) => typeof v === "string");
}

export const CONSTRAINT_ENTRIES: readonly KeywordEntry[] = [
  { keys: PRESENCE_KEYWORDS, fn: presence },
  { keys: BOUND_KEYWORDS, fn: bounds },
  { keys: ["multipleOf"], fn: multipleOf },
  { keys: ["uniqueItems"], fn: uniqueItems },
  { keys: ["dependentRequired"], fn: dependentRequired },
];
