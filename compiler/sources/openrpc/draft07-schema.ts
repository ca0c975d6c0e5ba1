/**
 * OpenRPC schemas are JSON Schema draft-07 (the meta-schema's dialect); artifacts hold 2020-12
 * (docs/sources/openrpc.md "Schemas"). The keywords whose meaning changed are rewritten: an array
 * `items` becomes `prefixItems` (and `additionalItems` then becomes `items`); `dependencies` splits
 * into `dependentRequired` / `dependentSchemas`. Everything else means the same in both.
 */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Keys whose values are data, never schemas. */
const DATA_KEYS = new Set(["const", "default", "enum", "examples", "example"]);

/** A draft-07 schema as 2020-12 (a new value; `schema` is not changed). Iterative depth is bounded by the loader. */
export function draft07ToJsonSchema2020(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(draft07ToJsonSchema2020);
  if (!isNode(schema)) return schema;
  const out: Node = {};
  const set = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYS.has(key)) set(key, value);
    else if (key === "items" && Array.isArray(value)) set("prefixItems", value.map(draft07ToJsonSchema2020));
    else if (key === "additionalItems") {
      if (Array.isArray(schema.items)) set("items", draft07ToJsonSchema2020(value));
      // Without an array `items`, additionalItems has no effect in draft-07: dropped.
    } else if (key === "dependencies" && isNode(value)) {
      const required: Node = {};
      const schemas: Node = {};
      for (const [name, dependency] of Object.entries(value)) {
        if (Array.isArray(dependency)) required[name] = dependency;
        else schemas[name] = draft07ToJsonSchema2020(dependency);
      }
      if (Object.keys(required).length > 0) set("dependentRequired", required);
      if (Object.keys(schemas).length > 0) set("dependentSchemas", schemas);
    } else if (
      isNode(value) &&
      (key === "properties" || key === "patternProperties" || key === "definitions" || key === "$defs")
    ) {
      const map: Node = {};
      for (const [name, child] of Object.entries(value))
        Object.defineProperty(map, name, {
          value: draft07ToJsonSchema2020(child),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      set(key, map);
    } else set(key, draft07ToJsonSchema2020(value));
  }
  return out;
}
