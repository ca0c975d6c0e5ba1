/**
 * Declared types of the properties a filter may name, as OPTIMADE data types ("Data types"), and
 * how a (nested) property path resolves against them ("Nested property names": a path through a
 * list of dictionaries is a flattened list). Built from `/info/<entry_type>` property definitions
 * in either the v1.2 form (`x-optimade-type`, nested `items`/`properties`) or the v1.1 form
 * (`type` as a string).
 */

export type OptimadeType = "string" | "integer" | "float" | "boolean" | "timestamp" | "list" | "dictionary";

export interface FilterPropertyType {
  /** An OPTIMADE data type, or a namespace-specific type such as `_exmpl_set` (not type-checked). */
  readonly type: OptimadeType | `_${string}`;
  /** Item type of a list (v1.2 `items`). */
  readonly items?: FilterPropertyType;
  /** Keys of a dictionary (v1.2 `properties`). */
  readonly properties?: Readonly<Record<string, FilterPropertyType>>;
}

export type FilterPropertyTypes = Readonly<Record<string, FilterPropertyType>>;

export interface ResolvedPropertyType {
  /** Whether the first identifier is a declared property. */
  readonly declared: boolean;
  /** The type reached by the path (for a flattened path: the type of one flattened item). */
  readonly type: FilterPropertyType | undefined;
  /** The path walked through a list of dictionaries, so its value is a flattened list. */
  readonly flattened: boolean;
}

const OPTIMADE_TYPES: readonly string[] = [
  "string",
  "integer",
  "float",
  "boolean",
  "timestamp",
  "list",
  "dictionary",
];

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asType(value: unknown): FilterPropertyType["type"] | undefined {
  if (typeof value !== "string") return undefined;
  if (OPTIMADE_TYPES.includes(value)) return value as OptimadeType;
  return value.startsWith("_") ? (value as `_${string}`) : undefined;
}

/**
 * The filter type of one property definition (v1.2 or v1.1 form), or `undefined` when the
 * definition states no usable type (v1.1 `type` is optional; `unknown` says nothing).
 */
export function filterTypeOfDefinition(definition: unknown): FilterPropertyType | undefined {
  if (!isRecord(definition)) return undefined;
  const type = asType(definition["x-optimade-type"]) ?? asType(definition.type);
  if (type === undefined) return undefined;
  const items = type === "list" ? filterTypeOfDefinition(definition.items) : undefined;
  let properties: Record<string, FilterPropertyType> | undefined;
  if (type === "dictionary" && isRecord(definition.properties)) {
    properties = {};
    for (const [key, inner] of Object.entries(definition.properties)) {
      const innerType = filterTypeOfDefinition(inner);
      if (innerType !== undefined) properties[key] = innerType;
    }
  }
  return {
    type,
    ...(items === undefined ? {} : { items }),
    ...(properties === undefined ? {} : { properties }),
  };
}

/** Filter types for every property of an `/info/<entry_type>` `properties` object. */
export function filterTypesOfDefinitions(
  definitions: Readonly<Record<string, unknown>>,
): FilterPropertyTypes {
  const types: Record<string, FilterPropertyType> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const type = filterTypeOfDefinition(definition);
    if (type !== undefined) types[name] = type;
  }
  return types;
}

function stripLists(type: FilterPropertyType | undefined): FilterPropertyType | undefined {
  let current = type;
  while (current?.type === "list") current = current.items;
  return current;
}

/** How `path` resolves against the declared types. */
export function resolvePropertyType(
  types: FilterPropertyTypes,
  path: readonly string[],
): ResolvedPropertyType {
  const [first, ...rest] = path;
  let current = first === undefined ? undefined : types[first];
  const declared = current !== undefined;
  let flattened = false;
  for (const segment of rest) {
    if (current?.type === "list") {
      flattened = true;
      current = stripLists(current);
    }
    current = current?.type === "dictionary" ? current.properties?.[segment] : undefined;
  }
  return { declared, type: flattened ? stripLists(current) : current, flattened };
}
