/**
 * `oneOf`/`anyOf` with a `discriminator` → validation that dispatches on the discriminator property
 * and a normalized mapping the bindings type as a discriminated union (docs/sources/openapi-bodies.md).
 * Spec: OpenAPI 3.1.0 §4.8.25 (Discriminator Object: `propertyName`, `mapping`, implicit mapping by
 * component schema name); OpenAPI 3.0.3 §4.7.25.
 *
 * The rewritten schema keeps every keyword beside the composition and adds an `if`/`then`/`else`
 * (in an `allOf` member when the schema has its own `if`): an object carrying the property is checked against the one branch its value names (an unknown value
 * fails the property's `enum`); any other value is validated against the branches as written. The
 * normalized `discriminator` (`mapping` to `#/$defs/…`, `propertyRequired`) is an annotation the
 * validator ignores and the bindings read. What cannot be dispatched (no `oneOf`/`anyOf`, an inline
 * branch without a mapping, a mapping to a schema that does not exist) is reported and validated as
 * written.
 */
import type { CompatibilityIssue, JsonSchema } from "schemarouter/internal";
import { decodePointerToken } from "schemarouter/internal";

type Node = Record<string, unknown>;

/** Most mapping entries one discriminator may have; more is reported and validated as written. */
export const MAX_DISCRIMINATOR_MAPPING = 512;

const COMPONENT_SCHEMA = "#/components/schemas/";

export interface DiscriminatorContext {
  /** Rewrites a local `#/…` schema reference to its `#/$defs/…` form (throws like any reference). */
  readonly reference: (ref: string) => string;
  /** Whether a local reference resolves in the document. */
  readonly exists: (ref: string) => boolean;
  /** The converted definition behind a `#/$defs/…` reference, when converted already. */
  readonly definition: (defsRef: string) => JsonSchema | undefined;
  readonly report: (issue: CompatibilityIssue) => void;
}

/**
 * `rewritten` with its discriminator turned into dispatching validation, or without the
 * `discriminator` keyword (reported) when it cannot dispatch. `original` is the schema as written.
 */
export function applyDiscriminator(
  original: Node,
  rewritten: Node,
  pointer: string,
  context: DiscriminatorContext,
): Node {
  const where = `${pointer}/discriminator`;
  const { discriminator: _written, ...rest } = rewritten;
  const partial = (message: string): Node => {
    context.report({ pointer: where, construct: "discriminator", level: "partial", message });
    return rest;
  };
  const discriminator = original.discriminator as Node;
  const property = discriminator?.propertyName;
  if (typeof property !== "string" || property === "" || property === "__proto__")
    return partial("discriminator has no usable propertyName; validation uses the branches as written.");
  const key = Array.isArray(original.oneOf) ? "oneOf" : Array.isArray(original.anyOf) ? "anyOf" : undefined;
  if (key === undefined)
    return partial(
      "discriminator without oneOf/anyOf next to it (e.g. on an allOf parent) is not used; validation uses the schemas as written.",
    );
  const mapping = new Map<string, string>();
  const written = discriminator.mapping;
  if (written !== null && typeof written === "object" && !Array.isArray(written)) {
    const entries = Object.entries(written as Node);
    if (entries.length > MAX_DISCRIMINATOR_MAPPING)
      return partial(
        `discriminator mapping has ${entries.length} entries, more than ${MAX_DISCRIMINATOR_MAPPING}; validation uses the branches as written.`,
      );
    for (const [value, target] of entries) {
      if (typeof target !== "string")
        return partial(
          `discriminator mapping "${value}" is not a string; validation uses the branches as written.`,
        );
      const ref = target.startsWith("#") ? target : `${COMPONENT_SCHEMA}${target}`;
      if (!ref.startsWith("#/") || !context.exists(ref))
        return partial(
          `discriminator mapping "${value}" names ${JSON.stringify(target.slice(0, 120))}, which is not a schema in this document; validation uses the branches as written.`,
        );
      mapping.set(value, ref);
    }
  }
  // Implicit mapping: a branch referring to a component schema is selected by that schema's name.
  const mapped = new Set(mapping.values());
  for (const branch of original[key] as unknown[]) {
    const ref = branch !== null && typeof branch === "object" ? (branch as Node).$ref : undefined;
    if (typeof ref !== "string")
      return partial(
        `a ${key} branch is inline, so no discriminator value selects it; validation uses the branches as written.`,
      );
    if (mapped.has(ref)) continue;
    if (!ref.startsWith(COMPONENT_SCHEMA) || ref.slice(COMPONENT_SCHEMA.length).includes("/"))
      return partial(
        `the ${key} branch ${JSON.stringify(ref.slice(0, 120))} is not a component schema and has no mapping; validation uses the branches as written.`,
      );
    const name = decodePointerToken(ref.slice(COMPONENT_SCHEMA.length));
    if (!mapping.has(name)) mapping.set(name, ref);
  }
  if (mapping.size > MAX_DISCRIMINATOR_MAPPING)
    return partial(
      `discriminator selects ${mapping.size} schemas, more than ${MAX_DISCRIMINATOR_MAPPING}; validation uses the branches as written.`,
    );
  const values = [...mapping.keys()];
  const targets = new Map(values.map((value) => [value, context.reference(mapping.get(value)!)]));
  const propertyRequired = [...targets.values()].every((ref) => requires(context.definition(ref), property));
  const unmatched = [...targets].filter(([value, ref]) => {
    const allowed = declaredValues(context.definition(ref), property);
    return allowed !== undefined && !allowed.includes(value);
  });
  if (unmatched.length > 0)
    context.report({
      pointer: where,
      construct: "discriminator",
      level: "partial",
      message: `discriminator values ${unmatched
        .slice(0, 5)
        .map(([value, ref]) => `"${value.slice(0, 80)}" (${ref.slice("#/$defs/".length)})`)
        .join(
          ", ",
        )} select branches whose "${property}" does not allow that value, so no value selects them validly; implicit values are schema names.`,
    });
  const branches = rewritten[key];
  const { [key]: _branches, ...others } = rest;
  const dispatch = conditional(
    { type: "object", required: [property] },
    {
      properties: { [property]: { enum: values } },
      allOf: values.map((value) =>
        conditional({ properties: { [property]: { const: value } } }, { $ref: targets.get(value) }),
      ),
    },
    { [key]: branches },
  );
  return {
    ...others,
    discriminator: {
      propertyName: property,
      mapping: Object.fromEntries(targets),
      propertyRequired,
    },
    // The dispatch sits beside the other keywords, or in an allOf member when the schema has its own `if`.
    ...("if" in others || "then" in others || "else" in others
      ? { allOf: [...(Array.isArray(others.allOf) ? others.allOf : []), dispatch] }
      : dispatch),
  };
}

/** A JSON Schema `if`/`then`/`else` node (built from entries: a `then` key would make an object literal thenable). */
function conditional(condition: Node, consequence: Node, alternative?: Node): Node {
  return Object.fromEntries([
    ["if", condition],
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword
    ["then", consequence],
    ...(alternative !== undefined ? [["else", alternative]] : []),
  ]) as Node;
}

/** The values a converted branch schema's `property` is limited to (`const` / `enum`), if any. */
function declaredValues(schema: JsonSchema | undefined, property: string): unknown[] | undefined {
  if (schema === undefined || typeof schema !== "object") return undefined;
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object" || !Object.hasOwn(properties, property))
    return undefined;
  const declared = (properties as Record<string, JsonSchema>)[property];
  if (declared === undefined || typeof declared !== "object") return undefined;
  if ("const" in declared) return [declared.const];
  return Array.isArray(declared.enum) ? declared.enum : undefined;
}

/** Whether a converted branch schema lists `property` as required (directly or in an allOf member). */
function requires(schema: JsonSchema | undefined, property: string): boolean {
  if (schema === undefined || typeof schema !== "object") return false;
  if (Array.isArray(schema.required) && schema.required.includes(property)) return true;
  return (
    Array.isArray(schema.allOf) && schema.allOf.some((member) => requires(member as JsonSchema, property))
  );
}
