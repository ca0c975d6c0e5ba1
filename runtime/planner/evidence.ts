/**
 * Evidence checks (provenance, license, units, source type) against trusted local field metadata,
 * and coverage of the requested semantic fields. A decision backend can never change either.
 */
import type { FieldSpec, JsonSchema, SourceKind } from "../model/specs.js";
import type { EvidenceRequirements, RetrievalRequest } from "../retrieval/types.js";
import type { Coverage, EvidenceReport, FieldEvidence } from "./types.js";

const NON_NUMERIC = new Set(["string", "boolean", "object", "array", "null"]);

/** Numeric or of unknown type (a unit requirement then applies, failing closed). */
function mayBeNumeric(field: FieldSpec): boolean {
  const schema: JsonSchema | undefined = field.schema;
  const schemaType = typeof schema === "object" ? schema.type : undefined;
  const types: string[] = [];
  if (field.datatype !== undefined) types.push(...field.datatype.split("|"));
  else if (typeof schemaType === "string") types.push(schemaType);
  else if (Array.isArray(schemaType))
    types.push(...schemaType.filter((t): t is string => typeof t === "string"));
  if (types.length === 0) return true;
  return types.some((type) => !NON_NUMERIC.has(type.trim().toLowerCase()));
}

function meets(value: string | undefined, requirement: boolean | readonly string[] | undefined): boolean {
  if (requirement === undefined || requirement === false) return true;
  if (value === undefined) return false;
  return requirement === true || requirement.includes(value);
}

export function checkEvidence(
  fields: readonly FieldSpec[],
  sourceType: SourceKind,
  requirements: EvidenceRequirements | undefined,
): EvidenceReport {
  const req = requirements ?? {};
  const missing: string[] = [];
  const reports: FieldEvidence[] = fields.map((field) => {
    const facts = {
      field: field.id,
      ...(field.provenance !== undefined ? { provenance: field.provenance } : {}),
      ...(field.license !== undefined ? { license: field.license } : {}),
      ...(field.unit !== undefined ? { unit: field.unit } : {}),
    };
    if (field.identifier === true) return { ...facts, exempt: "identifier" as const, missing: [] };
    const unmet: string[] = [];
    if (!meets(field.provenance, req.provenance)) unmet.push("provenance");
    if (!meets(field.license, req.license)) unmet.push("license");
    if (req.units === true && field.unit === undefined && mayBeNumeric(field)) unmet.push("unit");
    for (const item of unmet) missing.push(`${field.id}:${item}`);
    return { ...facts, missing: unmet };
  });
  if (req.sourceTypes !== undefined && !req.sourceTypes.includes(sourceType))
    missing.push(`sourceType:${sourceType}`);
  return { satisfied: missing.length === 0, sourceType, missing, fields: reports };
}

/** Requested items as coverage labels: `field:<name>` and `semanticId:<id>`, in request order. */
export function requiredItems(request: RetrievalRequest): string[] {
  const items = [
    ...(request.fields ?? []).map((name) => `field:${name}`),
    ...(request.semanticIds ?? []).map((id) => `semanticId:${id}`),
  ];
  return [...new Set(items)];
}

export function coverageOf(required: readonly string[], covered: Iterable<string>): Coverage {
  const have = new Set(covered);
  return {
    required,
    covered: required.filter((item) => have.has(item)),
    uncovered: required.filter((item) => !have.has(item)),
  };
}
