/**
 * GraphQL types as JSON Schemas (GraphQL spec §3 "Type System"; docs/sources/graphql.md "Types"):
 * built-in scalars mapped, custom scalars accepted as any JSON value (reported partial), enums,
 * input objects and output objects/interfaces/unions as shared definitions under `$defs`, lists as
 * arrays and nullable types with `null`. Output object definitions list the fields a selection can
 * ask for (fields without arguments) and `__typename`, and refuse any other key.
 */
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import type { CompatibilityIssue, JsonSchema } from "schemarouter/internal";

const INT = { type: "integer", minimum: -2147483648, maximum: 2147483647 } as const;

/** Built-in scalars (spec §3.5): output and input forms (an ID is sent as a string or an integer). */
const BUILT_IN: Readonly<Record<string, { output: JsonSchema; input: JsonSchema }>> = {
  Int: { output: INT, input: INT },
  Float: { output: { type: "number" }, input: { type: "number" } },
  String: { output: { type: "string" }, input: { type: "string" } },
  Boolean: { output: { type: "boolean" }, input: { type: "boolean" } },
  ID: { output: { type: "string" }, input: { type: ["string", "integer"] } },
};

/** Deepest list nesting compiled (`[[[T]]]`); deeper types are left out. */
export const MAX_LIST_NESTING = 6;

export type Report = (issue: CompatibilityIssue) => void;

/** Builds the shared definitions a source's endpoints reference, each once. */
export class SchemaBuilder {
  readonly defs: Record<string, JsonSchema> = {};
  private readonly reported = new Set<string>();

  constructor(private readonly report: Report) {}

  /** The JSON Schema of a value of `type` sent as an argument or input field. */
  input(type: GraphQLInputType): JsonSchema {
    return this.wrap(type, (named) => this.inputNamed(named as GraphQLNamedType));
  }

  /** The JSON Schema of a value of `type` in a response. */
  output(type: GraphQLOutputType): JsonSchema {
    return this.wrap(type, (named) => this.outputNamed(named as GraphQLNamedType));
  }

  private wrap(type: GraphQLType, named: (type: GraphQLType) => JsonSchema): JsonSchema {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    const schema = isListType(inner)
      ? { type: "array", items: this.wrap(inner.ofType, named) }
      : named(inner);
    return nullable ? orNull(schema) : schema;
  }

  private inputNamed(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return this.scalar(type.name, "input");
    if (isEnumType(type)) return this.enumRef(type);
    if (!isInputObjectType(type)) return {};
    const name = type.name;
    if (!Object.hasOwn(this.defs, name)) {
      this.defs[name] = true;
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      const fields = type.getFields();
      for (const key of Object.keys(fields).sort()) {
        const field = fields[key]!;
        properties[key] = describe(this.input(field.type), field.description);
        if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(key);
      }
      const oneOf = (type as { isOneOf?: boolean }).isOneOf === true;
      this.defs[name] = {
        type: "object",
        ...(type.description ? { description: type.description } : {}),
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
        ...(oneOf ? { minProperties: 1, maxProperties: 1 } : {}),
      };
    }
    return { $ref: `#/$defs/${name}` };
  }

  private outputNamed(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return this.scalar(type.name, "output");
    if (isEnumType(type)) return this.enumRef(type);
    const name = type.name;
    if (!Object.hasOwn(this.defs, name)) {
      this.defs[name] = true;
      const properties: Record<string, JsonSchema> = { __typename: { type: "string" } };
      for (const [key, field] of selectableFields(type, this.report)) {
        properties[key] = describe(this.output(field.type), field.description);
      }
      this.defs[name] = {
        type: "object",
        ...(type.description ? { description: type.description } : {}),
        properties,
        additionalProperties: false,
      };
    }
    return { $ref: `#/$defs/${name}` };
  }

  private enumRef(type: GraphQLNamedType): JsonSchema {
    if (!isEnumType(type)) return {};
    if (!Object.hasOwn(this.defs, type.name)) {
      this.defs[type.name] = {
        ...(type.description ? { description: type.description } : {}),
        enum: type
          .getValues()
          .map((value) => value.name)
          .sort(),
      };
    }
    return { $ref: `#/$defs/${type.name}` };
  }

  private scalar(name: string, side: "input" | "output"): JsonSchema {
    const known = BUILT_IN[name];
    if (known !== undefined) return known[side];
    if (!this.reported.has(name)) {
      this.reported.add(name);
      this.report({
        pointer: `/types/${name}`,
        construct: "custom-scalar",
        level: "partial",
        message: `custom scalar ${name} is accepted as any JSON value; its format is not checked.`,
      });
    }
    return { description: `GraphQL scalar ${name}.` };
  }
}

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema !== "object") return schema;
  const type = schema.type;
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  if (Array.isArray(type)) return { ...schema, type: [...type, "null"] };
  if (Object.keys(schema).length === 0 || (Object.keys(schema).length === 1 && "description" in schema))
    return schema;
  return { anyOf: [schema, { type: "null" }] };
}

function describe(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description || typeof schema !== "object" || "$ref" in schema || "anyOf" in schema) return schema;
  return { ...schema, description };
}

/** List nesting of a type (`[[T]]!` is 2). */
export function listDepth(type: GraphQLType): number {
  let depth = 0;
  let current: GraphQLType = type;
  for (;;) {
    if (isNonNullType(current)) current = current.ofType;
    else if (isListType(current)) {
      depth += 1;
      current = current.ofType;
    } else return depth;
  }
}

/**
 * The fields a selection set can ask for on an object, interface or union (by response key, sorted):
 * fields without arguments; for a union, its members' fields, where a name the members type
 * differently is kept for the members that agree with the first (GraphQL spec §5.3.2 "Field
 * Selection Merging" allows one response shape per key).
 */
export function selectableFields(
  type: GraphQLNamedType,
  report?: Report,
): [string, GraphQLField<unknown, unknown>][] {
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = type.getFields();
    return Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]!] as [string, GraphQLField<unknown, unknown>])
      .filter(([key, field]) => {
        const why =
          field.args.length > 0
            ? "takes arguments"
            : listDepth(field.type) > MAX_LIST_NESTING
              ? `nests lists deeper than ${MAX_LIST_NESTING}`
              : undefined;
        if (why === undefined) return true;
        report?.({
          pointer: `/types/${type.name}/${key}`,
          construct: field.args.length > 0 ? "field-arguments" : "list-nesting",
          level: "partial",
          message: `${type.name}.${key} ${why}; it is not selected below a root field.`,
        });
        return false;
      });
  }
  if (!isUnionType(type)) return [];
  const merged = new Map<string, GraphQLField<unknown, unknown>>();
  for (const [, member] of unionMembers(type, report)) {
    for (const [key, field] of member) if (!merged.has(key)) merged.set(key, field);
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Each union member's selectable fields that agree in type with the first member declaring the name. */
export function unionMembers(
  type: GraphQLNamedType,
  report?: Report,
): [string, Map<string, GraphQLField<unknown, unknown>>][] {
  if (!isUnionType(type)) return [];
  const shapes = new Map<string, string>();
  const out: [string, Map<string, GraphQLField<unknown, unknown>>][] = [];
  for (const member of [...type.getTypes()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const kept = new Map<string, GraphQLField<unknown, unknown>>();
    for (const [key, field] of selectableFields(member)) {
      const shape = String(field.type);
      const known = shapes.get(key);
      if (known !== undefined && known !== shape) {
        report?.({
          pointer: `/types/${type.name}/${member.name}/${key}`,
          construct: "union-field-shape",
          level: "partial",
          message: `${member.name}.${key} (${shape}) has another type than the same field of another member of ${type.name} (${known}); it is not selected on ${member.name}.`,
        });
        continue;
      }
      shapes.set(key, shape);
      kept.set(key, field);
    }
    out.push([member.name, kept]);
  }
  return out;
}

/** True for scalars and enums: values without a selection set. */
export function isLeaf(type: GraphQLType): boolean {
  const named = getNamedType(type);
  return isScalarType(named) || isEnumType(named);
}
