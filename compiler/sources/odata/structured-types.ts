/**
 * Entity and complex types as shared `$defs` (CSDL XML v4.01 §6 "Structural Property", §8 "Entity
 * Type", §9 "Complex Type"): inherited properties from the base type chain first, every property
 * optional (a `$select` leaves the others out), instance annotations (`@odata.etag`, `@odata.type`)
 * allowed. Navigation properties are reported, not expanded (docs/sources/odata.md "Navigation").
 */
import type { CompatibilityIssue, JsonSchema } from "schemarouter/internal";
import type { CsdlModel, CsdlProperty, CsdlStructuredType } from "./csdl.js";
import { defName, propertySchema, UnsupportedType } from "./edm-types.js";

/** Properties are plain identifiers (CSDL §17.2 "SimpleIdentifier"). */
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]{0,127}$/u;

/** A property the compiled contract keeps, with its schema. */
export interface KeptProperty {
  readonly property: CsdlProperty;
  readonly schema: JsonSchema;
}

/** The base type chain (root first); a cycle or a missing base type stops the chain where it breaks. */
export function typeChain(model: CsdlModel, type: CsdlStructuredType): CsdlStructuredType[] {
  const chain: CsdlStructuredType[] = [];
  const seen = new Set<string>();
  let current: CsdlStructuredType | undefined = type;
  while (current !== undefined && !seen.has(current.qualified)) {
    seen.add(current.qualified);
    chain.unshift(current);
    current = current.baseType === undefined ? undefined : model.structured.get(current.baseType);
  }
  return chain;
}

/** The key property names of an entity type (declared on it or inherited). */
export function keyOf(model: CsdlModel, type: CsdlStructuredType): readonly string[] {
  for (const link of typeChain(model, type).reverse()) if (link.key.length > 0) return link.key;
  return [];
}

/** The kept structural properties of a type, inherited first; the rest are reported. */
export function keptProperties(
  model: CsdlModel,
  type: CsdlStructuredType,
  report: (issue: CompatibilityIssue) => void,
): KeptProperty[] {
  const kept: KeptProperty[] = [];
  const names = new Set<string>();
  for (const link of typeChain(model, type)) {
    for (const property of link.properties) {
      const pointer = `${link.pointer}/Property/${property.name}`;
      if (!IDENTIFIER.test(property.name) || names.has(property.name)) {
        report({
          pointer,
          construct: "property-name",
          level: "unsupported",
          message: `property ${JSON.stringify(property.name)} of ${link.qualified} is not a unique identifier; it is not compiled.`,
        });
        continue;
      }
      try {
        kept.push({ property, schema: propertySchema(model, property) });
        names.add(property.name);
      } catch (error) {
        if (!(error instanceof UnsupportedType)) throw error;
        report({
          pointer,
          construct: "property-type",
          level: "unsupported",
          message: `property ${link.qualified}/${property.name} has type ${error.type}, which schemarouter does not map to JSON Schema; it is left out of the contract.`,
        });
      }
    }
  }
  return kept;
}

/** Every structured type of the model as a `$defs` entry, and the navigation properties reported. */
export function structuredDefs(
  model: CsdlModel,
  report: (issue: CompatibilityIssue) => void,
): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  for (const qualified of [...model.structured.keys()].sort()) {
    const type = model.structured.get(qualified)!;
    const properties: Record<string, JsonSchema> = {};
    for (const { property, schema } of keptProperties(model, type, report))
      properties[property.name] = schema;
    for (const navigation of type.navigation)
      report({
        pointer: `${type.pointer}/NavigationProperty/${navigation.name}`,
        construct: "navigation-property",
        level: "partial",
        message: `navigation property ${qualified}/${navigation.name} (to ${navigation.collection ? `many ${navigation.type}` : navigation.type}) is not expanded: $expand is not compiled; read the target entity set instead.`,
      });
    if (type.hasStream)
      report({
        pointer: type.pointer,
        construct: "media-entity",
        level: "partial",
        message: `${qualified} is a media entity; its stream ($value) is not compiled.`,
      });
    defs[defName(qualified)] = {
      type: "object",
      title: qualified,
      ...(type.description !== undefined ? { description: type.description } : {}),
      properties,
    };
  }
  return defs;
}
