/**
 * Builds CapabilityCandidates: the full typed contract of a ranked endpoint (identity, effective
 * schemas, parameters, fields, semantics, effect, provider/access metadata, both fingerprints).
 */
import { deepFreeze } from "../model/freeze.js";
import { isMatched, matchFields, type PreparedRequest } from "./fields.js";
import type { Scored } from "./score.js";
import type { Catalog } from "./surface.js";
import type { CapabilityCandidate, RetrievalRequest } from "./types.js";

function distinctDefined(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== undefined))];
}

export function toCandidate(
  catalog: Pick<Catalog, "registry" | "entries" | "routes" | "sourceKinds" | "effectiveSchema">,
  scored: Scored,
  rank: number,
  request: RetrievalRequest,
  prepared?: PreparedRequest,
): CapabilityCandidate {
  const entry = catalog.entries[scored.index]!;
  const { tool, endpoint } = entry;
  const fields = endpoint.fields;
  const schemaOf = (which: "input" | "output") =>
    catalog.effectiveSchema !== undefined
      ? catalog.effectiveSchema(scored.index, which)
      : catalog.registry.effectiveSchema(tool.name, endpoint.name, which);
  return deepFreeze({
    route: catalog.routes[scored.index]!,
    tool: tool.name,
    endpoint: endpoint.name,
    source: entry.source,
    sourceKind: catalog.sourceKinds[scored.index]!,
    namespace: tool.namespace,
    provider: tool.provider,
    accessMode: tool.accessMode,
    remote: tool.remote,
    effect: endpoint.effect,
    description: endpoint.description,
    toolDescription: tool.description,
    inputSchema: schemaOf("input"),
    outputSchema: schemaOf("output"),
    parameters: endpoint.parameters,
    fields,
    semanticIds: distinctDefined(fields.map((field) => field.semanticId)),
    units: distinctDefined(fields.map((field) => field.unit)),
    endpointFingerprint: entry.endpointFingerprint,
    toolFingerprint: entry.toolFingerprint,
    rank,
    score: scored.score,
    scoreComponents: { ...scored.components },
    matchedFields: matchFields(fields, request, prepared)
      .filter(isMatched)
      .map((match) => match.field.id),
  });
}
