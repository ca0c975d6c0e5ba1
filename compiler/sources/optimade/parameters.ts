/**
 * Parameters of the OPTIMADE entry endpoints (OPTIMADE v1.2 "Entry Listing URL Query Parameters",
 * "Single Entry URL Query Parameters"): filter, sort (restricted to the sortable properties),
 * page_limit and the pagination parameters the provider accepts, and response_fields, which only
 * the trusted server projection sets.
 */
import type { CompatibilityIssue, JsonObject, JsonSchema, ParameterSpec } from "schemarouter/internal";
import { inputSchemaOf } from "../input-schema.js";
import type { EntryTypeContract } from "./endpoints.js";

export const PROJECTION = "response_fields";

export function inputOf(parameters: ParameterSpec[]): {
  parameters: ParameterSpec[];
  inputSchema: JsonSchema;
} {
  return { parameters, inputSchema: inputSchemaOf(parameters) };
}

export function listParameters(
  entry: EntryTypeContract,
  report: (issue: CompatibilityIssue) => void,
): ParameterSpec[] {
  const query = (name: string, schema: JsonObject, description: string): ParameterSpec => ({
    name,
    location: "query",
    required: false,
    schema,
    description,
  });
  const parameters = [
    query(
      "filter",
      { type: "string", minLength: 1 },
      'An OPTIMADE filter, e.g. elements HAS "Si" AND nelements=2. Checked against the filter grammar (and the declared properties) before any request.',
    ),
  ];
  const sortable = sortableNames(entry);
  if (sortable === undefined) {
    const unknown = entry.properties
      .filter((property) => property.sortable === undefined)
      .map((property) => property.name);
    report({
      pointer: `${entry.pointer}/data/properties`,
      construct: "sortability-undeclared",
      level: "partial",
      message: `${entry.entryType}: properties ${unknown.join(", ")} do not say whether they are sortable, so sort is not checked locally.`,
    });
    parameters.push(
      query(
        "sort",
        { type: "string", minLength: 1 },
        "Comma-separated property names to sort by; prefix a name with - for descending order.",
      ),
    );
  } else if (sortable.length > 0) {
    const names = `(?:${sortable.join("|")})`;
    parameters.push(
      query(
        "sort",
        { type: "string", pattern: `^-?${names}(?:,-?${names})*$` },
        `Comma-separated property names to sort by (${sortable.join(", ")}); prefix a name with - for descending order.`,
      ),
    );
  }
  parameters.push(
    query(
      "page_limit",
      { type: "integer", minimum: 1 },
      "Entries per page; the provider refuses values above its maximum (403).",
    ),
  );
  if (entry.paginations.includes("offset"))
    parameters.push(
      query("page_offset", { type: "integer", minimum: 0 }, "Number of matching entries to skip."),
    );
  if (entry.paginations.includes("number"))
    parameters.push(
      query("page_number", { type: "integer", minimum: 1 }, "1-based page number (with page_limit)."),
    );
  if (entry.paginations.includes("cursor"))
    parameters.push(
      query(
        "page_cursor",
        { type: "string", minLength: 1 },
        "Opaque cursor from a previous page's links.next.",
      ),
    );
  parameters.push(projectionParameter());
  return parameters;
}

export function projectionParameter(): ParameterSpec {
  return {
    name: PROJECTION,
    location: "query",
    required: false,
    schema: { type: "string" },
    description:
      "Set by the runtime from the selected fields (trusted server projection); select fields instead of passing it.",
  };
}

/** Names of the sortable properties, or undefined when some property does not say. */
export function sortableNames(entry: EntryTypeContract): string[] | undefined {
  if (entry.properties.some((property) => property.sortable === undefined)) return undefined;
  return entry.properties.filter((property) => property.sortable === true).map((property) => property.name);
}
