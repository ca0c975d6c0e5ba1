/**
 * The schemas the example check's quick path may judge (docs/sources/openapi-overlays.md, "Examples
 * checked at compile"): a schema is covered when it and every definition it reaches use only keywords
 * the evaluator (evaluate.ts) implements, each with a value ajv compiles (its `schemaType`, a non-empty
 * `enum`, JSON type names, patterns the linear-time engine runs, `$ref`s to a definition of the same
 * root). For a covered schema ajv's compile cannot fail, so its "example-unchecked" finding cannot be
 * missed; anything else is left to ajv.
 */
import type { JsonSchema, PatternMatcher } from "schemarouter/internal";
import { compilePattern } from "schemarouter/internal";
import { ajvKnows, EVALUATED, IGNORED } from "./ajv-keywords.js";

type Node = Record<string, unknown>;

const JSON_TYPES: ReadonlySet<string> = new Set([
  "string",
  "number",
  "integer",
  "boolean",
  "null",
  "object",
  "array",
]);
/** Nesting the quick path walks within one schema; deeper schemas are left to ajv. */
const MAX_SCHEMA_DEPTH = 64;
/** The references the quick path follows: a definition of the root's `$defs`, named plainly. */
const DEFINITION_REF = /^#\/\$defs\/([A-Za-z0-9_.-]+)$/;

/** The definition a covered `$ref` names. */
export function referencedDefinition(ref: string): string {
  return DEFINITION_REF.exec(ref)![1]!;
}

/** Patterns compiled once per source: the linear-time matcher, or null when it does not compile. */
export class PatternMatchers {
  private readonly compiled = new Map<string, PatternMatcher | null>();

  matcher(pattern: string): PatternMatcher | undefined {
    let matcher = this.compiled.get(pattern);
    if (matcher === undefined) {
      try {
        matcher = compilePattern(pattern);
      } catch {
        matcher = null;
      }
      this.compiled.set(pattern, matcher);
    }
    return matcher ?? undefined;
  }
}

interface Local {
  readonly covered: boolean;
  /** The definitions the schema references (not followed further). */
  readonly refs: readonly string[];
}

export class SchemaSubset {
  private readonly definitions = new Map<string, Local>();
  private readonly closures = new WeakMap<object, boolean>();

  constructor(
    readonly defs: Readonly<Record<string, JsonSchema>>,
    readonly patterns: PatternMatchers,
  ) {}

  /** Whether `schema` and every definition it reaches are covered. */
  covers(schema: JsonSchema): boolean {
    if (typeof schema === "boolean") return true;
    const known = this.closures.get(schema);
    if (known !== undefined) return known;
    const refs: string[] = [];
    let covered = this.node(schema, refs, 0);
    const seen = new Set<string>();
    while (covered && refs.length > 0) {
      const name = refs.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const local = this.definition(name);
      covered = local.covered;
      refs.push(...local.refs);
    }
    this.closures.set(schema, covered);
    return covered;
  }

  private definition(name: string): Local {
    let local = this.definitions.get(name);
    if (local === undefined) {
      const refs: string[] = [];
      local = { covered: this.node(this.defs[name], refs, 0), refs };
      this.definitions.set(name, local);
    }
    return local;
  }

  private node(schema: unknown, refs: string[], depth: number): boolean {
    if (schema === true || schema === false) return true;
    if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return false;
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      if (value === undefined || !ajvKnows(key) || IGNORED.has(key)) continue;
      if (!EVALUATED.has(key) || !this.keyword(key, value, refs, depth)) return false;
    }
    return true;
  }

  private keyword(key: string, value: unknown, refs: string[], depth: number): boolean {
    const sub = (child: unknown) => this.node(child, refs, depth + 1);
    switch (key) {
      case "$ref": {
        const match = typeof value === "string" ? DEFINITION_REF.exec(value) : null;
        const name = match?.[1];
        if (name === undefined || name === "__proto__" || !Object.hasOwn(this.defs, name)) return false;
        refs.push(name);
        return true;
      }
      case "type":
        return typeof value === "string"
          ? JSON_TYPES.has(value)
          : Array.isArray(value) &&
              value.length > 0 &&
              value.every((type) => typeof type === "string" && JSON_TYPES.has(type));
      case "enum":
        return Array.isArray(value) && value.length > 0;
      case "const":
        return true;
      case "properties":
        return isObject(value) && !Object.hasOwn(value, "__proto__") && Object.values(value).every(sub);
      case "allOf":
      case "anyOf":
      case "oneOf":
        return Array.isArray(value) && value.length > 0 && value.every(sub);
      case "additionalProperties":
      case "items":
      case "not":
      case "if":
      case "then":
      case "else":
        return sub(value);
      case "pattern":
        return typeof value === "string" && this.patterns.matcher(value) !== undefined;
      case "format":
        return typeof value === "string";
      case "required":
        return Array.isArray(value) && value.every((name) => typeof name === "string");
      case "uniqueItems":
        return typeof value === "boolean";
      default:
        // The numeric limits: minimum … multipleOf, min/maxLength, min/maxItems, min/maxProperties.
        return typeof value === "number";
    }
  }
}

export function isObject(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** ajv's type check of one JSON type (no coercion). */
export function hasType(data: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return data === null;
    case "array":
      return Array.isArray(data);
    case "object":
      return isObject(data);
    case "integer":
      return typeof data === "number" && !(data % 1) && !Number.isNaN(data);
    default:
      return typeof data === type;
  }
}
