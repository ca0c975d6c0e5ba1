/**
 * JSON Schema (2020-12) validation with ajv. Validators are compiled lazily, once per schema object,
 * and cached for the lifetime of the validator set (one per router). ajv itself is loaded on the first
 * validation, so loading a router (or a no-op compile) does not pay for it.
 */
import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { JsonSchema } from "../model/specs.js";
import { addLinearFormats, addLinearUniqueItems } from "./formats.js";
import { linearRegExp } from "./regexp.js";

type AjvModule = typeof import("ajv/dist/2020.js");

/**
 * The validation options every validator shares (the build's precompiled config validator too). At run
 * time `code` adds RE2 patterns and turns ajv's optimizer pass off: that halves compile time, and V8
 * makes the generated code as fast either way.
 */
export const AJV_OPTIONS = Object.freeze({
  strict: false,
  allErrors: false,
  validateSchema: false,
  logger: false,
});

/**
 * An ajv instance with the runtime's validation settings. ajv and ajv-formats are CommonJS: loaded
 * synchronously on first use. The compiler checks documented response examples with it
 * (docs/sources/openapi-overlays.md), so they are judged exactly as responses are.
 */
export function createAjv(sharing: { readonly inlineRefs?: boolean } = {}): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require("ajv/dist/2020.js") as AjvModule;
  // `inlineRefs: false` (one function per referenced schema) changes how code is shared, never a result.
  const ajv = new Ajv({ ...AJV_OPTIONS, ...sharing, code: { optimize: false, regExp: linearRegExp } });
  addLinearFormats(ajv);
  addLinearUniqueItems(ajv);
  return ajv;
}

export interface SchemaViolation {
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
}

export class ValidatorSet {
  private ajv: Ajv2020 | undefined;
  private readonly cache = new WeakMap<object, SchemaCheck>();

  /** Returns the violations of `value` against `schema` (empty when valid). */
  validate(schema: JsonSchema, value: unknown): SchemaViolation[] {
    return this.checkOf(schema)(value);
  }

  /**
   * The check of `schema`: a function returning the violations of a value (empty when valid). Its
   * ajv validator is compiled here, once per schema object; a caller that keeps the check (a call
   * plan, runtime/boundary/call-plan.ts) looks nothing up per value.
   */
  checkOf(schema: JsonSchema): SchemaCheck {
    if (schema === true) return noViolations;
    if (schema === false) return nothingAllowed;
    let check = this.cache.get(schema);
    if (check === undefined) {
      this.ajv ??= createAjv();
      check = checkWith(this.ajv.compile(schema as object));
      this.cache.set(schema, check);
    }
    return check;
  }
}

/** What a compiled schema check returns for a value: its violations, empty when it is valid. */
export type SchemaCheck = (value: unknown) => SchemaViolation[];

const noViolations: SchemaCheck = () => [];
const nothingAllowed: SchemaCheck = () => [{ pointer: "", keyword: "false", message: "no value is allowed" }];

function checkWith(validator: ValidateFunction): SchemaCheck {
  return (value) => {
    if (!validator(value)) return (validator.errors ?? []).map(toViolation);
    // ajv's number and integer checks accept Infinity and NaN, which JSON cannot carry: a response
    // number that overflowed to Infinity (`1e999`) must not pass, nor be projected. The walk that
    // names where is made only for a value that fails the quick one.
    if (finiteAndShallow(value, 0)) return [];
    const found = nonFiniteOrTooDeep(value);
    if (found === undefined) return [];
    return [
      found.kind === "depth"
        ? {
            pointer: found.pointer,
            keyword: "maxDepth",
            message: `${found.pointer} is nested deeper than ${MAX_VALUE_DEPTH} levels; such values are refused`,
          }
        : {
            pointer: found.pointer,
            keyword: "type",
            message: `${found.pointer || "(root)"} must be a finite number (JSON has no Infinity or NaN)`,
          },
    ];
  };
}

/**
 * Deepest nesting a validated value may have. Deeper JSON parses, but copying, freezing or projecting
 * it recursively would overflow the call stack (a crash instead of a refusal).
 */
export const MAX_VALUE_DEPTH = 512;

/**
 * Whether every number in `value` is finite and no container is nested deeper than MAX_VALUE_DEPTH:
 * the check of nonFiniteOrTooDeep without building a pointer per member. Recursion is bounded by
 * MAX_VALUE_DEPTH (a deeper value returns false before going further).
 */
function finiteAndShallow(value: unknown, depth: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value === null || typeof value !== "object") return true;
  if (depth >= MAX_VALUE_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === "object" || typeof item === "number") {
        if (!finiteAndShallow(item, depth + 1)) return false;
      }
    }
    return true;
  }
  // The own enumerable values, as `for…in` with an own-key check yields them, in one builtin call
  // (about half the time on a 2 KB record).
  const values = Object.values(value);
  for (let index = 0; index < values.length; index++) {
    const item: unknown = values[index];
    if (typeof item === "object" || typeof item === "number") {
      if (!finiteAndShallow(item, depth + 1)) return false;
    }
  }
  return true;
}

/**
 * The first non-finite number in `value`, or the first container nested deeper than MAX_VALUE_DEPTH,
 * with its JSON Pointer; undefined when there is neither. Iterative: any depth is walked safely.
 */
function nonFiniteOrTooDeep(value: unknown): { kind: "finite" | "depth"; pointer: string } | undefined {
  const pending: [unknown, string, number][] = [[value, "", 0]];
  while (pending.length > 0) {
    const [current, at, depth] = pending.pop()!;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return { kind: "finite", pointer: at };
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_VALUE_DEPTH) return { kind: "depth", pointer: at };
    const push = (item: unknown, key: string) => {
      if (typeof item === "number" ? !Number.isFinite(item) : item !== null && typeof item === "object")
        pending.push([item, `${at}/${key}`, depth + 1]);
    };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) push(current[index], String(index));
      continue;
    }
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) push(record[key], key.replace(/~/g, "~0").replace(/\//g, "~1"));
  }
  return undefined;
}

export function toViolation(error: ErrorObject): SchemaViolation {
  return {
    pointer: error.instancePath,
    keyword: error.keyword,
    message: `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`,
  };
}
