/**
 * JSON Schema 2020-12 logic applicators (Core §10.2.1: allOf, anyOf, oneOf). Branches are matched by
 * their text; a lone changed branch is compared in place; anything else is a restructuring that
 * cannot be proved safe. oneOf is not monotone, so nothing inside it is provably compatible.
 */
import {
  canonical,
  emitSide,
  emitUnknown,
  isJsonArray,
  type KeywordEntry,
  type KeywordHandler,
  type Recurse,
} from "./context.js";

const BRANCH_RULES = {
  allOf: ["all-of.branch-added", "all-of.branch-removed"],
  anyOf: ["union.branch-added", "union.branch-removed"],
  oneOf: ["one-of.branch-added", "one-of.branch-removed"],
} as const;

function branches(key: "allOf" | "anyOf" | "oneOf", compareSchema: Recurse): KeywordHandler {
  return (a, b, pointer, ctx) => {
    const where = pointer + "/" + key;
    let before = a[key];
    let after = b[key];
    if (key !== "allOf" && (before === undefined || after === undefined)) {
      // anyOf/oneOf as a whole is a constraint (an absent allOf is just an empty one).
      if (before === undefined) emitSide(ctx, where, "constraint.added", `${key} added`, undefined, after);
      else emitSide(ctx, where, "constraint.removed", `${key} removed`, before, undefined);
      return;
    }
    before ??= [];
    after ??= [];
    if (!isJsonArray(before) || !isJsonArray(after)) {
      emitUnknown(ctx, where, `${key} is not an array`, before, after);
      return;
    }
    const branchCtx = key === "oneOf" ? { ...ctx, nonMonotone: true } : ctx;
    const [added, removed] = BRANCH_RULES[key];
    const free = new Set(before.keys());
    const unmatched: number[] = [];
    after.forEach((branch, j) => {
      const i = [...free].find((index) => canonical(before[index]) === canonical(branch));
      if (i === undefined) {
        unmatched.push(j);
        return;
      }
      free.delete(i);
      compareSchema(before[i], branch, `${where}/${j}`, branchCtx); // same text, maybe changed $defs
    });
    const left = [...free];
    if (left.length === 0) {
      for (const j of unmatched)
        emitSide(ctx, `${where}/${j}`, added, `${key} branch added`, undefined, after[j]);
    } else if (unmatched.length === 0) {
      for (const i of left)
        emitSide(ctx, `${where}/${i}`, removed, `${key} branch removed`, before[i], undefined);
    } else if (
      left.length === unmatched.length &&
      (left.length === 1 || left.every((i, n) => i === unmatched[n]))
    ) {
      left.forEach((i, n) => {
        const j = unmatched[n]!;
        compareSchema(before[i], after[j], `${where}/${j}`, branchCtx);
      });
    } else {
      emitUnknown(ctx, where, `${key} branches were restructured; cannot prove it safe`, before, after);
    }
  };
}

export function branchEntries(compareSchema: Recurse): readonly KeywordEntry[] {
  return (["allOf", "anyOf", "oneOf"] as const).map((key) => ({
    keys: [key],
    fn: branches(key, compareSchema),
  }));
}
