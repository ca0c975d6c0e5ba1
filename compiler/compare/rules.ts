/**
 * The versioned classification rules of contract comparison: every rule id, the category it assigns
 * and a one-line summary. Bump RULES_VERSION whenever a rule is added, removed or re-categorized.
 */
import { FIXED_RULES, SIDE_RULES, type Side } from "./rule-table.js";

/** Version of the rule set below; every ComparisonReport says which version produced it. */
export const RULES_VERSION = 1;

export type ChangeCategory = "identical" | "compatible" | "breaking" | "security-review";
/** The category of one change (a change is never `identical`). */
export type ChangeSeverity = Exclude<ChangeCategory, "identical">;

export interface RuleInfo {
  readonly category: ChangeSeverity;
  readonly summary: string;
}

export type SideRuleSuffix = keyof typeof SIDE_RULES;
export type RuleId = keyof typeof FIXED_RULES | `${Side}.${SideRuleSuffix}`;

function buildRules(): Readonly<Record<RuleId, RuleInfo>> {
  const rules: Record<string, RuleInfo> = {};
  for (const [id, [category, summary]] of Object.entries(FIXED_RULES)) {
    rules[id] = Object.freeze({ category, summary });
  }
  for (const [suffix, sides] of Object.entries(SIDE_RULES)) {
    for (const side of ["request", "response"] as const) {
      const [category, summary] = sides[side];
      rules[`${side}.${suffix}`] = Object.freeze({ category, summary });
    }
  }
  const sorted: Record<string, RuleInfo> = {};
  for (const id of Object.keys(rules).sort()) sorted[id] = rules[id]!;
  return Object.freeze(sorted) as Readonly<Record<RuleId, RuleInfo>>;
}

/** Every rule of RULES_VERSION, sorted by id (frozen). */
export const RULES: Readonly<Record<RuleId, RuleInfo>> = buildRules();

export function sideRule(side: Side, suffix: SideRuleSuffix): RuleId {
  return `${side}.${suffix}`;
}

const RANK: Readonly<Record<ChangeCategory, number>> = {
  identical: 0,
  compatible: 1,
  breaking: 2,
  "security-review": 3,
};

/** The most severe category: security-review > breaking > compatible > identical (empty → identical). */
export function worst(categories: Iterable<ChangeCategory>): ChangeCategory {
  let result: ChangeCategory = "identical";
  for (const category of categories) if (RANK[category] > RANK[result]) result = category;
  return result;
}

/** Numeric rank of a category (identical 0 … security-review 3), for `--fail-on` style thresholds. */
export function categoryRank(category: ChangeCategory): number {
  return RANK[category];
}
