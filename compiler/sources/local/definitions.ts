/**
 * Shared definitions of a local tool (docs/sources/local.md): a schema's root `$defs` are moved to
 * the artifact's shared definitions, where every `#/$defs/<name>` reference of an endpoint contract
 * points (and is fingerprinted). Two endpoints that define one name differently are refused.
 */
import { digestJson, type JsonSchema, type ToolSpec } from "schemarouter/internal";
import { SourceError } from "../../errors/errors.js";

export function hoistDefinitions(
  source: string,
  tool: ToolSpec,
): { readonly tool: ToolSpec; readonly defs: Readonly<Record<string, JsonSchema>> } {
  const defs: Record<string, JsonSchema> = {};
  const owner = new Map<string, string>();
  const hoist = (where: string, schema: JsonSchema): JsonSchema => {
    if (typeof schema !== "object" || schema.$defs === undefined) return schema;
    const { $defs, ...rest } = schema;
    if ($defs === null || typeof $defs !== "object" || Array.isArray($defs)) return schema;
    for (const [name, definition] of Object.entries($defs as Record<string, JsonSchema>)) {
      const previous = owner.get(name);
      if (previous !== undefined && digestJson(defs[name]) !== digestJson(definition)) {
        throw new SourceError(
          source,
          "LOCAL_MODULE_INVALID",
          `${where} and ${previous} define $defs.${name} differently; give one of them another name.`,
        );
      }
      owner.set(name, where);
      defs[name] = definition;
    }
    return rest;
  };
  const endpoints = tool.endpoints.map((endpoint) => ({
    ...endpoint,
    inputSchema: hoist(`${endpoint.name} (input)`, endpoint.inputSchema),
    outputSchema: hoist(`${endpoint.name} (output)`, endpoint.outputSchema),
  }));
  return { tool: { ...tool, endpoints }, defs };
}
