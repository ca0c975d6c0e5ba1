/**
 * EndpointSpecs of entity sets and singletons (CSDL XML v4.01 §13.2 "Entity Set", §13.3 "Singleton";
 * OData JSON Format v4.01 §12 "Collection of Entities"): `<set>_list` with the structured query
 * options, `<set>_get` by key, `<singleton>_get`; one field per kept property, the key properties as
 * identifiers, and the trusted `$select` server projection built from the planned fields.
 */
import type {
  CompatibilityIssue,
  EndpointSpec,
  FieldSpec,
  JsonObject,
  JsonSchema,
  ODataTypedName,
  ParameterSpec,
  ServerProjectionSpec,
} from "schemarouter/internal";
import type { CsdlModel, CsdlStructuredType } from "./csdl.js";
import { defName, LITERAL_TYPES, primitiveOf, valueSchema } from "./edm-types.js";
import { filterableOf, inputOf, listParameters } from "./parameters.js";
import { type KeptProperty, keptProperties, keyOf } from "./structured-types.js";

/** Output of a collection: `value` plus the control information kept (docs/sources/odata.md "Paging"). */
export function collectionSchema(items: JsonSchema): JsonObject {
  return {
    type: "object",
    required: ["value"],
    properties: {
      "@odata.context": { type: "string" },
      "@odata.count": { type: "integer", minimum: 0 },
      "@odata.nextLink": { type: "string" },
      "@schemarouter.moreDataAvailable": { type: "boolean" },
      value: { type: "array", items },
    },
  };
}

export const COUNT_FIELD: FieldSpec = {
  id: "count",
  path: ["@odata.count"],
  schema: { type: "integer", minimum: 0 },
  datatype: "integer",
  description: "Total number of matching entities (only when the call passes count: true).",
};

export const MORE_FIELD: FieldSpec = {
  id: "more_data_available",
  path: ["@schemarouter.moreDataAvailable"],
  schema: { type: "boolean" },
  datatype: "boolean",
  description: "True when matching entities were left out by the local page or record limit.",
};

/** One field per kept property under `prefix` (`value.*` for lists, none for one entity). */
export function propertyFields(
  kept: readonly KeptProperty[],
  key: readonly string[],
  prefix: readonly string[],
): FieldSpec[] {
  return kept.map(({ property, schema }) => {
    const path = [...prefix, property.name];
    return {
      id: property.name,
      path,
      ...(path.includes("*") ? { resultPath: path } : {}),
      schema,
      datatype: property.collection ? `Collection(${property.type})` : property.type,
      ...(property.description !== undefined ? { description: property.description } : {}),
      ...(key.includes(property.name) ? { identifier: true } : {}),
    };
  });
}

export function selectProjection(
  kept: readonly KeptProperty[],
  key: readonly string[],
): ServerProjectionSpec {
  const selectors: Record<string, string> = {};
  for (const { property } of kept) selectors[property.name] = property.name;
  return { parameter: "$select", selectors, always: [...key], separator: "," };
}

/** Key parameters of an entity type, or undefined (reported) when a key property has no literal form. */
export function keyParameters(
  model: CsdlModel,
  type: CsdlStructuredType,
  kept: readonly KeptProperty[],
  pointer: string,
  report: (issue: CompatibilityIssue) => void,
): { parameters: ParameterSpec[]; keys: ODataTypedName[] } | undefined {
  const key = keyOf(model, type);
  const parameters: ParameterSpec[] = [];
  const keys: ODataTypedName[] = [];
  for (const name of key) {
    const entry = kept.find((candidate) => candidate.property.name === name);
    const primitive = entry === undefined ? undefined : primitiveOf(model, entry.property.type);
    if (entry === undefined || primitive === undefined || !LITERAL_TYPES.has(primitive)) {
      report({
        pointer,
        construct: "entity-key",
        level: "unsupported",
        message: `key property ${type.qualified}/${name} has no primitive literal form schemarouter writes; entities cannot be addressed by key.`,
        leftOut: pointer,
      });
      return undefined;
    }
    parameters.push({
      name,
      location: "path",
      required: true,
      schema: valueSchema(model, primitive, entry.property.maxLength),
      description: `Key property ${name} (${primitive}).`,
    });
    keys.push({ name, type: primitive });
  }
  if (key.length === 0) {
    report({
      pointer,
      construct: "entity-key",
      level: "unsupported",
      message: `${type.qualified} declares no key; entities cannot be addressed by key.`,
      leftOut: pointer,
    });
    return undefined;
  }
  return { parameters, keys };
}

/** The list and get endpoints of an entity set (empty when its entity type is unknown). */
export function entitySetEndpoints(
  model: CsdlModel,
  set: { readonly name: string; readonly entityType: string; readonly description?: string },
  report: (issue: CompatibilityIssue) => void,
): EndpointSpec[] {
  const pointer = `/EntityContainer/EntitySet/${set.name}`;
  const type = model.structured.get(set.entityType);
  if (type === undefined || type.kind !== "entity") {
    report({
      pointer,
      construct: "entity-set",
      level: "unsupported",
      message: `entity set ${set.name} names entity type ${set.entityType}, which the document does not define; it is not compiled.`,
      leftOut: pointer,
    });
    return [];
  }
  const kept = keptProperties(model, type, report);
  const key = keyOf(model, type);
  const ref = { $ref: `#/$defs/${defName(type.qualified)}` };
  const about = set.description ?? type.description ?? `${type.name} entities.`;
  const filterable = filterableOf(model, kept);
  const list: EndpointSpec = {
    name: `${set.name}_list`,
    description: `List entities of the OData entity set ${set.name}: ${about} Filter with typed per-property comparisons, sort, page with top/skip; further pages are followed within local limits.`,
    effect: "read",
    ...inputOf(listParameters(kept, filterable)),
    outputSchema: collectionSchema(ref),
    fields: [...propertyFields(kept, key, ["value", "*"]), COUNT_FIELD, MORE_FIELD],
    serverProjection: selectProjection(kept, key),
    execution: {
      kind: "odata",
      operation: "list",
      resource: set.name,
      keys: [],
      parameters: [],
      filterable,
      collection: true,
    },
    metadata: { entitySet: set.name, entityType: type.qualified },
  };
  const endpoints = [list];
  const addressed = keyParameters(model, type, kept, `${pointer}/key`, report);
  if (addressed !== undefined)
    endpoints.push({
      name: `${set.name}_get`,
      description: `One entity of the OData entity set ${set.name} by key (${addressed.keys.map((k) => k.name).join(", ")}): ${about}`,
      effect: "read",
      ...inputOf(addressed.parameters),
      outputSchema: ref,
      fields: propertyFields(kept, key, []),
      serverProjection: selectProjection(kept, key),
      execution: {
        kind: "odata",
        operation: "get",
        resource: set.name,
        keys: addressed.keys,
        parameters: [],
        filterable: [],
        collection: false,
      },
      metadata: { entitySet: set.name, entityType: type.qualified },
    });
  return endpoints;
}

/** The get endpoint of a singleton. */
export function singletonEndpoint(
  model: CsdlModel,
  singleton: { readonly name: string; readonly type: string },
  report: (issue: CompatibilityIssue) => void,
): EndpointSpec[] {
  const pointer = `/EntityContainer/Singleton/${singleton.name}`;
  const type = model.structured.get(singleton.type);
  if (type === undefined || type.kind !== "entity") {
    report({
      pointer,
      construct: "singleton",
      level: "unsupported",
      message: `singleton ${singleton.name} names entity type ${singleton.type}, which the document does not define; it is not compiled.`,
      leftOut: pointer,
    });
    return [];
  }
  const kept = keptProperties(model, type, report);
  const key = keyOf(model, type);
  return [
    {
      name: `${singleton.name}_get`,
      description: `The OData singleton ${singleton.name}: ${type.description ?? `the one ${type.name} entity.`}`,
      effect: "read",
      ...inputOf([]),
      outputSchema: { $ref: `#/$defs/${defName(type.qualified)}` },
      fields: propertyFields(kept, key, []),
      serverProjection: selectProjection(kept, key),
      execution: {
        kind: "odata",
        operation: "singleton",
        resource: singleton.name,
        keys: [],
        parameters: [],
        filterable: [],
        collection: false,
      },
      metadata: { singleton: singleton.name, entityType: type.qualified },
    },
  ];
}
