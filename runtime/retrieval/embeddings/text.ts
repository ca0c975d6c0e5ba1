/**
 * The texts that are embedded (docs/runtime/embeddings.md, "The texts"), format
 * `schemarouter.embeddings/1`. Changing a rule here changes every stored vector's meaning: bump
 * EMBEDDINGS_FORMAT with it.
 */
import type { EndpointSpec, FieldSpec } from "../../model/specs.js";
import type { RetrievalRequest } from "../types.js";

/** `<endpoint name>` and, on the next line, its description (when it has one). */
export function endpointText(endpoint: EndpointSpec): string {
  const description = endpoint.description.trim();
  return description === "" ? endpoint.name : `${endpoint.name}\n${description}`;
}

/**
 * `<field id>, <alias>, …`, then its description and `unit: <unit>` on their own lines (each when
 * declared).
 */
export function fieldText(field: FieldSpec): string {
  const lines = [[field.id, ...(field.aliases ?? [])].join(", ")];
  const description = field.description?.trim() ?? "";
  if (description !== "") lines.push(description);
  if (field.unit !== undefined) lines.push(`unit: ${field.unit}`);
  return lines.join("\n");
}

/** The request's query, then `fields: …` and `units: …` lines for the structured parts it names. */
export function queryText(request: RetrievalRequest): string {
  const lines = [request.query.trim()];
  if (request.fields !== undefined && request.fields.length > 0)
    lines.push(`fields: ${request.fields.join(", ")}`);
  if (request.units !== undefined && request.units.length > 0)
    lines.push(`units: ${request.units.join(", ")}`);
  return lines.join("\n");
}
