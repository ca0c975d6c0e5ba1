/**
 * One endpoint per root field (GraphQL spec §3.3 "Root Operation Types"; docs/sources/graphql.md
 * "Endpoints"): a Query field is a read endpoint, a Mutation field a write endpoint (destructive or
 * read only when the local `effects` says so). Arguments become parameters passed as variables;
 * non-null arguments without a default are required.
 */
import { type GraphQLField, isNonNullType } from "graphql";
import type { Effect, EndpointSpec, JsonSchema, ParameterSpec } from "schemarouter/internal";
import { listDepth, MAX_LIST_NESTING, type Report, type SchemaBuilder } from "./json-schemas.js";
import { type OutputLimits, outputFields } from "./output-fields.js";

export interface RootField {
  readonly operation: "query" | "mutation";
  readonly field: GraphQLField<unknown, unknown>;
  /** The endpoint name (the field name, or `mutation_<field>` when a query field has the same name). */
  readonly name: string;
  readonly effect: Effect;
}

export function rootFieldEndpoint(
  root: RootField,
  builder: SchemaBuilder,
  limits: OutputLimits,
  partialResults: boolean,
  report: Report,
): EndpointSpec | undefined {
  const { field, operation } = root;
  const typeName = operation === "query" ? "Query" : "Mutation";
  const pointer = `/${operation}/${field.name}`;
  const parameters: ParameterSpec[] = [];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const variables: Record<string, string> = {};
  for (const argument of [...field.args].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (listDepth(argument.type) > MAX_LIST_NESTING) {
      report({
        pointer: `${pointer}/${argument.name}`,
        construct: "argument-type",
        level: "unsupported",
        message: `${typeName}.${field.name}(${argument.name}) nests lists deeper than ${MAX_LIST_NESTING}; the field is not compiled.`,
        leftOut: pointer,
      });
      return undefined;
    }
    const schema = builder.input(argument.type);
    const isRequired = isNonNullType(argument.type) && argument.defaultValue === undefined;
    parameters.push({
      name: argument.name,
      location: "argument",
      required: isRequired,
      schema,
      ...(argument.description ? { description: argument.description } : {}),
    });
    properties[argument.name] = schema;
    if (isRequired) required.push(argument.name);
    variables[argument.name] = String(argument.type);
  }
  if (listDepth(field.type) > MAX_LIST_NESTING) {
    report({
      pointer,
      construct: "output-type",
      level: "unsupported",
      message: `${typeName}.${field.name} returns lists nested deeper than ${MAX_LIST_NESTING}; the field is not compiled.`,
      leftOut: pointer,
    });
    return undefined;
  }
  const output = outputFields(field, builder, limits, pointer, report);
  if (output.fields.length === 0) {
    report({
      pointer,
      construct: "output-fields",
      level: "unsupported",
      message: `${typeName}.${field.name} returns ${String(field.type)}, whose fields all take arguments or lie deeper than maxDepth; the field is not compiled.`,
      leftOut: pointer,
    });
    return undefined;
  }
  const deprecation = field.deprecationReason ? ` Deprecated: ${field.deprecationReason}` : "";
  return {
    name: root.name,
    description: `${field.description ?? `GraphQL ${operation} ${field.name} returning ${String(field.type)}.`}${deprecation}`,
    effect: root.effect,
    parameters,
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { [field.name]: builder.output(field.type) },
      required: [field.name],
      additionalProperties: false,
    },
    fields: output.fields,
    execution: {
      kind: "graphql",
      operation,
      field: field.name,
      variables,
      selection: output.selection,
      partialResults,
    },
    metadata: { graphqlType: typeName, returns: String(field.type) },
  };
}
