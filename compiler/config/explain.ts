/**
 * Config mistakes in a user's words: which key is not allowed (and the nearest allowed one), which
 * values a key takes, and the line of the config file it is on (docs/common-mistakes.md).
 */
import type { SchemaViolation } from "schemarouter/internal";
import { nearestNames } from "schemarouter/internal";
import { CONFIG_SCHEMA } from "./schema.js";

type Schema = Readonly<Record<string, unknown>>;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function segments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The schemas that apply to `value`: `schema` plus the `then` of every `allOf` branch whose `if` const matches. */
function applicable(schema: Schema, value: unknown): Schema[] {
  const out = [schema];
  for (const branch of (schema.allOf as Schema[] | undefined) ?? []) {
    const test = (branch.if as Schema | undefined)?.properties as Record<string, Schema> | undefined;
    const matches =
      test !== undefined &&
      isRecord(value) &&
      Object.entries(test).every(([key, cond]) => value[key] === cond.const);
    if (matches && isRecord(branch.then)) out.push(branch.then);
    else if (test === undefined) out.push(branch);
  }
  return out;
}

/** The schemas of the value at `pointer` (with that value), or undefined when the walk leaves the schema. */
function resolve(pointer: string, config: unknown): { schemas: Schema[]; value: unknown } | undefined {
  let schemas: Schema[] = applicable(CONFIG_SCHEMA as unknown as Schema, config);
  let value = config;
  for (const segment of segments(pointer)) {
    const next: Schema[] = [];
    for (const schema of schemas) {
      const properties = schema.properties as Record<string, Schema> | undefined;
      if (properties?.[segment] !== undefined) next.push(properties[segment]);
      else if (isRecord(schema.additionalProperties)) next.push(schema.additionalProperties);
      else if (isRecord(schema.items)) next.push(schema.items);
    }
    value = Array.isArray(value) ? value[Number(segment)] : isRecord(value) ? value[segment] : undefined;
    if (next.length === 0) return undefined;
    schemas = next.flatMap((schema) => applicable(schema, value));
  }
  return { schemas, value };
}

/** The 1-based line of the key or value at `pointer` in the config text, when it can be found. */
export function lineOf(text: string | undefined, pointer: string, key?: string): number | undefined {
  if (text === undefined) return undefined;
  let at = 0;
  for (const segment of [...segments(pointer), ...(key !== undefined ? [key] : [])]) {
    if (/^\d+$/.test(segment)) continue;
    const found = text
      .slice(at)
      .search(new RegExp(`"${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:`));
    if (found < 0) return undefined;
    at += found + 1;
  }
  return at === 0 ? undefined : text.slice(0, at).split("\n").length;
}

const describe = (pointer: string) => (pointer === "" ? "the config" : `"${segments(pointer).join(".")}"`);

/** A message for `violation` that names the key and the allowed keys or values, with its line. */
export function explainViolation(
  violation: SchemaViolation,
  config: unknown,
  where: string,
  text?: string,
): { message: string; line?: number; key?: string } {
  const at = resolve(violation.pointer, config);
  const located = (message: string, key?: string) => {
    const line = lineOf(text, violation.pointer, key);
    return {
      message: `${where}${line !== undefined ? `:${line}` : ""}: ${message}`,
      ...(line !== undefined ? { line } : {}),
      ...(key !== undefined ? { key } : {}),
    };
  };
  if (at !== undefined && violation.keyword === "additionalProperties" && isRecord(at.value)) {
    const allowed = [
      ...new Set(
        at.schemas.flatMap((schema) => Object.keys((schema.properties as Schema | undefined) ?? {})),
      ),
    ];
    const unknown = Object.keys(at.value).find((key) => !allowed.includes(key));
    if (unknown !== undefined) {
      const nearest = nearestNames(unknown, allowed, 1);
      const hint = nearest.length > 0 ? ` — did you mean "${nearest[0]}"?` : ".";
      return located(
        `"${unknown}" is not a key of ${describe(violation.pointer)}${hint} Allowed keys: ${allowed.join(", ")}.`,
        unknown,
      );
    }
  }
  if (at !== undefined && (violation.keyword === "enum" || violation.keyword === "const")) {
    const values = at.schemas.flatMap((schema) =>
      Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [],
    );
    if (values.length > 0)
      return located(
        `${describe(violation.pointer)} is ${JSON.stringify(at.value)}; it must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}.`,
      );
  }
  // Any other mistake names the key in config words and, where the schema describes it, what it takes.
  const described = at?.schemas.find((schema) => typeof schema.description === "string")?.description;
  if (described !== undefined && violation.pointer !== "") {
    const what = violation.message.slice(violation.pointer.length).trim();
    return located(`${describe(violation.pointer)} ${what}: ${described as string}`);
  }
  return located(violation.message);
}
