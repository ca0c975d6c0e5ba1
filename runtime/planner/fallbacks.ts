/**
 * Precompiled FallbackRoutes (docs/trust-model.md §29): read-only alternatives that provably cover the
 * primary call's field need through local contracts (equal semantic IDs, or shared field IDs/aliases,
 * with equal effective units), same provider before cross-provider. Each alternative carries its own
 * fingerprints, arguments and fields, and never selects more than the need plus its identifiers.
 */

import { overlaps } from "../boundary/projection.js";
import type { FieldSpec } from "../model/specs.js";
import { resultPathOf } from "../model/specs.js";
import { MAX_LIST_LENGTH } from "../retrieval/errors.js";
import type { Retriever } from "../retrieval/retriever.js";
import { normalizeKey } from "../retrieval/tokenize.js";
import type { CapabilityCandidate, EvidenceRequirements } from "../retrieval/types.js";
import { planArguments } from "./arguments.js";
import { checkEvidence } from "./evidence.js";
import type { FallbackRoute } from "./types.js";

export const DEFAULT_MAX_FALLBACKS = 3;

export interface FallbackInput {
  readonly retriever: Retriever;
  readonly primary: CapabilityCandidate;
  /** The primary call's selected fields (declaration order). */
  readonly selected: readonly FieldSpec[];
  readonly callerArguments: Readonly<Record<string, unknown>> | undefined;
  readonly proposedArguments: Readonly<Record<string, unknown>> | undefined;
  readonly evidence: EvidenceRequirements | undefined;
  readonly isReady: ((tool: string) => boolean) | undefined;
  readonly maxFallbacks: number;
}

export interface FallbackResult {
  readonly routes: readonly FallbackRoute[];
  readonly excluded: readonly { readonly route: string; readonly reason: string }[];
}

const effectiveUnit = (field: FieldSpec): string | undefined =>
  field.normalization?.canonicalUnit ?? field.unit;
const keysOf = (field: FieldSpec): string[] => [field.id, ...(field.aliases ?? [])].map(normalizeKey);

/** True when local contracts show `candidate` carries the same logical value as `need`. */
export function isCounterpart(need: FieldSpec, candidate: FieldSpec): boolean {
  if (need.semanticId !== undefined && candidate.semanticId !== undefined) {
    if (need.semanticId !== candidate.semanticId) return false;
  } else {
    const keys = new Set(keysOf(need));
    if (!keysOf(candidate).some((key) => keys.has(key))) return false;
  }
  const a = effectiveUnit(need);
  const b = effectiveUnit(candidate);
  return a === b;
}

function anyOverlap(fields: readonly FieldSpec[]): boolean {
  for (let i = 0; i < fields.length; i++) {
    for (let j = i + 1; j < fields.length; j++) {
      const a = fields[i]!;
      const b = fields[j]!;
      if (overlaps(a.path, b.path) || overlaps(resultPathOf(a), resultPathOf(b))) return true;
    }
  }
  return false;
}

export function planFallbacks(input: FallbackInput): FallbackResult {
  const { primary } = input;
  const data = input.selected.filter((field) => field.identifier !== true);
  const need = data.length > 0 ? data : input.selected;
  if (primary.effect !== "read" || need.length === 0) return { routes: [], excluded: [] };
  // Every valid alternative has a counterpart of need[0], found by a shared field key or an equal
  // semantic ID, so querying those keys through the index loses none (exact recall). All need keys
  // are used when they fit in one request, which also ranks alternatives by how much they match.
  const names = (list: readonly FieldSpec[]) => [
    ...new Set(list.flatMap((f) => [f.id, ...(f.aliases ?? [])])),
  ];
  const ids = (list: readonly FieldSpec[]) => [
    ...new Set(list.flatMap((f) => (f.semanticId !== undefined ? [f.semanticId] : []))),
  ];
  const fits = names(need).length <= MAX_LIST_LENGTH && ids(need).length <= MAX_LIST_LENGTH;
  const keyed = fits ? need : need.slice(0, 1);
  const surface = input.retriever.rankedEntries(
    { query: "", fields: names(keyed).slice(0, MAX_LIST_LENGTH), semanticIds: ids(keyed), effects: ["read"] },
    { exactOnly: true, ...(input.isReady !== undefined ? { isReady: input.isReady } : {}) },
  );
  const alternatives = surface.filter((ranked) => ranked.entry.tool.name !== primary.tool);
  const ordered = [
    ...alternatives.filter((ranked) => ranked.entry.tool.provider === primary.provider),
    ...alternatives.filter((ranked) => ranked.entry.tool.provider !== primary.provider),
  ];
  const routes: FallbackRoute[] = [];
  const excluded: { route: string; reason: string }[] = [];
  for (const { route, entry, sourceKind } of ordered) {
    if (routes.length >= input.maxFallbacks) break;
    const { tool, endpoint } = entry;
    const fieldMap: Record<string, string> = {};
    const chosen = new Set<FieldSpec>();
    for (const field of need) {
      const counterpart = endpoint.fields.find((other) => isCounterpart(field, other));
      if (counterpart === undefined) break;
      fieldMap[field.id] = counterpart.id;
      chosen.add(counterpart);
    }
    if (Object.keys(fieldMap).length !== need.length) continue;
    for (const field of endpoint.fields) if (field.identifier === true) chosen.add(field);
    const fields = endpoint.fields.filter((field) => chosen.has(field));
    if (anyOverlap(fields)) {
      excluded.push({ route, reason: "overlapping-fields" });
      continue;
    }
    const args = planArguments(endpoint, input.callerArguments, input.proposedArguments);
    if (args.missing.length > 0) {
      excluded.push({
        route,
        reason: `missing-required-argument:${args.missing.map((m) => m.name).join(",")}`,
      });
      continue;
    }
    const evidence = checkEvidence(fields, sourceKind, input.evidence);
    if (!evidence.satisfied) {
      excluded.push({ route, reason: `evidence:${evidence.missing.join(",")}` });
      continue;
    }
    routes.push({
      tool: tool.name,
      endpoint: endpoint.name,
      route,
      arguments: args.arguments,
      fields: fields.map((field) => field.id),
      endpointFingerprint: entry.endpointFingerprint,
      toolFingerprint: entry.toolFingerprint,
      provider: tool.provider,
      accessMode: tool.accessMode,
      sameProvider: tool.provider === primary.provider,
      effect: "read",
      fieldMap,
      evidence,
    });
  }
  return { routes, excluded };
}
