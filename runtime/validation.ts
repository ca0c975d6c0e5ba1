/**
 * JSON Schema (2020-12) validation with ajv. Validators are compiled lazily, once per schema object,
 * and cached for the lifetime of the validator set (one per router).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./model.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface SchemaViolation {
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
}

export class ValidatorSet {
  private readonly ajv: Ajv2020;
  private readonly cache = new WeakMap<object, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, logger: false });
    addFormats(this.ajv);
  }

  /** Returns the violations of `value` against `schema` (empty when valid). */
  validate(schema: JsonSchema, value: unknown): SchemaViolation[] {
    if (schema === true) return [];
    if (schema === false) return [{ pointer: "", keyword: "false", message: "no value is allowed" }];
    let validator = this.cache.get(schema);
    if (validator === undefined) {
      validator = this.ajv.compile(schema as object);
      this.cache.set(schema, validator);
    }
    if (validator(value)) return [];
    return (validator.errors ?? []).map(toViolation);
  }
}

function toViolation(error: ErrorObject): SchemaViolation {
  return {
    pointer: error.instancePath,
    keyword: error.keyword,
    message: `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`,
  };
}
