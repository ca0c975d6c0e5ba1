/**
 * Declared field comparison (FieldSpec, matched by logical id): paths, units, semantic ids and
 * normalization are what plans and callers rely on, so a change to them is breaking.
 */
import { type FieldSpec, resultPathOf } from "schemarouter/internal";
import { canonical, type SchemaContext } from "./context.js";
import { draft, type Emit, pointerOf } from "./report.js";
import type { RuleId } from "./rules.js";
import { compareSchema } from "./schema.js";

const MEMBER_RULES: Readonly<Record<string, RuleId>> = {
  path: "response.field.path-changed",
  unit: "response.field.unit-changed",
  semanticId: "response.field.semantic-id-changed",
  normalization: "response.field.normalization-changed",
  datatype: "response.field.declaration-changed",
  dimensions: "response.field.declaration-changed",
  qualifiers: "response.field.declaration-changed",
  identifier: "response.field.declaration-changed",
  overlay: "response.field.declaration-changed",
  providerSpecific: "response.field.declaration-changed",
};

const DESCRIPTIVE = new Set(["description", "aliases", "provenance", "license"]);
const HANDLED = new Set(["id", "resultPath", "schema"]);

export function diffFields(
  a: readonly FieldSpec[],
  b: readonly FieldSpec[],
  ctx: SchemaContext,
  mcp: boolean,
  emit: Emit,
): void {
  const fa = new Map(a.map((f) => [f.id, f]));
  const fb = new Map(b.map((f) => [f.id, f]));
  for (const id of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
    const where = `/fields${pointerOf(id)}`;
    const before = fa.get(id);
    const after = fb.get(id);
    if (after === undefined) {
      emit(
        draft(
          where,
          "response.field.removed",
          `declared field "${id}" removed: plans and callers selecting it are refused`,
          before?.path,
        ),
      );
    } else if (before === undefined) {
      emit(draft(where, "response.field.added", `new declared field "${id}"`, undefined, after.path));
    } else {
      diffField(before, after, where, ctx, mcp, emit);
    }
  }
  const orderA = a.filter((f) => fb.has(f.id)).map((f) => f.id);
  const orderB = b.filter((f) => fa.has(f.id)).map((f) => f.id);
  if (canonical(orderA) !== canonical(orderB)) {
    emit(draft("/fields", "response.field.order-changed", "declared fields reordered", orderA, orderB));
  }
}

function diffField(
  a: FieldSpec,
  b: FieldSpec,
  where: string,
  ctx: SchemaContext,
  mcp: boolean,
  emit: Emit,
): void {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
    if (HANDLED.has(key) || canonical(ra[key]) === canonical(rb[key])) continue;
    const at = where + pointerOf(key);
    const rule = MEMBER_RULES[key];
    if (rule !== undefined) {
      emit(
        draft(
          at,
          rule,
          `field "${a.id}" ${key} changed: results no longer mean what callers expect`,
          ra[key],
          rb[key],
        ),
      );
    } else if (DESCRIPTIVE.has(key)) {
      emit(
        mcp
          ? draft(
              at,
              "response.field.description-changed.mcp",
              `MCP field "${a.id}" ${key} changed; it reaches the model`,
              ra[key],
              rb[key],
            )
          : draft(
              at,
              "response.field.description-changed",
              `field "${a.id}" ${key} changed (descriptive only)`,
              ra[key],
              rb[key],
            ),
      );
    } else {
      emit(
        draft(
          at,
          "contract.unknown-change",
          `field member "${key}" changed; this rule version does not know it`,
          ra[key],
          rb[key],
        ),
      );
    }
  }
  if (canonical(resultPathOf(a)) !== canonical(resultPathOf(b))) {
    emit(
      draft(
        where + "/resultPath",
        "response.field.result-path-changed",
        `field "${a.id}" lands elsewhere in the result`,
        resultPathOf(a),
        resultPathOf(b),
      ),
    );
  }
  compareSchema(a.schema ?? true, b.schema ?? true, where + "/schema", ctx);
}
