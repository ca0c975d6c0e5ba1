/**
 * Capability contracts (docs/runtime/capability-graph.md): the provider-neutral view of one locked
 * endpoint that the capability graph joins on — what it provides (output fields with a declared
 * semantic ID), what it requires (parameters with a declared semantic ID or accepted IDs), its effect,
 * and its declared preconditions. Everything comes from the locked, trusted contract; nothing is
 * guessed from names.
 */
import type { Effect, EndpointSpec, ToolSpec } from "../model/specs.js";

/** A value an endpoint's output provides: a declared field with a semantic ID. */
export interface ProvidedValue {
  readonly semanticId: string;
  readonly field: string;
  readonly identifier: boolean;
}

/** An input an endpoint accepts by meaning: a parameter with declared semantic IDs. */
export interface RequiredInput {
  readonly parameter: string;
  readonly required: boolean;
  /** The parameter's `semanticId` followed by its `accepts` (deduplicated, in declaration order). */
  readonly semanticIds: readonly string[];
}

export interface CapabilityContract {
  /** `tool.endpoint`. */
  readonly route: string;
  readonly tool: string;
  readonly endpoint: string;
  readonly provider: string;
  readonly effect: Effect;
  readonly provides: readonly ProvidedValue[];
  readonly requires: readonly RequiredInput[];
  /** Routes that must have run first (declared by a trusted overlay). */
  readonly preconditions: readonly string[];
}

/** The contracts of every endpoint of one tool, in declaration order. */
export function contractsOf(tool: ToolSpec): CapabilityContract[] {
  return tool.endpoints.map((endpoint) => contractOf(tool, endpoint));
}

export function contractOf(tool: ToolSpec, endpoint: EndpointSpec): CapabilityContract {
  const provides: ProvidedValue[] = [];
  for (const field of endpoint.fields) {
    if (field.semanticId === undefined) continue;
    provides.push({ semanticId: field.semanticId, field: field.id, identifier: field.identifier === true });
  }
  const requires: RequiredInput[] = [];
  for (const parameter of endpoint.parameters) {
    const ids = [...new Set([parameter.semanticId, ...(parameter.accepts ?? [])])].filter(
      (id): id is string => id !== undefined,
    );
    if (ids.length > 0)
      requires.push({ parameter: parameter.name, required: parameter.required, semanticIds: ids });
  }
  return {
    route: `${tool.name}.${endpoint.name}`,
    tool: tool.name,
    endpoint: endpoint.name,
    provider: tool.provider,
    effect: endpoint.effect,
    provides,
    requires,
    preconditions: [...(endpoint.preconditions ?? [])],
  };
}
