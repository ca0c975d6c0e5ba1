/**
 * `readOnly` and `writeOnly` (OpenAPI 3.0.3 §4.7.24, "readOnly": sent in a response, never in a
 * request; JSON Schema 2020-12 Validation §9.4 in 3.1): a request schema leaves out every `readOnly`
 * property (and no longer requires it), a response schema every `writeOnly` one. A shared definition
 * that has such a property somewhere beneath it gets a variant (`<name>.request` / `<name>.response`),
 * so the definition itself still serves the other direction unchanged (docs/sources/openapi.md).
 */
import type { JsonSchema } from "schemarouter/internal";
import { decodePointerToken, encodePointerToken } from "schemarouter/internal";
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_SINGLE } from "./schema-keywords.js";

type Node = Record<string, unknown>;
export type Direction = "request" | "response";

const HIDDEN: Readonly<Record<Direction, string>> = { request: "readOnly", response: "writeOnly" };
const DEF_PREFIX = "#/$defs/";

export class AccessDirections {
  private readonly variants = new Map<string, string>();
  private readonly affected = new Map<string, boolean>();

  constructor(
    private readonly defs: Record<string, JsonSchema>,
    /** Reserves a definition name not used yet, derived from `base`. */
    private readonly reserve: (base: string) => string,
  ) {}

  /** `schema` as it applies to one direction: hidden properties removed, refs to variants. */
  apply(schema: JsonSchema, direction: Direction): JsonSchema {
    return this.affects(schema, direction, new Set()) ? this.strip(schema, direction) : schema;
  }

  private strip(schema: unknown, direction: Direction): JsonSchema {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema as JsonSchema;
    const node = schema as Node;
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.$ref = this.variantRef(value, direction);
      else if (SUBSCHEMA_MAPS.includes(key) && isNode(value)) {
        const map: Node = Object.create(null) as Node;
        for (const [name, child] of Object.entries(value)) {
          if (key === "properties" && this.hidden(child, direction)) continue;
          map[name] = this.strip(child, direction);
        }
        out[key] = { ...map };
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value))
        out[key] = value.map((child) => this.strip(child, direction));
      else if (SUBSCHEMA_SINGLE.includes(key)) out[key] = this.strip(value, direction);
      else out[key] = value;
    }
    if (Array.isArray(node.required) && isNode(node.properties)) {
      const properties = node.properties;
      out.required = (node.required as unknown[]).filter(
        (name) => typeof name !== "string" || !this.hidden(properties[name], direction),
      );
    }
    return out as JsonSchema;
  }

  /** A property schema marked hidden for the direction (directly, or on the definition it names). */
  private hidden(schema: unknown, direction: Direction): boolean {
    if (!isNode(schema)) return false;
    if (schema[HIDDEN[direction]] === true) return true;
    const target = this.target(schema.$ref);
    return target !== undefined && isNode(target) && target[HIDDEN[direction]] === true;
  }

  private variantRef(ref: string, direction: Direction): string {
    const name = this.defName(ref);
    if (name === undefined || !this.affects(this.defs[name], direction, new Set([name]))) return ref;
    const key = `${direction}\u0000${name}`;
    let variant = this.variants.get(key);
    if (variant === undefined) {
      variant = this.reserve(`${name}.${direction}`);
      this.variants.set(key, variant);
      this.defs[variant] = {}; // placeholder: a recursive definition refers to its own variant
      this.defs[variant] = this.strip(this.defs[name], direction);
    }
    return `${DEF_PREFIX}${encodePointerToken(variant)}`;
  }

  /** Whether a hidden property exists anywhere beneath `schema` (through definitions too). */
  private affects(schema: unknown, direction: Direction, visiting: Set<string>): boolean {
    if (Array.isArray(schema)) return schema.some((child) => this.affects(child, direction, visiting));
    if (!isNode(schema)) return false;
    if (isNode(schema.properties))
      for (const child of Object.values(schema.properties)) if (this.hidden(child, direction)) return true;
    const name = this.defName(schema.$ref);
    if (name !== undefined) {
      const key = `${direction}\u0000${name}`;
      const known = this.affected.get(key);
      if (known !== undefined) return known;
      if (!visiting.has(name)) {
        visiting.add(name);
        const result = this.affects(this.defs[name], direction, visiting);
        visiting.delete(name);
        this.affected.set(key, result);
        if (result) return true;
      }
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref") continue;
      if (SUBSCHEMA_MAPS.includes(key) && isNode(value)) {
        if (Object.values(value).some((child) => this.affects(child, direction, visiting))) return true;
      } else if (
        (SUBSCHEMA_LISTS.includes(key) || SUBSCHEMA_SINGLE.includes(key)) &&
        this.affects(value, direction, visiting)
      )
        return true;
    }
    return false;
  }

  private defName(ref: unknown): string | undefined {
    if (typeof ref !== "string" || !ref.startsWith(DEF_PREFIX)) return undefined;
    const name = decodePointerToken(ref.slice(DEF_PREFIX.length));
    return Object.hasOwn(this.defs, name) ? name : undefined;
  }

  private target(ref: unknown): JsonSchema | undefined {
    const name = this.defName(ref);
    return name === undefined ? undefined : this.defs[name];
  }
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
