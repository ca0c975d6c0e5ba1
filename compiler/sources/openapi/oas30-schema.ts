/**
 * OpenAPI 3.0 Schema Object → JSON Schema 2020-12 keywords.
 * Spec: OpenAPI 3.0.3 §4.7.24 (Schema Object, https://spec.openapis.org/oas/v3.0.3#schema-object):
 * `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, and the keywords JSON Schema validation
 * does not use (discriminator, readOnly, writeOnly, xml, externalDocs, example, deprecated); §4.4
 * (Data Types) for the `int32`, `int64`, `float`, `double` and `byte` formats.
 *
 * The output is what @openapi-contrib/openapi-schema-to-json-schema 5.1.0 gives (`fromSchema` with
 * `strictMode: false`, `supportPatternProperties: true`) after this project's fixes for untyped
 * `nullable` and boolean bounds; test/compiler/sources/openapi/oas30-schema.test.ts compares the
 * two and names every difference.
 */
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_SINGLE } from "./schema-keywords.js";

type Node = Record<string, unknown>;

/** Schema Object keywords with no JSON Schema validation meaning: dropped. */
const DROPPED = [
  "nullable",
  "discriminator",
  "readOnly",
  "writeOnly",
  "xml",
  "externalDocs",
  "example",
  "deprecated",
];

const ACCESS = ["readOnly", "writeOnly"];

/** The subschema keywords of §4.7.24 besides `properties`; entries that are not objects are dropped. */
const OAS30_SUBSCHEMAS = new Set(["allOf", "anyOf", "oneOf", "not", "items", "additionalProperties"]);
const SUBSCHEMA_MAP_KEYS: ReadonlySet<string> = new Set(SUBSCHEMA_MAPS);
const SUBSCHEMA_OTHER_KEYS: ReadonlySet<string> = new Set([...SUBSCHEMA_LISTS, ...SUBSCHEMA_SINGLE]);

/** §4.4 numeric formats → the range they imply, written as `minimum`/`maximum` when wider or absent. */
const FORMAT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
  float: [-(2 ** 128), 2 ** 128 - 1],
  double: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

/** `format: byte` (standard base64, RFC 4648 §4) as the `pattern` it implies. */
const BYTE_PATTERN = "^[\\w\\d+\\/=]*$";

/**
 * Converts one OAS 3.0 Schema Object tree. The input is not modified and not copied first: every
 * schema node of the output is a new object, and values that are data, not schemas (`enum`,
 * `default`, `required`, …), are shared with the input, which nothing downstream modifies.
 * `keepAccess`: keep `readOnly`/`writeOnly` (JSON Schema 2020-12 annotations too), which the compiler
 * needs to tell request from response properties (./read-write-only.ts); the library drops them.
 * `keepDiscriminator`: keep `discriminator`, which ./discriminator.ts turns into dispatching validation.
 */
export function convertOas30Schema(
  schema: Node,
  options: { keepAccess?: boolean; keepDiscriminator?: boolean } = {},
): Node {
  const dropped = DROPPED.filter(
    (key) =>
      !(options.keepAccess === true && ACCESS.includes(key)) &&
      !(options.keepDiscriminator === true && key === "discriminator"),
  );
  const converted = convertNode(schema, dropped);
  delete converted.$schema; // not an OAS 3.0 keyword; the artifact declares the dialect
  return converted;
}

function convertNode(node: Node, dropped: readonly string[]): Node {
  if (node.nullable === true && node.type === undefined) {
    // `nullable` without `type` (next to a $ref, oneOf, …): the schema, or null.
    const { nullable: _nullable, ...rest } = node;
    return { anyOf: [convertNode(rest, dropped), { type: "null" }] };
  }
  const subschema = (value: unknown): unknown => (isRecord(value) ? convertNode(value, dropped) : value);
  // One loop, no entry arrays: this runs for every schema node of a document.
  const out: Node = {};
  for (const key of Object.keys(node)) {
    const value = node[key];
    let converted: unknown = value;
    if (OAS30_SUBSCHEMAS.has(key)) {
      if (value === null) continue;
      converted = Array.isArray(value) ? value.filter(isObject).map(subschema) : subschema(value);
    } else if (key === "properties") converted = isObject(value) ? mapValues(value, subschema, isObject) : {};
    else if (SUBSCHEMA_MAP_KEYS.has(key) || key === "x-patternProperties")
      converted = isRecord(value) ? mapValues(value, subschema) : value;
    else if (SUBSCHEMA_OTHER_KEYS.has(key))
      converted = Array.isArray(value) ? value.map(subschema) : subschema(value);
    define(out, key, converted);
  }
  if (isObject(out.properties)) {
    const properties = out.properties;
    if (Array.isArray(out.required)) {
      // A required name without a property is dropped with it (the library's rule).
      const required = out.required.filter((name) => Object.hasOwn(properties, String(name)));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    if (Object.keys(properties).length === 0) delete out.properties;
  }
  if (out.nullable === true) {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  applyFormat(out);
  if ("x-patternProperties" in out) {
    // The library's extension for JSON Schema's patternProperties (absent from OAS 3.0).
    const patterns = out["x-patternProperties"];
    delete out["x-patternProperties"];
    if (isObject(patterns)) out.patternProperties = patterns;
    const additional = out.additionalProperties;
    if (isObject(additional) && isObject(out.patternProperties)) {
      if (Object.values(out.patternProperties).some((schema) => sameJson(schema, additional)))
        out.additionalProperties = false;
    }
  }
  for (const keyword of dropped) delete out[keyword];
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    // Draft-04 boolean flag → the 2020-12 number: `minimum: 5, exclusiveMinimum: true` → `exclusiveMinimum: 5`.
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}

function applyFormat(out: Node): void {
  const format = out.format;
  if (format === "byte") out.pattern = BYTE_PATTERN;
  if (typeof format !== "string" || !Object.hasOwn(FORMAT_RANGES, format)) return;
  const [lower, upper] = FORMAT_RANGES[format]!;
  // A bound is kept when it is 0 or any other truthy value within the range (the library's test).
  const minimum = out.minimum as number;
  if ((!minimum && minimum !== 0) || minimum < lower) out.minimum = lower;
  const maximum = out.maximum as number;
  if ((!maximum && maximum !== 0) || maximum > upper) out.maximum = upper;
}

function mapValues(
  map: object,
  convert: (value: unknown) => unknown,
  keep: (value: unknown) => boolean = () => true,
): Node {
  const out: Node = {};
  for (const name of Object.keys(map)) {
    const value = (map as Node)[name];
    if (keep(value)) define(out, name, convert(value));
  }
  return out;
}

/** Sets an own property; one named `__proto__` stays a property (never the prototype). */
function define(target: Node, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === "object";
}

function isRecord(value: unknown): value is Node {
  return isObject(value) && !Array.isArray(value);
}

/** Structural equality of JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Node)[key], (b as Node)[key]))
  );
}
