/**
 * Directional JSON Schema 2020-12 comparison (Core §8.2.3 `$ref`, §10 applicators): walks both
 * schemas, resolves `$ref`s through each side's `$defs` with a recursion guard, and classifies every
 * changed keyword for the request or the response side. Anything it cannot prove safe is breaking.
 */
import type { JsonObject, JsonValue } from "schemarouter/internal";
import { applicatorEntries } from "./applicators.js";
import { branchEntries } from "./branches.js";
import { CONSTRAINT_ENTRIES } from "./constraints.js";
import {
  emitSide,
  emitUnknown,
  isJsonObject,
  type KeywordEntry,
  type SchemaContext,
  show,
  spend,
} from "./context.js";
import { type Defs, defName, lookupDef } from "./defs.js";
import { ANNOTATION_KEYWORDS, KEYWORD_ENTRIES } from "./keywords.js";
import { pointerOf } from "./report.js";

/** Compares two schemas found at `pointer` and emits every classified change. */
export function compareSchema(before: unknown, after: unknown, pointer: string, ctx: SchemaContext): void {
  if (ctx.defs.same(before, after)) return;
  if (!spend(ctx, pointer)) return;
  if (!isSchema(before) || !isSchema(after)) {
    emitUnknown(ctx, pointer, "a schema is neither an object nor a boolean", before, after);
    return;
  }
  if (after === false) {
    emitSide(
      ctx,
      pointer,
      "schema.narrowed",
      "schema became false: no value is valid any more",
      before,
      after,
    );
    return;
  }
  if (before === false) {
    emitSide(ctx, pointer, "schema.widened", "schema was false: values are valid now", before, after);
    return;
  }
  const a: JsonObject = before === true ? {} : before;
  const b: JsonObject = after === true ? {} : after;
  const refA = typeof a.$ref === "string" ? a.$ref : undefined;
  const refB = typeof b.$ref === "string" ? b.$ref : undefined;
  if (refA !== undefined || refB !== undefined) compareRefs(a, b, refA, refB, pointer, ctx);
  else compareKeywords(a, b, pointer, ctx);
}

function isSchema(value: unknown): value is JsonObject | boolean {
  return typeof value === "boolean" || isJsonObject(value);
}

type Expanded =
  | { readonly kind: "plain"; readonly schema: JsonObject }
  | { readonly kind: "unresolved"; readonly siblings: JsonObject }
  | {
      readonly kind: "ref";
      readonly target: JsonValue;
      readonly siblings: JsonObject;
      readonly merged?: JsonValue;
    };

function expand(schema: JsonObject, ref: string | undefined, defs: Defs): Expanded {
  if (ref === undefined) return { kind: "plain", schema };
  const { $ref: _ref, ...siblings } = schema;
  const name = defName(ref);
  const target = name === undefined ? undefined : lookupDef(defs, name);
  if (target === undefined) return { kind: "unresolved", siblings };
  const merged = merge(target, siblings);
  return merged === undefined ? { kind: "ref", target, siblings } : { kind: "ref", target, siblings, merged };
}

/** Keywords whose meaning depends on each other: never merged across a `$ref` boundary. */
const GROUPS: readonly (readonly string[])[] = [
  ["properties", "patternProperties", "additionalProperties", "unevaluatedProperties"],
  ["items", "prefixItems", "additionalItems", "unevaluatedItems"],
  ["contains", "minContains", "maxContains"],
  ["if", "then", "else"],
];

/** `$ref` target plus sibling keywords as one schema, when that is exact (disjoint keywords). */
function merge(target: JsonValue, siblings: JsonObject): JsonValue | undefined {
  const keys = Object.keys(siblings);
  if (keys.length === 0) return target;
  if (target === true) return siblings;
  if (target === false) return false;
  if (!isJsonObject(target)) return undefined;
  const constraining = keys.filter((k) => !ANNOTATION_KEYWORDS.includes(k));
  if (constraining.some((k) => Object.hasOwn(target, k))) return undefined;
  for (const group of GROUPS) {
    if (constraining.some((k) => group.includes(k)) && Object.keys(target).some((k) => group.includes(k)))
      return undefined;
  }
  return { ...target, ...siblings };
}

function compareRefs(
  a: JsonObject,
  b: JsonObject,
  refA: string | undefined,
  refB: string | undefined,
  pointer: string,
  ctx: SchemaContext,
): void {
  const key = `${refA ?? ""} -> ${refB ?? ""}`;
  // Recursion: this pair is already being compared further up, where its changes are reported.
  if (ctx.stack.includes(key)) return;
  const name =
    (refB === undefined ? undefined : defName(refB)) ?? (refA === undefined ? undefined : defName(refA));
  const inner: SchemaContext = {
    ...ctx,
    stack: [...ctx.stack, key],
    ...(name !== undefined ? { definition: name } : {}),
  };
  const ea = expand(a, refA, ctx.defs.before);
  const eb = expand(b, refB, ctx.defs.after);
  if (ea.kind === "unresolved" || eb.kind === "unresolved") {
    if (ea.kind === "unresolved" && eb.kind === "unresolved" && refA === refB) {
      compareKeywords(ea.siblings, eb.siblings, pointer, ctx);
    } else {
      emitUnknown(
        ctx,
        pointer + "/$ref",
        `$ref changed from ${show(refA)} to ${show(refB)} and does not resolve`,
        refA,
        refB,
      );
    }
    return;
  }
  const ma = ea.kind === "plain" ? ea.schema : ea.merged;
  const mb = eb.kind === "plain" ? eb.schema : eb.merged;
  if (ma !== undefined && mb !== undefined) {
    compareSchema(ma, mb, pointer, inner);
  } else if (ea.kind === "ref" && eb.kind === "ref") {
    compareSchema(ea.target, eb.target, pointer, inner);
    compareKeywords(ea.siblings, eb.siblings, pointer, ctx);
  } else {
    emitUnknown(
      ctx,
      pointer,
      "a $ref with constraining sibling keywords was restructured; cannot prove it safe",
    );
  }
}

const ENTRIES: readonly KeywordEntry[] = [
  ...KEYWORD_ENTRIES,
  ...CONSTRAINT_ENTRIES,
  ...applicatorEntries(compareSchema),
  ...branchEntries(compareSchema),
];

const HANDLERS: ReadonlyMap<string, KeywordEntry> = new Map(
  ENTRIES.flatMap((entry) => entry.keys.map((k) => [k, entry] as const)),
);

/** Compares two object schemas without a top-level `$ref`, one keyword group at a time. */
export function compareKeywords(a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext): void {
  const done = new Set<string>();
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (done.has(key)) continue;
    const entry = HANDLERS.get(key);
    if (entry === undefined) {
      done.add(key);
      if (!ctx.defs.same(a[key], b[key])) {
        emitUnknown(
          ctx,
          pointer + pointerOf(key),
          `keyword "${key}" changed; this rule version cannot prove it safe`,
          a[key],
          b[key],
        );
      }
      continue;
    }
    for (const k of entry.keys) done.add(k);
    if (entry.keys.every((k) => ctx.defs.same(a[k], b[k]))) continue;
    entry.fn(a, b, pointer, ctx);
  }
}
