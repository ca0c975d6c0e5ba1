/**
 * Field selection checks and local field projection (docs/runtime/field-projection.md). Projection
 * copies values, keeps the declared object shape for nested paths, and keeps record correspondence for
 * `*` array paths.
 */
import { CallRefusedError, InvocationError } from "../errors/errors.js";
import { type EndpointSpec, type FieldSpec, resultPathOf } from "../model/specs.js";

export const WILDCARD = "*";

/**
 * Resolves the selected logical field IDs to FieldSpecs, refusing undeclared IDs and overlapping paths.
 * `undefined` selects every declared field not already covered by a declared ancestor.
 */
export function selectFields(
  endpoint: EndpointSpec,
  ids: readonly string[] | undefined,
  route: string,
): readonly FieldSpec[] {
  const index = fieldIndexOf(endpoint);
  if (ids === undefined) {
    index.defaults ??= Object.freeze(defaultFields(endpoint.fields));
    return index.defaults;
  }
  // The same selection is checked once per contract (bindings and plans repeat theirs on every call).
  // The last one is compared ID by ID first (no key to build); others by JSON text keys: unlike a
  // joined string, no two different lists of IDs share one.
  const last = index.last;
  if (last !== undefined && sameIds(last.ids, ids)) return last.selected;
  const key =
    Array.isArray(ids) && ids.every((id) => typeof id === "string") ? JSON.stringify(ids) : undefined;
  const known = key === undefined ? undefined : index.selections.get(key);
  if (known !== undefined) {
    index.last = { ids: Object.freeze([...ids]), selected: known };
    return known;
  }
  const selected = Object.freeze(checkSelection(index, ids, route));
  if (key !== undefined) {
    if (index.selections.size >= MAX_REMEMBERED_SELECTIONS) index.selections.clear();
    index.selections.set(key, selected);
    index.last = { ids: Object.freeze([...ids]), selected };
  }
  return selected;
}

/**
 * A frozen copy of a call's field IDs: the copy remembered with the last selection checked for this
 * contract when `ids` equals it (frozen arrays are shared safely; no array per call), a new one
 * otherwise.
 */
export function frozenFieldIds(endpoint: EndpointSpec, ids: readonly string[]): readonly string[] {
  const last = fieldIndexes.get(endpoint)?.last;
  if (last !== undefined && sameIds(last.ids, ids)) return last.ids;
  return Object.freeze([...ids]);
}

/** Whether `ids` is an array of the same strings as `known`, in the same order. */
function sameIds(known: readonly string[], ids: readonly string[]): boolean {
  if (!Array.isArray(ids) || ids.length !== known.length) return false;
  for (let position = 0; position < known.length; position++) {
    if (ids[position] !== known[position]) return false;
  }
  return true;
}

/** Selections remembered per endpoint contract; past this many, the memory starts over. */
const MAX_REMEMBERED_SELECTIONS = 64;

interface FieldIndex {
  readonly byId: ReadonlyMap<string, FieldSpec>;
  readonly order: ReadonlyMap<string, number>;
  readonly selections: Map<string, readonly FieldSpec[]>;
  /** The selection checked or found last (its IDs copied), compared first. */
  last?: { readonly ids: readonly string[]; readonly selected: readonly FieldSpec[] };
  defaults?: readonly FieldSpec[];
}

const fieldIndexes = new WeakMap<EndpointSpec, FieldIndex>();

function fieldIndexOf(endpoint: EndpointSpec): FieldIndex {
  let index = fieldIndexes.get(endpoint);
  if (index === undefined) {
    index = {
      byId: new Map(endpoint.fields.map((field) => [field.id, field])),
      order: new Map(endpoint.fields.map((field, position) => [field.id, position])),
      selections: new Map(),
    };
    fieldIndexes.set(endpoint, index);
  }
  return index;
}

function checkSelection(index: FieldIndex, ids: readonly string[], route: string): FieldSpec[] {
  const byId = index.byId;
  // An explicit projection of nothing is a mistake, not a request for an empty result
  // (docs/runtime/field-projection.md).
  if (Array.isArray(ids) && ids.length === 0 && byId.size > 0)
    throw new CallRefusedError(
      "NO_FIELDS_SELECTED",
      `${route}: fields is empty. Select one or more of ${[...byId.keys()].join(", ")}, or leave fields out for the defaults.`,
      { route, declared: [...byId.keys()] },
    );
  const selected: FieldSpec[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const field = typeof id === "string" ? byId.get(id) : undefined;
    if (field === undefined) {
      throw new CallRefusedError(
        "UNDECLARED_FIELD",
        `${route} does not declare a field "${String(id)}". Select declared logical field IDs only: ${[...byId.keys()].join(", ") || "(none)"}.`,
        { route, field: id, declared: [...byId.keys()] },
      );
    }
    if (seen.has(id)) {
      throw new CallRefusedError("OVERLAPPING_FIELDS", `${route}: field "${id}" is selected twice.`, {
        route,
        fields: [id],
      });
    }
    seen.add(id);
    selected.push(field);
  }
  for (let i = 0; i < selected.length; i++) {
    for (let j = i + 1; j < selected.length; j++) {
      const a = selected[i]!;
      const b = selected[j]!;
      if (overlaps(a.path, b.path) || overlaps(resultPathOf(a), resultPathOf(b))) {
        throw new CallRefusedError(
          "OVERLAPPING_FIELDS",
          `${route}: fields "${a.id}" and "${b.id}" have overlapping paths; select one of them.`,
          { route, fields: [a.id, b.id] },
        );
      }
    }
  }
  // Keep declaration order so results and types do not depend on argument order.
  const order = index.order;
  return selected.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

function defaultFields(fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.filter(
    (field) =>
      !fields.some((other) => other !== field && isStrictPrefix(resultPathOf(other), resultPathOf(field))),
  );
}

/** True when one path equals or is an ancestor of the other. */
export function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isStrictPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length < path.length && overlaps(prefix, path);
}

/** Projects `raw` (already validated) to the selected fields. Returns fresh values only. */
export function project(
  raw: unknown,
  fields: readonly FieldSpec[],
  route: string,
  declaresFields = fields.length > 0,
): unknown {
  // Only an endpoint that declares no fields at all returns its (validated) raw output whole.
  if (fields.length === 0) return declaresFields ? {} : structuredClone(raw);
  let out: unknown;
  for (const step of planOf(fields).steps) {
    const { field, source, target } = step;
    if (source.length !== target.length) {
      throw new InvocationError(
        "UNIT_NORMALIZATION_FAILED",
        `${route}: field "${field.id}" has mismatched wildcard paths.`,
        {
          route,
          field: field.id,
        },
      );
    }
    const from = step.fromKey;
    if (from === undefined) {
      out = place(raw, source, target, 0, out, field, route);
      continue;
    }
    // A top-level member read and returned at a top-level key without normalization: what `place`
    // does for such a field, without walking paths.
    if (raw === null || typeof raw !== "object" || Array.isArray(raw) || !Object.hasOwn(raw, from)) continue;
    const root: Record<string, unknown> =
      out !== null && typeof out === "object" && !Array.isArray(out) ? (out as Record<string, unknown>) : {};
    define(root, step.toKey!, copyOf((raw as Record<string, unknown>)[from]));
    out = root;
  }
  return out ?? {};
}

/** The selected field IDs of a selection, in its order (a fresh array). */
export function selectedIds(fields: readonly FieldSpec[]): string[] {
  return planOf(fields).ids.slice();
}

interface FieldChunks {
  readonly source: string[][];
  readonly target: string[][];
}

interface ProjectionStep extends FieldChunks {
  readonly field: FieldSpec;
  /** Set when the field is one top-level member returned at one top-level key, unnormalized. */
  readonly fromKey?: string;
  readonly toKey?: string;
}

interface ProjectionPlan {
  readonly steps: readonly ProjectionStep[];
  readonly ids: readonly string[];
}

/**
 * What projecting a selection takes, made once per selection: selections are frozen arrays that
 * selectFields remembers per contract, so a binding's or plan's repeated call finds its plan here.
 */
const projectionPlans = new WeakMap<readonly FieldSpec[], ProjectionPlan>();

function planOf(fields: readonly FieldSpec[]): ProjectionPlan {
  let plan = projectionPlans.get(fields);
  if (plan !== undefined) return plan;
  const steps = fields.map((field): ProjectionStep => {
    const { source, target } = chunksOf(field);
    const flat =
      field.normalization === undefined &&
      source.length === 1 &&
      target.length === 1 &&
      source[0]!.length === 1 &&
      target[0]!.length === 1;
    return flat
      ? { field, source, target, fromKey: source[0]![0]!, toKey: target[0]![0]! }
      : { field, source, target };
  });
  plan = { steps, ids: fields.map((field) => field.id) };
  // Only frozen selections are remembered (a caller's own array could change under the plan).
  if (Object.isFrozen(fields)) projectionPlans.set(fields, plan);
  return plan;
}

/** A field's source and result paths split at `*`, once per (frozen) FieldSpec. */
const fieldChunks = new WeakMap<FieldSpec, FieldChunks>();

function chunksOf(field: FieldSpec): FieldChunks {
  let chunks = fieldChunks.get(field);
  if (chunks === undefined) {
    chunks = { source: splitAtWildcards(field.path), target: splitAtWildcards(resultPathOf(field)) };
    fieldChunks.set(field, chunks);
  }
  return chunks;
}

function splitAtWildcards(path: readonly string[]): string[][] {
  const chunks: string[][] = [[]];
  for (const segment of path) {
    if (segment === WILDCARD) chunks.push([]);
    else chunks[chunks.length - 1]!.push(segment);
  }
  return chunks;
}

function place(
  src: unknown,
  source: string[][],
  target: string[][],
  depth: number,
  dst: unknown,
  field: FieldSpec,
  route: string,
): unknown {
  const found = get(src, source[depth]!);
  if (found === MISSING) return dst;
  const last = depth === source.length - 1;
  if (last) return set(dst, target[depth]!, normalize(copyOf(found), field, route));
  if (!Array.isArray(found)) return dst;
  const existing = get(dst, target[depth]!);
  const items: unknown[] = Array.isArray(existing) ? existing : found.map(() => undefined);
  found.forEach((item, index) => {
    items[index] = place(item, source, target, depth + 1, items[index], field, route) ?? {};
  });
  return set(dst, target[depth]!, items);
}

const MISSING = Symbol("missing");

/** A fresh copy of a JSON value (primitives are values already). */
function copyOf(value: unknown): unknown {
  return value !== null && typeof value === "object" ? structuredClone(value) : value;
}

function get(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return MISSING;
    if (!Object.hasOwn(current, segment)) return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function set(container: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const root: Record<string, unknown> =
    container !== null && typeof container === "object" && !Array.isArray(container)
      ? (container as Record<string, unknown>)
      : {};
  let current = root;
  path.forEach((segment, index) => {
    if (index === path.length - 1) {
      define(current, segment, value);
      return;
    }
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (next === null || typeof next !== "object" || Array.isArray(next)) define(current, segment, {});
    current = current[segment] as Record<string, unknown>;
  });
  return root;
}

/**
 * Own, enumerable data property: never an accessor on a prototype (a `__proto__` key stays data).
 * Targets are plain objects made here, and `__proto__` is Object.prototype's only accessor, so every
 * other key is a plain assignment.
 */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else target[key] = value;
}

function normalize(value: unknown, field: FieldSpec, route: string): unknown {
  const normalization = field.normalization;
  if (normalization === undefined) return value;
  const apply = (item: unknown): unknown => {
    if (item === null) return null;
    if (typeof item === "number") return item * normalization.scale + normalization.offset;
    if (Array.isArray(item)) return item.map(apply);
    throw new InvocationError(
      "UNIT_NORMALIZATION_FAILED",
      `${route}: field "${field.id}" declares unit normalization to ${normalization.canonicalUnit}, but its value is not numeric.`,
      { route, field: field.id },
    );
  };
  return apply(value);
}
