/**
 * The example check's quick path (docs/sources/openapi-overlays.md, "Examples checked at compile"):
 * says "valid" for an example only where ajv, compiling the same schema with the runtime's settings,
 * would compile it and accept the example, or words ajv's first error where it is the root's type
 * (type-mismatch.ts). Every other example (another mismatch, a schema outside the subset, a root ajv
 * could refuse to add) is judged by ajv itself, which also words the finding, so the compatibility
 * report is byte-identical either way, and ajv generates code only for the schemas it is asked about. test/compiler/sources/quick-validation/differential.test.ts compares the two.
 */
import type { JsonSchema } from "schemarouter/internal";
import { evaluate } from "./evaluate.js";
import { PatternMatchers, SchemaSubset } from "./subset.js";
import { rootTypeMismatch } from "./type-mismatch.js";

/** Keys by which ajv identifies schemas when the root is added (`addSchema` refuses duplicates). */
const IDENTIFYING_KEYS: ReadonlySet<string> = new Set(["$id", "$anchor", "$dynamicAnchor"]);

export class QuickValidator {
  private readonly subset: SchemaSubset;
  private readonly patterns = new PatternMatchers();
  /** Per response schema: whether the quick path judges it (no identifier, covered by the subset). */
  private readonly judged = new WeakMap<object, boolean>();

  private constructor(private readonly defs: Readonly<Record<string, JsonSchema>>) {
    this.subset = new SchemaSubset(defs, this.patterns);
  }

  /**
   * A quick validator for schemas over `defs`; undefined when a definition carries an identifier (its
   * root is then left to ajv, whose `addSchema` may refuse it).
   */
  static over(defs: Readonly<Record<string, JsonSchema>>): QuickValidator | undefined {
    return Object.values(defs).some(identifies) ? undefined : new QuickValidator(defs);
  }

  /**
   * The message of ajv's first error when it would compile `schema` and refuse `value` by its root
   * type (type-mismatch.ts); undefined means "ask ajv".
   */
  rootTypeMismatch(schema: JsonSchema, value: unknown): string | undefined {
    if (typeof schema === "boolean" || this.judged.get(schema) !== true) return undefined;
    return rootTypeMismatch(schema, value, this.defs);
  }

  /** True only when ajv would compile `schema` and accept `value`; false means "ask ajv". */
  accepts(schema: JsonSchema, value: unknown): boolean {
    if (typeof schema !== "boolean") {
      let judged = this.judged.get(schema);
      if (judged === undefined) {
        judged = !identifies(schema) && this.subset.covers(schema);
        this.judged.set(schema, judged);
      }
      if (!judged) return false;
    }
    return evaluate(schema, value, { defs: this.defs, patterns: this.patterns }) === true;
  }
}

/** Whether a key ajv identifies schemas by appears anywhere in `value` (an over-approximation). Iterative. */
function identifies(value: unknown): boolean {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (const item of current) if (item !== null && typeof item === "object") pending.push(item);
      continue;
    }
    for (const key of Object.keys(current)) {
      if (IDENTIFYING_KEYS.has(key)) return true;
      const item = (current as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") pending.push(item);
    }
  }
  return false;
}
