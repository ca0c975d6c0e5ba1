/**
 * Judges a value against a schema the subset covers (subset.ts) the way the runtime's ajv does
 * (docs/sources/openapi-overlays.md, "Examples checked at compile"): the same keyword semantics, the
 * same equality (ajv's own `equal`), string length (ajv's own `ucs2length`), patterns (the runtime's
 * linear-time matchers), formats (the runtime's definitions) and uniqueItems (the runtime's check).
 * The answer is true or false, or undefined where it would have to reason about a value ajv sees
 * differently from JSON (an inherited property) or nesting past a bound: then ajv decides.
 */
import { createRequire } from "node:module";
import type { JsonSchema } from "schemarouter/internal";
import { firstDuplicateItem, linearFormatDefinitions } from "schemarouter/internal";
import { hasType, isObject, type PatternMatchers, referencedDefinition } from "./subset.js";

type Node = Record<string, unknown>;
type Verdict = boolean | undefined;

/** `$ref`s and subschemas followed for one value before ajv is asked instead (a recursive schema). */
const MAX_EVALUATION_DEPTH = 256;

interface AjvRuntime {
  readonly equal: (a: unknown, b: unknown) => boolean;
  readonly ucs2length: (text: string) => number;
}

let runtime: AjvRuntime | undefined;

/** ajv's runtime helpers, the functions its generated code calls (loaded on first use). */
function ajvRuntime(): AjvRuntime {
  if (runtime === undefined) {
    const require = createRequire(import.meta.url);
    runtime = {
      equal: (require("ajv/dist/runtime/equal") as { default: AjvRuntime["equal"] }).default,
      ucs2length: (require("ajv/dist/runtime/ucs2length") as { default: AjvRuntime["ucs2length"] }).default,
    };
  }
  return runtime;
}

export interface EvaluationContext {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  readonly patterns: PatternMatchers;
}

/** Whether `value` satisfies the covered `schema`; undefined when only ajv can say. */
export function evaluate(schema: JsonSchema, value: unknown, context: EvaluationContext): Verdict {
  return new Evaluation(context).schema(schema, value, 0);
}

class Evaluation {
  private readonly helpers = ajvRuntime();
  private readonly formats = linearFormatDefinitions();

  constructor(private readonly context: EvaluationContext) {}

  schema(schema: unknown, data: unknown, depth: number): Verdict {
    if (schema === true) return true;
    if (schema === false) return false;
    if (depth > MAX_EVALUATION_DEPTH) return undefined;
    const node = schema as Node;
    let verdict: Verdict = true;
    // Every keyword must pass; a definite failure wins over an undecided keyword.
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (value === undefined) continue;
      const result = this.keyword(key, value, node, data, depth);
      if (result === false) return false;
      if (result === undefined) verdict = undefined;
    }
    return verdict;
  }

  private all(results: Iterable<Verdict>): Verdict {
    let verdict: Verdict = true;
    for (const result of results) {
      if (result === false) return false;
      if (result === undefined) verdict = undefined;
    }
    return verdict;
  }

  private keyword(key: string, value: unknown, node: Node, data: unknown, depth: number): Verdict {
    const next = depth + 1;
    switch (key) {
      case "$ref":
        return this.schema(this.context.defs[referencedDefinition(value as string)], data, next);
      case "type":
        return (typeof value === "string" ? [value] : (value as string[])).some((type) =>
          hasType(data, type),
        );
      case "enum":
        return (value as unknown[]).some((member) => this.helpers.equal(data, member));
      case "const":
        return this.helpers.equal(data, value);
      case "allOf":
        return this.all((value as unknown[]).map((child) => this.schema(child, data, next)));
      case "anyOf":
        return this.anyOf(value as unknown[], data, next);
      case "oneOf":
        return this.oneOf(value as unknown[], data, next);
      case "not": {
        const inner = this.schema(value, data, next);
        return inner === undefined ? undefined : !inner;
      }
      case "if":
        return this.conditional(value, node, data, next);
      case "format":
        return this.format(value as string, data);
      default:
        return this.typed(key, value, node, data, next);
    }
  }

  private anyOf(branches: readonly unknown[], data: unknown, depth: number): Verdict {
    let verdict: Verdict = false;
    for (const branch of branches) {
      const result = this.schema(branch, data, depth);
      if (result === true) return true;
      if (result === undefined) verdict = undefined;
    }
    return verdict;
  }

  private oneOf(branches: readonly unknown[], data: unknown, depth: number): Verdict {
    let passed = 0;
    for (const branch of branches) {
      const result = this.schema(branch, data, depth);
      if (result === undefined) return undefined;
      if (result) passed++;
    }
    return passed === 1;
  }

  /** `if` / `then` / `else`: without `then` and `else`, ajv ignores `if`. */
  private conditional(condition: unknown, node: Node, data: unknown, depth: number): Verdict {
    if (node.then === undefined && node.else === undefined) return true;
    const holds = this.schema(condition, data, depth);
    if (holds === undefined) return undefined;
    const branch = holds ? node.then : node.else;
    return branch === undefined ? true : this.schema(branch, data, depth);
  }

  /** ajv's format keyword: a known format applies to values of its type; an unknown one is ignored. */
  private format(name: string, data: unknown): Verdict {
    if (!this.formats.has(name)) return true;
    const definition = this.formats.get(name);
    if (definition === true) return true;
    const described = typeof definition === "object" && !(definition instanceof RegExp);
    if (described && (definition as { async?: unknown }).async) return undefined;
    const type = described ? ((definition as { type?: string }).type ?? "string") : "string";
    // ajv applies a format in the rule group of its type, "string" or "number" (integers included).
    if ((type !== "string" && type !== "number") || typeof data !== type) return true;
    if (described) {
      const check = (definition as { validate: unknown }).validate;
      return typeof check === "function"
        ? Boolean((definition as { validate: (value: unknown) => unknown }).validate(data))
        : (check as RegExp).test(data as string);
    }
    return typeof definition === "function"
      ? Boolean((definition as (value: unknown) => unknown)(data))
      : (definition as RegExp).test(data as string);
  }

  /** The keywords that apply to one JSON type only; any other type passes them. */
  private typed(key: string, value: unknown, node: Node, data: unknown, depth: number): Verdict {
    switch (key) {
      case "maximum":
        return typeof data !== "number" || !(data > (value as number));
      case "minimum":
        return typeof data !== "number" || !(data < (value as number));
      case "exclusiveMaximum":
        return typeof data !== "number" || !(data >= (value as number));
      case "exclusiveMinimum":
        return typeof data !== "number" || !(data <= (value as number));
      case "multipleOf": {
        if (typeof data !== "number") return true;
        const divisor = value as number;
        if (divisor === 0) return false;
        const quotient = data / divisor;
        return quotient === Number.parseInt(String(quotient), 10);
      }
      case "maxLength":
        return typeof data !== "string" || !(this.helpers.ucs2length(data) > (value as number));
      case "minLength":
        return typeof data !== "string" || !(this.helpers.ucs2length(data) < (value as number));
      case "pattern":
        return typeof data !== "string" || this.context.patterns.matcher(value as string)!.test(data);
      case "maxItems":
        return !Array.isArray(data) || !(data.length > (value as number));
      case "minItems":
        return !Array.isArray(data) || !(data.length < (value as number));
      case "uniqueItems":
        return !Array.isArray(data) || value === false || firstDuplicateItem(data) === undefined;
      case "items":
        return !Array.isArray(data) ? true : this.all(data.map((item) => this.schema(value, item, depth)));
      case "maxProperties":
        return !isObject(data) || !(Object.keys(data).length > (value as number));
      case "minProperties":
        return !isObject(data) || !(Object.keys(data).length < (value as number));
      case "required":
        // ajv: a property is present when reading it gives anything but undefined.
        return !isObject(data) || (value as string[]).every((name) => data[name] !== undefined);
      case "properties":
        return !isObject(data) ? true : this.properties(value as Node, data, depth);
      case "additionalProperties":
        return !isObject(data) ? true : this.additional(value, node, data, depth);
      default:
        // `then` / `else` (judged with `if`) and the keywords ajv ignores.
        return true;
    }
  }

  private properties(properties: Node, data: Node, depth: number): Verdict {
    let verdict: Verdict = true;
    for (const name of Object.keys(properties)) {
      const item = data[name];
      if (item === undefined) continue;
      // ajv reads `data[name]`: an inherited member (`constructor`) would be validated too.
      if (!Object.hasOwn(data, name)) return undefined;
      const result = this.schema(properties[name], item, depth);
      if (result === false) return false;
      if (result === undefined) verdict = undefined;
    }
    return verdict;
  }

  private additional(schema: unknown, node: Node, data: Node, depth: number): Verdict {
    const declared = isObject(node.properties) ? node.properties : {};
    let verdict: Verdict = true;
    // ajv loops `for (key in data)` and asks whether `properties` declares the key.
    for (const key in data) {
      if (Object.hasOwn(declared, key)) continue;
      const result = this.schema(schema, data[key], depth);
      if (result === false) return false;
      if (result === undefined) verdict = undefined;
    }
    return verdict;
  }
}
