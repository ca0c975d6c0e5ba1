/**
 * EndpointSpecs of one OPTIMADE entry type (OPTIMADE v1.2 "Entry Listing Endpoints", "Single Entry
 * Endpoints", "Entry Listing URL Query Parameters"): `list_<type>` and `get_<type>`, the JSON:API
 * envelope as output schema (the resource object stored once in `$defs`), one field per property
 * with explicit paths under `attributes`, and the trusted `response_fields` server projection.
 */
import type {
  CompatibilityIssue,
  EndpointSpec,
  FieldSpec,
  JsonObject,
  JsonValue,
  ServerProjectionSpec,
} from "schemarouter/internal";
import { inputOf, listParameters, PROJECTION, projectionParameter, sortableNames } from "./parameters.js";
import type { PropertyContract } from "./properties.js";

export type Pagination = "offset" | "number" | "cursor";

export interface EntryTypeContract {
  readonly entryType: string;
  readonly description: string;
  /** Sorted by name. */
  readonly properties: readonly PropertyContract[];
  readonly paginations: readonly Pagination[];
  /** SPDX expression or URL of the provider's data license, when /info declares one. */
  readonly license?: string;
  /** JSON pointer prefix of the entry type's info document, for compatibility issues. */
  readonly pointer: string;
}

const META_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    api_version: { type: "string" },
    query: { type: "object" },
    more_data_available: { type: "boolean" },
    data_returned: { type: "integer", minimum: 0 },
    data_available: { type: "integer", minimum: 0 },
    time_stamp: { type: "string" },
    provider: { type: "object" },
    warnings: { type: "array", items: { type: "object" } },
  },
};

const LINKS_SCHEMA: JsonObject = {
  type: ["object", "null"],
  properties: {
    next: {
      anyOf: [
        { type: ["string", "null"] },
        { type: "object", required: ["href"], properties: { href: { type: "string" } } },
      ],
    },
  },
};

/** The `$defs` name of an entry type's resource object schema. */
const RESERVED_KEYS = new Set(["__proto__", "prototype", "constructor"]);

export const entryDefName = (entryType: string): string => `${entryType}_entry`;

/** The JSON:API resource object of an entry type, with the attribute schemas of its properties. */
export function entrySchema(entry: EntryTypeContract): JsonObject {
  const attributes: Record<string, JsonValue> = {};
  let id: JsonObject = { type: "string" };
  for (const property of entry.properties) {
    if (property.name === "id") id = { ...property.schema, type: "string" };
    else if (property.name !== "type") attributes[property.name] = property.schema;
  }
  return {
    type: "object",
    required: ["id", "type"],
    properties: {
      id,
      type: { type: "string", const: entry.entryType },
      attributes: { type: "object", properties: attributes },
      relationships: { type: "object" },
      links: { type: ["object", "null"] },
      meta: { type: ["object", "null"] },
    },
  };
}

export function buildEntryEndpoints(
  entry: EntryTypeContract,
  report: (issue: CompatibilityIssue) => void,
): EndpointSpec[] {
  const ref: JsonObject = { $ref: `#/$defs/${entryDefName(entry.entryType)}` };
  const envelope = (data: JsonObject): JsonObject => ({
    type: "object",
    required: ["data", "meta"],
    properties: {
      data,
      meta: META_SCHEMA,
      links: LINKS_SCHEMA,
      included: { type: "array", items: { type: "object" } },
      jsonapi: { type: "object" },
    },
  });
  const list: EndpointSpec = {
    name: `list_${entry.entryType}`,
    description: `List ${entry.entryType} entries of the OPTIMADE provider: ${entry.description} Narrow the list with an OPTIMADE filter (e.g. elements HAS "Si" AND nelements=2); pages are followed within local limits.`,
    effect: "read",
    ...inputOf(listParameters(entry, report)),
    outputSchema: envelope({ type: "array", items: ref }),
    fields: [...entryFields(entry, ["data", "*"]), ...META_FIELDS],
    serverProjection: projectionOf(entry),
    execution: {
      kind: "optimade",
      entryType: entry.entryType,
      mode: "list",
      paginations: [...entry.paginations],
    },
    metadata: { entryType: entry.entryType, sortable: sortableNames(entry) ?? null },
  };
  const single: EndpointSpec = {
    name: `get_${entry.entryType}`,
    description: `One ${entry.entryType} entry of the OPTIMADE provider by id: ${entry.description}`,
    effect: "read",
    ...inputOf([
      {
        name: "id",
        location: "path",
        required: true,
        schema: { type: "string", minLength: 1 },
        description: `The id of the ${entry.entryType} entry.`,
      },
      projectionParameter(),
    ]),
    outputSchema: envelope({ anyOf: [ref, { type: "null" }] }),
    fields: entryFields(entry, ["data"]),
    serverProjection: projectionOf(entry),
    execution: { kind: "optimade", entryType: entry.entryType, mode: "single", paginations: [] },
    metadata: { entryType: entry.entryType },
  };
  return [list, single];
}

const META_FIELDS: readonly FieldSpec[] = [
  {
    id: "meta.data_returned",
    path: ["meta", "data_returned"],
    schema: { type: "integer", minimum: 0 },
    datatype: "integer",
    description: "Number of entries matching the filter, independent of pagination.",
  },
  {
    id: "meta.more_data_available",
    path: ["meta", "more_data_available"],
    schema: { type: "boolean" },
    datatype: "boolean",
    description: "True when matching entries were left out (more pages, or the local record limit).",
  },
];

/** One field per property (and per key of dictionary properties), under `prefix` (`data.*` or `data`). */
function entryFields(entry: EntryTypeContract, prefix: readonly string[]): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const push = (field: Omit<FieldSpec, "resultPath">) =>
    fields.push({ ...field, ...(field.path.includes("*") ? { resultPath: field.path } : {}) });
  const license = entry.license === undefined ? {} : { license: entry.license };
  const ordered = [
    ...entry.properties.filter((property) => property.name === "id"),
    ...entry.properties.filter((property) => property.name === "type"),
    ...entry.properties.filter((property) => property.name !== "id" && property.name !== "type"),
  ];
  if (!ordered.some((property) => property.name === "id")) {
    push({
      id: "id",
      path: [...prefix, "id"],
      schema: { type: "string" },
      datatype: "string",
      identifier: true,
    });
  }
  for (const property of ordered) {
    const top = property.name === "id" || property.name === "type";
    const path = top ? [...prefix, property.name] : [...prefix, "attributes", property.name];
    const providerSpecific = property.name.startsWith("_");
    push({
      id: property.name,
      path,
      schema: top ? { ...property.schema, type: "string" } : property.schema,
      ...facts(property.schema, property.description, property.unit),
      ...(property.dimensions !== undefined ? { dimensions: property.dimensions } : {}),
      ...(property.semanticId !== undefined ? { semanticId: property.semanticId } : {}),
      ...(property.name === "id" ? { identifier: true } : {}),
      ...(top ? {} : license),
      ...(providerSpecific ? { providerSpecific: true } : {}),
    });
    // Reserved keys (__proto__, prototype, constructor) never become field paths.
    for (const child of property.children.filter((candidate) => !RESERVED_KEYS.has(candidate.key))) {
      push({
        id: `${property.name}${child.throughList ? "[]" : ""}.${child.key}`,
        path: [...path, ...(child.throughList ? ["*"] : []), child.key],
        schema: child.schema,
        ...facts(child.schema, child.description, child.unit),
        ...license,
        ...(providerSpecific || child.key.startsWith("_") ? { providerSpecific: true } : {}),
      });
    }
  }
  return fields;
}

function facts(schema: JsonObject, description: string | undefined, unit: string | undefined) {
  const types =
    typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const datatype = types
    .filter((type): type is string => typeof type === "string" && type !== "null")
    .join("|");
  return {
    ...(datatype !== "" ? { datatype } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(unit !== undefined ? { unit } : {}),
  };
}

/** Every property field maps to its own name as a response_fields selector; nested keys to their property. */
function projectionOf(entry: EntryTypeContract): ServerProjectionSpec {
  const selectors: Record<string, string> = {};
  const entries: [string, string][] = [];
  if (!entry.properties.some((property) => property.name === "id")) entries.push(["id", "id"]);
  for (const property of entry.properties) {
    entries.push([property.name, property.name]);
    for (const child of property.children)
      entries.push([`${property.name}${child.throughList ? "[]" : ""}.${child.key}`, property.name]);
  }
  for (const [id, selector] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    selectors[id] = selector;
  return { parameter: PROJECTION, selectors, always: ["id", "type"], separator: "," };
}
