/**
 * The argument-object schema of an endpoint: one property per parameter, `required` recomputed from
 * the parameters, and no other properties — the shape every source kind hands the executor.
 */
import type { JsonSchema, ParameterSpec } from "schemarouter/internal";

export function inputSchemaOf(
  parameters: readonly ParameterSpec[],
  extra: Readonly<Record<string, JsonSchema>> = {},
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of parameters) properties[parameter.name] = parameter.schema;
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...extra,
    additionalProperties: false,
  };
}
