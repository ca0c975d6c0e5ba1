/**
 * JSON Schema 2020-12 applicators over object and array members (Core §10.3: properties/required,
 * additionalProperties, patternProperties, items/prefixItems, contains, not, if/then/else,
 * dependentSchemas, …). Each handler recurses into subschemas through the comparison it is given.
 */
import type { JsonObject, JsonValue } from "schemarouter/internal";
import {
  emitSide,
  emitUnknown,
  isJsonArray,
  isJsonObject,
  type KeywordEntry,
  type KeywordHandler,
  type Recurse,
  type SchemaContext,
} from "./context.js";
import { pointerOf } from "./report.js";

/** The applicator handlers, recursing through `compareSchema`. */
export function applicatorEntries(compareSchema: Recurse): readonly KeywordEntry[] {
  function requiredSet(schema: JsonObject): Set<string> | undefined {
    const required = schema.required ?? [];
    return isJsonArray(required) && required.every((r) => typeof r === "string")
      ? new Set(required as string[])
      : undefined;
  }

  function properties(a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext): void {
    const pa = a.properties ?? {};
    const pb = b.properties ?? {};
    const ra = requiredSet(a);
    const rb = requiredSet(b);
    if (!isJsonObject(pa) || !isJsonObject(pb) || ra === undefined || rb === undefined) {
      emitUnknown(
        ctx,
        pointer + "/properties",
        "properties or required is malformed",
        a.properties,
        b.properties,
      );
      return;
    }
    const names = [...new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb])].sort();
    const request = ctx.side === "request";
    for (const name of names) {
      const where = `${pointer}/properties${pointerOf(name)}`;
      const inA = Object.hasOwn(pa, name);
      const inB = Object.hasOwn(pb, name);
      if (inA && !inB) {
        const why = request ? "calls that pass it are refused" : "clients reading it break";
        emitSide(ctx, where, "property.removed", `property "${name}" removed: ${why}`, pa[name], undefined);
        continue;
      }
      if (!inA && inB) {
        if (rb.has(name)) {
          const why = request ? "existing callers do not send it" : "the client never relied on it";
          emitSide(
            ctx,
            where,
            "property.required-added",
            `new required property "${name}": ${why}`,
            undefined,
            pb[name],
          );
        } else {
          emitSide(
            ctx,
            where,
            "property.optional-added",
            `new optional property "${name}"`,
            undefined,
            pb[name],
          );
        }
        continue;
      }
      if (inA && inB) compareSchema(pa[name], pb[name], where, ctx);
      if (ra.has(name) !== rb.has(name)) {
        const became = rb.has(name) ? "required" : "optional";
        emitSide(
          ctx,
          where,
          rb.has(name) ? "property.became-required" : "property.became-optional",
          `property "${name}" became ${became}`,
          ra.has(name),
          rb.has(name),
        );
      }
    }
  }

  function additionalProperties(a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext): void {
    const before = a.additionalProperties ?? true;
    const after = b.additionalProperties ?? true;
    const where = pointer + "/additionalProperties";
    if (after === false && before !== false) {
      emitSide(
        ctx,
        where,
        "additional-properties.disallowed",
        "undeclared properties are no longer allowed",
        a.additionalProperties,
        false,
      );
    } else if (before === false && after !== false) {
      emitSide(
        ctx,
        where,
        "additional-properties.allowed",
        "undeclared properties are now allowed",
        false,
        b.additionalProperties,
      );
    } else {
      compareSchema(before, after, where, ctx);
    }
  }

  /** A subschema keyword whose absence means `true` (no constraint). */
  function defaultTrue(key: string): KeywordHandler {
    return (a, b, pointer, ctx) =>
      compareSchema(a[key] ?? true, b[key] ?? true, pointer + pointerOf(key), ctx);
  }

  function items(a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext): void {
    if (isJsonArray(a.items) || isJsonArray(b.items)) {
      // Draft 2019 tuple form: `items` is positional and `additionalItems` applies after it.
      tuple(a.items ?? [], b.items ?? [], pointer + "/items", ctx);
      compareSchema(a.additionalItems ?? true, b.additionalItems ?? true, pointer + "/additionalItems", ctx);
      return;
    }
    compareSchema(a.items ?? true, b.items ?? true, pointer + "/items", ctx);
    compareSchema(a.additionalItems ?? true, b.additionalItems ?? true, pointer + "/additionalItems", ctx);
  }

  function tuple(before: JsonValue, after: JsonValue, pointer: string, ctx: SchemaContext): void {
    if (!isJsonArray(before) || !isJsonArray(after) || before.length !== after.length) {
      emitUnknown(
        ctx,
        pointer,
        "positional item schemas were added, removed or reshaped; cannot prove it safe",
        before,
        after,
      );
      return;
    }
    before.forEach((item, index) => {
      compareSchema(item, after[index], `${pointer}/${index}`, ctx);
    });
  }

  /** A subschema keyword whose presence is a constraint (contains, contentSchema, not). */
  function optional(key: string, nonMonotone: boolean): KeywordHandler {
    return (a, b, pointer, ctx) => {
      const where = pointer + pointerOf(key);
      const before = a[key];
      const after = b[key];
      if (before === undefined) emitSide(ctx, where, "constraint.added", `${key} added`, undefined, after);
      else if (after === undefined)
        emitSide(ctx, where, "constraint.removed", `${key} removed`, before, undefined);
      else compareSchema(before, after, where, nonMonotone ? { ...ctx, nonMonotone: true } : ctx);
    };
  }

  function conditional(a: JsonObject, b: JsonObject, pointer: string, ctx: SchemaContext): void {
    let branchCtx = ctx;
    if (!ctx.defs.same(a.if, b.if)) {
      if (a.if === undefined || b.if === undefined) {
        emitUnknown(
          ctx,
          pointer + "/if",
          `if ${a.if === undefined ? "added" : "removed"}; cannot prove it safe`,
          a.if,
          b.if,
        );
        return;
      }
      branchCtx = { ...ctx, nonMonotone: true };
      compareSchema(a.if, b.if, pointer + "/if", branchCtx);
    }
    for (const key of ["then", "else"])
      compareSchema(a[key] ?? true, b[key] ?? true, pointer + pointerOf(key), branchCtx);
  }

  /** A map of subschemas (patternProperties, dependentSchemas): an entry is a constraint. */
  function schemaMap(key: string): KeywordHandler {
    return (a, b, pointer, ctx) => {
      const base = pointer + pointerOf(key);
      const ma = a[key] ?? {};
      const mb = b[key] ?? {};
      if (!isJsonObject(ma) || !isJsonObject(mb)) {
        emitUnknown(ctx, base, `${key} is not an object`, a[key], b[key]);
        return;
      }
      // patternProperties decide which properties additionalProperties covers.
      const closed =
        key === "patternProperties" &&
        [a, b].some((s) => s.additionalProperties !== undefined && s.additionalProperties !== true);
      for (const entry of [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort()) {
        const where = base + pointerOf(entry);
        const before = ma[entry];
        const after = mb[entry];
        if (before !== undefined && after !== undefined) compareSchema(before, after, where, ctx);
        else if (closed)
          emitUnknown(
            ctx,
            where,
            `${key} entry "${entry}" changed next to additionalProperties; cannot prove it safe`,
            before,
            after,
          );
        else if (before === undefined)
          emitSide(ctx, where, "constraint.added", `${key} entry "${entry}" added`, undefined, after);
        else emitSide(ctx, where, "constraint.removed", `${key} entry "${entry}" removed`, before, undefined);
      }
    };
  }

  return [
    { keys: ["properties", "required"], fn: properties },
    { keys: ["additionalProperties"], fn: additionalProperties },
    { keys: ["items", "additionalItems"], fn: items },
    {
      keys: ["prefixItems"],
      fn: (a, b, p, ctx) => tuple(a.prefixItems ?? [], b.prefixItems ?? [], p + "/prefixItems", ctx),
    },
    ...["unevaluatedProperties", "propertyNames", "unevaluatedItems"].map((key) => ({
      keys: [key],
      fn: defaultTrue(key),
    })),
    ...["contains", "contentSchema"].map((key) => ({ keys: [key], fn: optional(key, false) })),
    { keys: ["not"], fn: optional("not", true) },
    { keys: ["if", "then", "else"], fn: conditional },
    ...["patternProperties", "dependentSchemas"].map((key) => ({ keys: [key], fn: schemaMap(key) })),
  ];
}
