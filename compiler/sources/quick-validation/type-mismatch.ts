/**
 * The one refusal the example check's quick path words itself (docs/sources/openapi-overlays.md,
 * "Examples checked at compile"): an example whose JSON type is not the single `type` of the schema
 * its response schema is (directly or through `$ref`s alone). ajv, validating it without `allErrors`,
 * reports that type error first and stops, so its first error is known without generating code:
 * - the type check comes before every keyword when the schema has no keyword of its type's rule group,
 *   and otherwise in that group's `else`, after the keywords of no group (none allowed here) and of the
 *   example's own type's group (none allowed here either);
 * - a `$ref` alone hands over the referenced schema's errors, first first, at the same instance path.
 * Anything else (a `nullable`, a type list, composition, a mismatch deeper down) is left to ajv.
 */
import type { JsonSchema } from "schemarouter/internal";
import { AJV_RULE_KEYWORDS, AJV_TYPED_GROUPS } from "./ajv-keywords.js";
import { hasType, isObject, referencedDefinition } from "./subset.js";

type Group = keyof typeof AJV_TYPED_GROUPS;

const RULES: ReadonlySet<string> = new Set(AJV_RULE_KEYWORDS);
const GROUPS = Object.entries(AJV_TYPED_GROUPS).map(
  ([type, keywords]) => [type as Group, new Set(keywords)] as const,
);
const GROUPED: ReadonlySet<string> = new Set(Object.values(AJV_TYPED_GROUPS).flat());
/** Keywords of no group that never report an error (`then`/`else` only take part with `if`). */
const SILENT_UNGROUPED: ReadonlySet<string> = new Set(["type", "$comment", "then", "else"]);
/** `$ref`s followed before giving up (a cycle of `$ref`-only definitions). */
const MAX_REFS = 32;

/**
 * The message ajv's first error gives (as toViolation words it) when `value` fails a covered schema by
 * its root type, e.g. "(root) must be object"; undefined when that is not certain.
 */
export function rootTypeMismatch(
  schema: JsonSchema,
  value: unknown,
  defs: Readonly<Record<string, JsonSchema>>,
): string | undefined {
  let node: unknown = schema;
  for (let hops = 0; isObject(node) && onlyRef(node); hops++) {
    if (hops >= MAX_REFS) return undefined;
    node = defs[referencedDefinition(node.$ref as string)];
  }
  if (!isObject(node) || typeof node.type !== "string" || node.nullable !== undefined) return undefined;
  const type = node.type;
  if (hasType(value, type)) return undefined;
  const own = GROUPS.find(([group]) => group === type)?.[1];
  const rules = Object.keys(node).filter((key) => node[key] !== undefined && RULES.has(key));
  const checkedFirst = own === undefined || !rules.some((key) => own.has(key));
  if (!checkedFirst) {
    const valueGroup = groupOf(value);
    const before = valueGroup === undefined ? undefined : GROUPS.find(([group]) => group === valueGroup)?.[1];
    for (const key of rules) {
      if (!GROUPED.has(key) && !SILENT_UNGROUPED.has(key)) return undefined;
      if (before?.has(key) === true) return undefined;
    }
  }
  return `(root) must be ${type}`;
}

/** A schema whose only keyword ajv runs is `$ref` (ajv then runs the reference alone). */
function onlyRef(node: Record<string, unknown>): boolean {
  if (typeof node.$ref !== "string") return false;
  for (const key in node) if (key !== "$ref" && RULES.has(key) && node[key] !== undefined) return false;
  return true;
}

/** The typed rule group ajv runs for `data` (booleans and null have none). */
function groupOf(data: unknown): Group | undefined {
  if (typeof data === "number") return "number";
  if (typeof data === "string") return "string";
  if (Array.isArray(data)) return "array";
  return isObject(data) ? "object" : undefined;
}
