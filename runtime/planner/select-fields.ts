/**
 * Field-first selection (docs/trust-model.md §4, docs/runtime/field-projection.md): a clear
 * query-to-field match keeps the matched fields plus the declared identifiers; an ambiguous intent
 * keeps every declared field. A query token counts as a clear signal only when it matches some, but not
 * all, non-identifier fields.
 */

import { overlaps } from "../boundary/projection.js";
import type { EndpointSpec, FieldSpec } from "../model/specs.js";
import { resultPathOf } from "../model/specs.js";
import { type FieldMatch, matchFields } from "../retrieval/fields.js";
import type { RetrievalRequest } from "../retrieval/types.js";
import type { DroppedField, FieldSelectionMode } from "./types.js";

export interface FieldSelection {
  readonly mode: FieldSelectionMode;
  /** Selected field IDs in declaration order (empty when the endpoint declares none). */
  readonly fields: readonly string[];
  readonly reasons: Readonly<Record<string, readonly string[]>>;
  readonly dropped: readonly DroppedField[];
  /** Requested items (`field:<name>`, `semanticId:<id>`) the selected fields satisfy. */
  readonly covers: readonly string[];
  readonly matches: readonly FieldMatch[];
}

function isStrictSuperset(big: ReadonlySet<string>, small: ReadonlySet<string>): boolean {
  if (big.size <= small.size) return false;
  for (const token of small) if (!big.has(token)) return false;
  return true;
}

/** Drops fields whose path equals (declared later) or descends from another kept field's path. */
function pruneOverlaps(fields: readonly FieldSpec[], dropped: DroppedField[]): FieldSpec[] {
  return fields.filter((field, i) => {
    const cover = fields.find((other, j) => {
      if (other === field) return false;
      const a = other.path;
      const b = field.path;
      const ra = resultPathOf(other);
      const rb = resultPathOf(field);
      const ancestor = (a.length < b.length && overlaps(a, b)) || (ra.length < rb.length && overlaps(ra, rb));
      const equal =
        (a.length === b.length && overlaps(a, b)) || (ra.length === rb.length && overlaps(ra, rb));
      return ancestor || (equal && j < i);
    });
    if (cover !== undefined) dropped.push({ field: field.id, reason: `covered-by:${cover.id}` });
    return cover === undefined;
  });
}

function finish(
  endpoint: EndpointSpec,
  mode: FieldSelectionMode,
  kept: ReadonlySet<FieldSpec>,
  reasons: Map<string, string[]>,
  dropped: DroppedField[],
  matches: readonly FieldMatch[],
): FieldSelection {
  const ordered = pruneOverlaps(
    endpoint.fields.filter((field) => kept.has(field)),
    dropped,
  );
  const ids = new Set(ordered.map((field) => field.id));
  const covers = [
    ...new Set(matches.filter((match) => ids.has(match.field.id)).flatMap((match) => match.requested)),
  ];
  const finalReasons: Record<string, readonly string[]> = {};
  for (const field of ordered) finalReasons[field.id] = reasons.get(field.id) ?? [];
  return { mode, fields: ordered.map((field) => field.id), reasons: finalReasons, dropped, covers, matches };
}

function addReason(reasons: Map<string, string[]>, id: string, reason: string): void {
  const list = reasons.get(id) ?? [];
  if (!list.includes(reason)) list.push(reason);
  reasons.set(id, list);
}

/** Deterministic field-first selection for one endpoint. */
export function selectFields(endpoint: EndpointSpec, request: RetrievalRequest): FieldSelection {
  const matches = matchFields(endpoint.fields, request);
  const reasons = new Map<string, string[]>();
  const dropped: DroppedField[] = [];
  if (endpoint.fields.length === 0)
    return finish(endpoint, "no-declared-fields", new Set(), reasons, dropped, matches);
  const data = matches.filter((match) => match.field.identifier !== true);
  const counts = new Map<string, number>();
  for (const match of data) for (const token of match.tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  const clear = (token: string): boolean => data.length === 1 || counts.get(token)! < data.length;
  const signal = new Map<FieldMatch, Set<string>>();
  for (const match of data) signal.set(match, new Set(match.tokens.filter(clear)));

  const selected = new Set<FieldMatch>();
  for (const match of matches) if (match.requested.length > 0) selected.add(match);
  for (const match of data) if (signal.get(match)!.size > 0) selected.add(match);

  const narrowable = (match: FieldMatch): boolean =>
    match.requested.length === 0 && match.field.identifier !== true;
  // Two passes (units, then qualifiers); each compares against the selection as it was before the
  // pass, so the result does not depend on iteration order.
  if ((request.units ?? []).length > 0) {
    const pool = [...selected];
    for (const match of pool) {
      if (!narrowable(match) || match.field.unit === undefined || match.unitRequested) continue;
      const mine = signal.get(match)!;
      const same = pool.find(
        (other) => other.unitRequested && [...(signal.get(other) ?? [])].some((t) => mine.has(t)),
      );
      if (same !== undefined) {
        selected.delete(match);
        dropped.push({ field: match.field.id, reason: "unit-not-requested" });
      }
    }
  }
  // Qualifier narrowing: a field loses to one that matches the same tokens plus tokens of its declared
  // unit/qualifiers. Weak matches (no token of the field's own names) lose to any strictly larger match.
  const pool = [...selected];
  for (const match of pool) {
    if (!narrowable(match)) continue;
    const mine = signal.get(match)!;
    const weak = ![...mine].some((token) => match.terms.nameTokens.has(token));
    let reason: string | undefined;
    for (const other of pool) {
      const theirs = signal.get(other);
      if (other === match || theirs === undefined || !isStrictSuperset(theirs, mine)) continue;
      if ([...theirs].every((t) => mine.has(t) || other.terms.attributeTokens.has(t))) {
        reason = `narrowed-by-qualifier:${other.field.id}`;
        break;
      }
      if (weak && reason === undefined) reason = `weak-match-dominated-by:${other.field.id}`;
    }
    if (reason !== undefined) {
      selected.delete(match);
      dropped.push({ field: match.field.id, reason });
    }
  }

  // Depth narrowing: of fields matched by the same tokens, the shallowest wins — `title` selects the
  // top-level `title`, not also `author.books[].title` (an ancestor is left to the cover rule below;
  // docs/runtime/retrieval-and-planning.md, "Field-first planning").
  const depthOf = (match: FieldMatch): number => match.field.path.filter((s) => s !== "*").length;
  const level = [...selected];
  for (const match of level) {
    const mine = signal.get(match);
    if (!narrowable(match) || mine === undefined || mine.size === 0) continue;
    const shallower = level.find((other) => {
      const theirs = signal.get(other);
      return (
        other !== match &&
        theirs !== undefined &&
        depthOf(other) < depthOf(match) &&
        !other.field.path.every((segment, i) => match.field.path[i] === segment) &&
        theirs.size === mine.size &&
        [...mine].every((t) => theirs.has(t))
      );
    });
    if (shallower !== undefined) {
      selected.delete(match);
      dropped.push({ field: match.field.id, reason: `deeper-than:${shallower.field.id}` });
    }
  }

  if (selected.size === 0) {
    for (const match of matches) {
      addReason(
        reasons,
        match.field.id,
        match.field.identifier === true ? "identifier" : "ambiguous-intent-kept-all",
      );
    }
    return finish(endpoint, "ambiguous-intent-kept-all", new Set(endpoint.fields), reasons, dropped, matches);
  }
  const kept = new Set<FieldSpec>();
  for (const match of matches) {
    const id = match.field.id;
    if (match.field.identifier === true) {
      kept.add(match.field);
      addReason(reasons, id, "identifier");
    }
    if (!selected.has(match)) continue;
    kept.add(match.field);
    for (const item of match.requested) addReason(reasons, id, `requested:${item}`);
    for (const token of signal.get(match) ?? []) addReason(reasons, id, `matched:${token}`);
    if (match.unitRequested) addReason(reasons, id, `unit:${match.field.unit}`);
  }
  return finish(endpoint, "matched", kept, reasons, dropped, matches);
}

/**
 * Selection by a decision backend among non-identifier fields (ambiguous intents only). Identifiers
 * and explicitly requested fields stay, whatever the backend chose.
 */
export function selectChosenFields(
  endpoint: EndpointSpec,
  request: RetrievalRequest,
  chosen: ReadonlySet<string>,
): FieldSelection {
  const matches = matchFields(endpoint.fields, request);
  const reasons = new Map<string, string[]>();
  const kept = new Set<FieldSpec>();
  for (const match of matches) {
    const id = match.field.id;
    if (match.field.identifier === true) addReason(reasons, id, "identifier");
    for (const item of match.requested) addReason(reasons, id, `requested:${item}`);
    if (match.field.identifier !== true && chosen.has(id)) addReason(reasons, id, "decision-backend");
    if (reasons.has(id)) kept.add(match.field);
  }
  return finish(endpoint, "decision-backend", kept, reasons, [], matches);
}
