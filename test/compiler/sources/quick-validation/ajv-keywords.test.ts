/**
 * The example check's quick path classifies keywords by how the runtime's ajv treats them
 * (compiler/sources/quick-validation/ajv-keywords.ts): the lists must be exactly the keywords that
 * ajv instance knows, so a keyword an ajv upgrade adds is never silently ignored by the quick path.
 */
import { createAjv } from "schemarouter/internal";
import { describe, expect, it } from "vitest";
import {
  AJV_RULE_KEYWORDS,
  AJV_SILENT_KEYWORDS,
  AJV_TYPED_GROUPS,
  EVALUATED,
  IGNORED,
} from "../../../../compiler/sources/quick-validation/ajv-keywords.js";

describe("ajv keyword lists", () => {
  const ajv = createAjv({ inlineRefs: false });
  const rules = Object.keys(ajv.RULES.all).sort();
  const known = Object.keys(ajv.RULES.keywords).sort();

  it("lists every keyword ajv evaluates", () => {
    expect([...AJV_RULE_KEYWORDS].sort()).toEqual(rules);
  });

  it("lists every keyword ajv knows without evaluating it", () => {
    expect([...AJV_SILENT_KEYWORDS].sort()).toEqual(known.filter((keyword) => !rules.includes(keyword)));
  });

  it("lists ajv's typed rule groups in its order, each with its keywords", () => {
    const groups = ajv.RULES.rules
      .filter((group) => group.type !== undefined)
      .map((group) => [group.type, group.rules.map((rule) => rule.keyword)]);
    expect(groups).toEqual(Object.entries(AJV_TYPED_GROUPS));
    expect(ajv.RULES.post.rules).toEqual([]);
  });

  it("evaluates or ignores only keywords ajv knows", () => {
    for (const keyword of [...EVALUATED, ...IGNORED]) expect(known).toContain(keyword);
    // An identifier changes what `$ref` resolves to, and `$async` what validation returns.
    for (const keyword of ["$id", "$anchor", "$schema", "$async", "nullable", "$dynamicRef"]) {
      expect(EVALUATED.has(keyword) || IGNORED.has(keyword)).toBe(false);
    }
  });
});
