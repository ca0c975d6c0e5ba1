/**
 * What a plugin returns, checked and turned into a ToolSpec by the compiler (docs/plugins.md, "What
 * the compiler does with plugin output"): the shape is validated against a JSON Schema, every schema
 * must compile, path templates must match path parameters, and effects come only from local config.
 */
import {
  deriveFields,
  type EndpointSpec,
  type JsonSchema,
  type ParameterSpec,
  type ToolSpec,
  ValidatorSet,
} from "schemarouter/internal";
import type { PluginSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import type { PluginEndpoint, PluginOutput } from "./define.js";
import type { DiscoveredPlugin } from "./discover.js";

const schemaValue = { type: ["object", "boolean"] } as const;

export const PLUGIN_OUTPUT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["endpoints"],
  additionalProperties: false,
  properties: {
    description: { type: "string", maxLength: 10_000 },
    provider: { type: "string", minLength: 1, maxLength: 200 },
    location: { type: "string", maxLength: 2000 },
    endpoints: {
      type: "array",
      maxItems: 5000,
      items: {
        type: "object",
        required: ["name", "method", "path", "outputSchema"],
        additionalProperties: false,
        properties: {
          name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,99}$" },
          description: { type: "string", maxLength: 10_000 },
          method: { enum: ["get", "post", "put", "patch", "delete"] },
          path: {
            type: "string",
            pattern: "^(/([A-Za-z0-9._~!$&'()*+,;=:@-]+|\\{[A-Za-z_][A-Za-z0-9_]*\\}))+/?$|^/$",
          },
          effect: { enum: ["read", "write", "destructive"] },
          outputSchema: schemaValue,
          parameters: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "location", "schema"],
              additionalProperties: false,
              properties: {
                name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_-]{0,99}$" },
                location: { enum: ["path", "query", "header", "body"] },
                required: { type: "boolean" },
                schema: schemaValue,
                description: { type: "string", maxLength: 10_000 },
              },
            },
          },
        },
      },
    },
  },
} as const;

export interface BuiltTool {
  readonly tool: ToolSpec;
  readonly notes: readonly string[];
}

export function buildPluginTool(
  name: string,
  config: PluginSourceConfig,
  plugin: DiscoveredPlugin,
  output: unknown,
): BuiltTool {
  const validator = new ValidatorSet();
  const invalid = (message: string, pointer?: string): never => {
    throw new SourceError(
      name,
      "PLUGIN_INVALID",
      `${plugin.package} returned ${message}; report it to the plugin's authors.`,
      {
        package: plugin.package,
        ...(pointer !== undefined ? { pointer } : {}),
      },
    );
  };
  const violations = validator.validate(PLUGIN_OUTPUT_SCHEMA as unknown as JsonSchema, output);
  if (violations.length > 0)
    invalid(
      `output that does not fit the plugin contract (${violations[0]!.pointer || "/"} ${violations[0]!.message})`,
      violations[0]!.pointer,
    );
  const result = output as PluginOutput;
  const notes: string[] = [];
  const seen = new Set<string>();
  const endpoints = result.endpoints.map((endpoint, index) => {
    if (seen.has(endpoint.name)) invalid(`two endpoints named ${endpoint.name}`, `/endpoints/${index}/name`);
    seen.add(endpoint.name);
    const built = endpointOf(endpoint, config, index, invalid);
    if (endpoint.effect !== undefined && config.effects?.[endpoint.name] !== endpoint.effect)
      notes.push(
        `${plugin.package} says ${endpoint.name} is ${endpoint.effect}; it is ${built.effect} (only "effects" in the config classifies plugin endpoints).`,
      );
    for (const schema of [built.inputSchema, built.outputSchema])
      try {
        validator.validate(schema, null);
      } catch (error) {
        invalid(
          `an endpoint schema that does not compile (${(error as Error).message})`,
          `/endpoints/${index}`,
        );
      }
    return built;
  });
  for (const listed of Object.keys(config.effects ?? {}))
    if (!seen.has(listed)) notes.push(`"effects" names ${listed}, which ${plugin.package} did not return.`);
  const tool: ToolSpec = {
    name,
    namespace: name,
    description: result.description ?? "",
    provider: result.provider ?? name,
    accessMode: config.plugin,
    remote: true,
    execution: { transport: "http", basePath: "" },
    endpoints,
    metadata: { plugin: { package: plugin.package, version: plugin.version, kind: plugin.kind } },
  };
  return { tool, notes };
}

function endpointOf(
  endpoint: PluginEndpoint,
  config: PluginSourceConfig,
  index: number,
  invalid: (message: string, pointer?: string) => never,
): EndpointSpec {
  const parameters: ParameterSpec[] = (endpoint.parameters ?? []).map((p) => ({
    name: p.name,
    location: p.location,
    required: p.location === "path" || p.required === true,
    schema: p.schema as JsonSchema,
    ...(p.description !== undefined ? { description: p.description } : {}),
  }));
  const templates = [...endpoint.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
  const pathParams = parameters.filter((p) => p.location === "path").map((p) => p.name);
  if (templates.length !== pathParams.length || templates.some((t) => !pathParams.includes(t)))
    invalid(
      `${endpoint.path} with path parameters that do not match its template`,
      `/endpoints/${index}/parameters`,
    );
  if (new Set(parameters.map((p) => p.name)).size !== parameters.length)
    invalid(`two parameters of one name in ${endpoint.name}`, `/endpoints/${index}/parameters`);
  const outputSchema = endpoint.outputSchema as JsonSchema;
  const hasBody = parameters.some((p) => p.location === "body");
  return {
    name: endpoint.name,
    description: endpoint.description ?? "",
    effect: config.effects?.[endpoint.name] ?? "unclassified",
    parameters,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    },
    outputSchema,
    fields: deriveFields(outputSchema, {}).fields,
    execution: {
      kind: "http",
      method: endpoint.method,
      path: endpoint.path,
      ...(hasBody
        ? {
            requestBody: {
              contentType: "application/json" as const,
              mode: "properties" as const,
              required: false,
            },
          }
        : {}),
      successStatus: endpoint.method === "get" ? [200] : [200, 201],
    },
  };
}
