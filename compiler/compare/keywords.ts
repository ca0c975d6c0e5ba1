/**
 * JSON Schema 2020-12 annotation keywords (Validation §9 Meta-Data, plus OpenAPI `example`/`xml`),
 * `default`, `type` (with OpenAPI 3.0 `nullable`) and `enum` (Validation §6.1). Each handler
 * classifies one changed keyword for the side the schema constrains.
 */
import type { JsonObject } from "schemarouter/internal";
import {
  canonical,
  emitFixed,
  emitSide,
  emitUnknown,
  isJsonArray,
  type KeywordEntry,
  type KeywordHandler,
  show,
} from "./context.js";
import { pointerOf } from "./report.js";

export const ANNOTATION_KEYWORDS: readonly string[] = [
  "$comment",
  "deprecated",
  "description",
  "example",
  "examples",
  "externalDocs",
  "readOnly",
  "title",
  "writeOnly",
  "xml",
];

const annotation: KeywordHandler = (a, b, pointer, ctx) => {
  for (const key of ANNOTATION_KEYWORDS) {
    if (canonical(a[key]) === canonical(b[key])) continue;
    emitFixed(
      ctx,
      pointer + pointerOf(key),
      ctx.mcp ? "schema.annotation-changed.mcp" : "schema.annotation-changed",
      ctx.mcp
        ? `schema annotation "${key}" changed; MCP schemas reach the model, review the new text`
        : `schema annotation "${key}" changed (descriptive only)`,
      a[key],
      b[key],
    );
  }
};

const defaultValue: KeywordHandler = (a, b, pointer, ctx) => {
  emitSide(
    ctx,
    pointer + "/default",
    "default-changed",
    `default changed from ${show(a.default)} to ${show(b.default)}`,
    a.default,
    b.default,
  );
};

const PRIMITIVE_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

/** The JSON types a schema allows (OpenAPI 3.0 `nullable` adds null); undefined = any; null = invalid. */
function typeSet(schema: JsonObject): Set<string> | undefined | null {
  const type = schema.type;
  let set: Set<string> | undefined;
  if (type === undefined) set = undefined;
  else if (typeof type === "string") set = new Set([type]);
  else if (isJsonArray(type) && type.every((t) => typeof t === "string")) set = new Set(type as string[]);
  else return null;
  if (set !== undefined && [...set].some((t) => !PRIMITIVE_TYPES.includes(t))) return null;
  if (set !== undefined && schema.nullable === true) set.add("null");
  return set;
}

/** Types of `inner` not allowed by `outer` (integer is allowed by number). */
function uncovered(outer: Set<string> | undefined, inner: Set<string> | undefined): string[] {
  if (outer === undefined) return [];
  const innerTypes = inner ?? new Set(PRIMITIVE_TYPES);
  return [...innerTypes].filter((t) => !outer.has(t) && !(t === "integer" && outer.has("number"))).sort();
}

const type: KeywordHandler = (a, b, pointer, ctx) => {
  const ta = typeSet(a);
  const tb = typeSet(b);
  const onlyNullable = canonical(a.type) === canonical(b.type);
  const where = pointer + (onlyNullable ? "/nullable" : "/type");
  const before = onlyNullable ? a.nullable : a.type;
  const after = onlyNullable ? b.nullable : b.type;
  if (ta === null || tb === null) {
    emitUnknown(
      ctx,
      where,
      `type keyword changed to a value this rule version does not understand`,
      before,
      after,
    );
    return;
  }
  const added = uncovered(ta, tb);
  const removed = uncovered(tb, ta);
  const from = `${show(before)} to ${show(after)}`;
  if (added.length === 0 && removed.length === 0) return; // equivalent spelling, e.g. "string" vs ["string"]
  if (removed.length === 0) {
    const nullOnly = added.length === 1 && added[0] === "null";
    emitSide(
      ctx,
      where,
      nullOnly ? "type.nullable-added" : "type.widened",
      `type widened from ${from}`,
      before,
      after,
    );
  } else if (added.length === 0) {
    const nullOnly = removed.length === 1 && removed[0] === "null";
    emitSide(
      ctx,
      where,
      nullOnly ? "type.nullable-removed" : "type.narrowed",
      `type narrowed from ${from}`,
      before,
      after,
    );
  } else {
    emitSide(ctx, where, "type.changed", `type changed from ${from}`, before, after);
  }
};

const enumeration: KeywordHandler = (a, b, pointer, ctx) => {
  const where = pointer + "/enum";
  const ea = a.enum;
  const eb = b.enum;
  if ((ea !== undefined && !isJsonArray(ea)) || (eb !== undefined && !isJsonArray(eb))) {
    emitUnknown(ctx, where, "enum is not an array", ea, eb);
    return;
  }
  if (ea === undefined) {
    emitSide(ctx, where, "enum.added", `values restricted to ${show(eb)}`, undefined, eb);
    return;
  }
  if (eb === undefined) {
    emitSide(ctx, where, "enum.removed", `enumeration ${show(ea)} removed`, ea, undefined);
    return;
  }
  const keysA = new Set(ea.map(canonical));
  const keysB = new Set(eb.map(canonical));
  const added = eb.filter((v) => !keysA.has(canonical(v)));
  const removed = ea.filter((v) => !keysB.has(canonical(v)));
  if (added.length > 0) {
    emitSide(ctx, where, "enum.value-added", `enumeration value(s) ${show(added)} added`, undefined, added);
  }
  if (removed.length > 0) {
    emitSide(
      ctx,
      where,
      "enum.value-removed",
      `enumeration value(s) ${show(removed)} removed`,
      removed,
      undefined,
    );
  }
};

export const KEYWORD_ENTRIES: readonly KeywordEntry[] = [
  { keys: ANNOTATION_KEYWORDS, fn: annotation },
  { keys: ["default"], fn: defaultValue },
  { keys: ["type", "nullable"], fn: type },
  { keys: ["enum"], fn: enumeration },
];
