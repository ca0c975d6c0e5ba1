/**
 * OPTIMADE property definitions → JSON Schema and field facts, in both formats the spec has used:
 * v1.0/v1.1 (`description`, `type` as an OPTIMADE type name, `unit`, `sortable`) and v1.2+
 * ("Property Definitions": JSON-Schema-like, `x-optimade-type`, `x-optimade-unit`,
 * `x-optimade-dimensions`, `type` as a list, nested `items`/`properties`). Schemas keep
 * `x-optimade-type` at every level; anything not understood goes to the compatibility report.
 */

import type { CompatibilityIssue, JsonObject, JsonValue } from "schemarouter/internal";
import { encodePointerToken } from "schemarouter/internal";
import { convertLevel, JSON_TYPE_OF } from "./schema.js";
import { canonicalUnit, dimensionsOf, valueUnitOf } from "./units.js";

type Definition = Readonly<Record<string, unknown>>;
type Report = (issue: CompatibilityIssue) => void;

export interface ChildProperty {
  /** Key of the dictionary (or of the dictionaries a list holds). */
  readonly key: string;
  /** The parent is a list of dictionaries, so the path walks its items (`*`). */
  readonly throughList: boolean;
  readonly schema: JsonObject;
  readonly unit?: string;
  readonly description?: string;
}

export interface PropertyContract {
  readonly name: string;
  readonly schema: JsonObject;
  readonly unit?: string;
  readonly dimensions?: string;
  /** One-paragraph summary of the description. */
  readonly description?: string;
  /** The definition's `$id` (v1.2): equal IDs mean equivalently defined properties. */
  readonly semanticId?: string;
  /** `undefined`: the definition does not say (v1.2 without `x-optimade-implementation`). */
  readonly sortable: boolean | undefined;
  readonly children: readonly ChildProperty[];
}

const V11_KEYS = new Set(["description", "type", "unit", "sortable"]);

/**
 * Which format a definition uses: `x-optimade-type`, a list `type`, or JSON-Schema structure is
 * v1.2; otherwise v1.0/v1.1 (`type` an OPTIMADE type name, `unknown`, or absent as in v1.0).
 */
export function definitionFormat(definition: Definition): "v1.1" | "v1.2" {
  if (definition["x-optimade-type"] !== undefined || Array.isArray(definition.type)) return "v1.2";
  if (isRecord(definition.items) || isRecord(definition.properties)) return "v1.2";
  const type = definition.type;
  if (typeof type === "string" && !(type in JSON_TYPE_OF) && type !== "unknown") return "v1.2";
  return "v1.1";
}

export function convertProperty(
  name: string,
  raw: unknown,
  pointer: string,
  report: Report,
): PropertyContract {
  const definition = isRecord(raw) ? raw : {};
  if (!isRecord(raw)) {
    report({
      pointer,
      construct: "property-definition",
      level: "unsupported",
      message: `property "${name}" has no definition object; its values are not typed.`,
    });
  }
  const nullable = name !== "id" && name !== "type";
  if (definitionFormat(definition) === "v1.1") return convertV11(name, definition, pointer, nullable, report);
  const definitionFormatValue = isRecord(definition["x-optimade-definition"])
    ? definition["x-optimade-definition"].format
    : undefined;
  if (
    definitionFormatValue !== undefined &&
    !(typeof definitionFormatValue === "string" && /^1\.\d+$/.test(definitionFormatValue))
  ) {
    report({
      pointer: `${pointer}/x-optimade-definition/format`,
      construct: "property-definition-format",
      level: "unsupported",
      message: `property "${name}" uses definition format ${JSON.stringify(definitionFormatValue)}; clients must disregard it, so its values are not typed.`,
    });
    return { name, schema: {}, sortable: undefined, children: [] };
  }
  const schema = convertLevel(name, definition, pointer, nullable, report);
  const implementation = definition["x-optimade-implementation"];
  const sortable =
    definition.sortable === true || (isRecord(implementation) && implementation.sortable === true)
      ? true
      : isRecord(implementation) || definition.sortable === false
        ? false
        : undefined;
  const unit = valueUnitOf(definition);
  const dimensions = dimensionsOf(definition);
  const description = summary(definition.description) ?? summary(definition.title);
  return {
    name,
    schema,
    ...(unit !== undefined ? { unit } : {}),
    ...(dimensions !== undefined ? { dimensions } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(typeof definition.$id === "string" && definition.$id !== "" ? { semanticId: definition.$id } : {}),
    sortable,
    children: childrenOf(definition, schema),
  };
}

function convertV11(
  name: string,
  definition: Definition,
  pointer: string,
  nullable: boolean,
  report: Report,
): PropertyContract {
  for (const key of Object.keys(definition).sort()) {
    if (!V11_KEYS.has(key))
      report({
        pointer: `${pointer}/${encodePointerToken(key)}`,
        construct: "unknown-keyword",
        level: "partial",
        message: `property "${name}": "${key}" is not a v1.1 property definition key; it is ignored.`,
      });
  }
  const type = typeof definition.type === "string" ? definition.type : undefined;
  const jsonType = type === undefined ? undefined : JSON_TYPE_OF[type];
  const schema: Record<string, JsonValue> = {};
  if (jsonType === undefined) {
    report({
      pointer: `${pointer}/type`,
      construct: "untyped-property",
      level: "partial",
      message: `property "${name}" ${definition.type === undefined ? "declares no type" : 'has type "unknown"'}; any JSON value is accepted.`,
    });
  } else {
    schema.type = nullable ? [jsonType, "null"] : jsonType;
    schema["x-optimade-type"] = type as string;
  }
  if (typeof definition.description === "string") schema.description = definition.description;
  const unit =
    typeof definition.unit === "string" && definition.unit !== ""
      ? canonicalUnit(definition.unit)
      : undefined;
  const description = summary(definition.description);
  return {
    name,
    schema,
    ...(unit !== undefined ? { unit } : {}),
    ...(description !== undefined ? { description } : {}),
    sortable: definition.sortable === true,
    children: [],
  };
}

/** Keys of a dictionary property, or of the dictionaries a list property holds (one level). */
function childrenOf(definition: Definition, schema: JsonObject): ChildProperty[] {
  const items = isRecord(definition.items) ? definition.items : undefined;
  const throughList = items !== undefined && isRecord(items.properties);
  const holder = throughList ? items : definition;
  const holderSchema = throughList ? (schema.items as JsonObject) : schema;
  if (holder === undefined || !isRecord(holder.properties) || !isRecord(holderSchema.properties)) return [];
  const schemas = holderSchema.properties as JsonObject;
  return Object.keys(holder.properties)
    .sort()
    .map((key) => {
      const inner = (holder.properties as Definition)[key];
      const innerDefinition = isRecord(inner) ? inner : {};
      const unit = valueUnitOf(innerDefinition);
      const description = summary(innerDefinition.description) ?? summary(innerDefinition.title);
      return {
        key,
        throughList,
        schema: (schemas[key] ?? {}) as JsonObject,
        ...(unit !== undefined ? { unit } : {}),
        ...(description !== undefined ? { description } : {}),
      };
    });
}

/** The first paragraph of a description ("a one-line description, followed by a new paragraph"). */
function summary(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const first = text
    .split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, " ")
    .trim();
  return first === undefined || first === "" ? undefined : first;
}

function isRecord(value: unknown): value is Definition {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
