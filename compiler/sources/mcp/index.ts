/**
 * Source adapter for MCP servers (MCP spec, Server features § Tools): connect over stdio or Streamable
 * HTTP, list every tool (all pages), and compile one ToolSpec per server with one EndpointSpec per
 * MCP tool. Annotations are untrusted hints: every tool is `unclassified` unless local config
 * classifies it; task-only tools are reported as unsupported. The SDK loads only when a source is used.
 */

import type {
  CompatibilityIssue,
  EndpointSpec,
  FieldSpec,
  JsonObject,
  JsonSchema,
  JsonValue,
  ParameterSpec,
  ToolSpec,
} from "schemarouter/internal";
import {
  digestJson,
  encodePointerToken,
  type ListedTool,
  listAllTools,
  mcpClientFactory,
  mcpRemoteDefinition,
  mcpRemoteDigest,
  redactSecrets,
  SchemaRouterError,
  secretsOf,
} from "schemarouter/internal";
import { checkMcpConfig, type McpSourceConfig } from "../../config/mcp-source.js";
import { MAX_DOCUMENT_DEPTH, tooDeepAt } from "../depth.js";
import { reportUnsupportedPatterns } from "../patterns.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { annotationNotes, mcpConnection, overlayField } from "./connection.js";

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const pointerOf = (tool: string) => `/tools/${encodePointerToken(tool)}`;
const byName = (a: ListedTool, b: ListedTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export const mcpAdapter: SourceAdapter<McpSourceConfig> = {
  kind: "mcp",
  async resolve(name: string, config: McpSourceConfig, context: SourceContext): Promise<SourceResult> {
    checkMcpConfig(name, config);
    const connection = mcpConnection(name, config, context);
    const identity = connection.execution.identity;
    let client: Awaited<ReturnType<ReturnType<typeof mcpClientFactory>>>;
    try {
      client = await mcpClientFactory(connection.options)();
    } catch (cause) {
      // The SDK quotes a non-2xx answer's body, which may echo the request's credentials back: bounded
      // and scrubbed of every trusted header value before it is shown (docs/trust-model.md §17).
      const secrets = secretsOf(
        "headers" in connection.options ? Object.values(connection.options.headers ?? {}) : [],
      );
      const said = redactSecrets(
        String(cause instanceof Error ? cause.message : cause).slice(0, 500),
        secrets,
      );
      throw new SchemaRouterError(
        "MCP_CONNECT_FAILED",
        `source "${name}": could not connect to the MCP server ${identity}: ${said}. Check the command or URL, its environment allowlist and headers.`,
        { source: name, identity },
        { cause: new Error(said) },
      );
    }
    try {
      const listed = await listAllTools(client).catch((cause: unknown) => {
        const message = cause instanceof Error ? cause.message : String(cause);
        throw new SchemaRouterError(
          "MCP_LIST_FAILED",
          `source "${name}": ${message}`,
          { source: name, identity },
          { cause },
        );
      });
      const server = client.getServerVersion();
      return buildMcpSource(name, config, listed, {
        execution: connection.execution,
        server: { name: server?.name ?? name, version: server?.version ?? "" },
        instructions: client.getInstructions(),
      });
    } finally {
      await client.close().catch(() => undefined);
    }
  },
};

export interface McpServerFacts {
  readonly execution: ToolSpec["execution"] & { readonly transport: "mcp" };
  readonly server: { readonly name: string; readonly version: string };
  readonly instructions?: string | undefined;
}

/** Pure: compiles listed tool definitions (as received) into the source result. */
export function buildMcpSource(
  source: string,
  config: McpSourceConfig,
  listed: readonly ListedTool[],
  facts: McpServerFacts,
): SourceResult {
  const names = new Set<string>();
  for (const tool of listed) {
    if (names.has(tool.name)) {
      throw new SchemaRouterError(
        "MCP_LIST_FAILED",
        `source "${source}": the server lists tool "${tool.name}" twice.`,
        {
          source,
          tool: tool.name,
        },
      );
    }
    names.add(tool.name);
  }
  for (const section of ["effects", "results"] as const) {
    for (const tool of Object.keys(config[section] ?? {})) {
      if (!names.has(tool)) {
        throw new SchemaRouterError(
          "MCP_CONFIG_INVALID",
          `source "${source}": ${section}.${tool} names a tool the server does not list. Remove or rename it.`,
          { source, tool, section },
        );
      }
    }
  }
  const defs: Record<string, JsonSchema> = {};
  const compatibility: CompatibilityIssue[] = [];
  const endpoints: EndpointSpec[] = [];
  // Null prototype: a tool named `__proto__` or `constructor` is pinned like any other.
  const digests = Object.create(null) as Record<string, string>;
  const patterns = new Map<string, string | undefined>();
  const sorted = [...listed].sort(byName);
  for (const def of sorted) {
    if (def.name in Object.prototype) {
      throw new SchemaRouterError(
        "MCP_LIST_FAILED",
        `source "${source}": the server lists a tool named "${def.name}", a name reserved by JavaScript objects that the lockfile cannot key safely. Rename the tool on the server or leave the source out.`,
        { source, tool: def.name },
      );
    }
    const deep = tooDeepAt(def);
    if (deep !== undefined) {
      throw new SchemaRouterError(
        "MCP_LIST_FAILED",
        `source "${source}": the server lists tool "${def.name}" with a definition nested deeper than ${MAX_DOCUMENT_DEPTH} levels (at ${deep}); it cannot be pinned. Fix the server's schema or leave the source out.`,
        { source, tool: def.name },
      );
    }
    // Every listed tool is pinned, compiled or not, so the runtime can tell "appeared since compile".
    digests[def.name] = mcpRemoteDigest(def);
    const taskSupport = isObject(def.execution) ? def.execution.taskSupport : undefined;
    if (taskSupport === "required") {
      compatibility.push({
        pointer: pointerOf(def.name),
        construct: "execution.taskSupport",
        level: "unsupported",
        message: `Tool "${def.name}" can only run as a task (taskSupport "required"); it is not compiled as an endpoint.`,
        leftOut: pointerOf(def.name),
      });
      continue;
    }
    const built = buildEndpoint(source, def, config, defs);
    if ("issue" in built) {
      compatibility.push({ ...built.issue, leftOut: pointerOf(def.name) });
      continue;
    }
    endpoints.push(built.endpoint);
    for (const which of ["inputSchema", "outputSchema"] as const) {
      const where = `${pointerOf(def.name)}/${which}`;
      reportUnsupportedPatterns(def[which], where, (issue) => compatibility.push(issue), patterns);
    }
  }
  const tool: ToolSpec = {
    name: source,
    namespace: source,
    description: `Tools of the MCP server "${facts.server.name}".`,
    provider: facts.server.name,
    accessMode: "mcp",
    remote: true,
    execution: facts.execution,
    endpoints,
    metadata: {
      untrusted: true,
      server: { name: facts.server.name, version: facts.server.version },
      ...(facts.instructions === undefined ? {} : { instructions: facts.instructions }),
    },
  };
  const definitions = sorted.map(mcpRemoteDefinition);
  return {
    tools: [tool],
    defs,
    compatibility,
    documentDigest: digestJson(definitions),
    location: facts.execution.identity,
    remoteDigests: { [source]: digests },
    notes: annotationNotes(listed, config),
  };
}

function buildEndpoint(
  source: string,
  def: ListedTool,
  config: McpSourceConfig,
  defs: Record<string, JsonSchema>,
): { endpoint: EndpointSpec } | { issue: CompatibilityIssue } {
  const pointer = pointerOf(def.name);
  const unsupported = (construct: string, message: string) => ({
    issue: { pointer, construct, level: "unsupported" as const, message: `Tool "${def.name}": ${message}` },
  });
  if (!isObject(def.inputSchema))
    return unsupported("inputSchema", "inputSchema is not a JSON Schema object.");
  if (def.outputSchema !== undefined && !isObject(def.outputSchema)) {
    return unsupported("outputSchema", "outputSchema is not a JSON Schema object.");
  }
  let inputSchema: JsonObject;
  let outputSchema: JsonObject;
  const hoisted: Record<string, JsonSchema> = {};
  try {
    inputSchema = hoistLocalRefs(def.name, "input", def.inputSchema, hoisted);
    outputSchema =
      def.outputSchema === undefined ? {} : hoistLocalRefs(def.name, "output", def.outputSchema, hoisted);
    for (const [name, body] of Object.entries(hoisted)) {
      const existing = defs[name];
      if (existing !== undefined && digestJson(existing) !== digestJson(body)) {
        throw new UnsupportedRef(`shared definition name "${name}" collides with another tool's definition.`);
      }
    }
  } catch (error) {
    if (error instanceof UnsupportedRef) return unsupported("$ref", error.message);
    throw error;
  }
  Object.assign(defs, hoisted);
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required : []);
  const parameters: ParameterSpec[] = Object.entries(
    isObject(inputSchema.properties) ? inputSchema.properties : {},
  ).map(([name, schema]) => ({
    name,
    location: "argument",
    required: required.has(name),
    schema: isObject(schema) || typeof schema === "boolean" ? schema : {},
    ...(isObject(schema) && typeof schema.description === "string"
      ? { description: schema.description }
      : {}),
  }));
  const fields = [
    ...schemaFields(outputSchema),
    ...(ownValue(config.results, def.name)?.fields ?? []).map(overlayField),
  ];
  const ids = new Set<string>();
  for (const field of fields) {
    if (ids.has(field.id)) {
      throw new SchemaRouterError(
        "MCP_CONFIG_INVALID",
        `source "${source}": results.${def.name} declares field "${field.id}", which the tool already has. Give it another id.`,
        { source, tool: def.name, field: field.id },
      );
    }
    ids.add(field.id);
  }
  const description =
    typeof def.description === "string" ? def.description : typeof def.title === "string" ? def.title : "";
  return {
    endpoint: {
      name: def.name,
      description,
      effect: ownValue(config.effects, def.name) ?? "unclassified",
      parameters,
      inputSchema,
      outputSchema,
      fields,
      execution: { kind: "mcp", toolName: def.name },
      metadata: {
        untrusted: true,
        definition: mcpRemoteDefinition(def),
        ...(isObject(def.annotations) ? { annotationHints: def.annotations } : {}),
      },
    },
  };
}

/** Top-level properties of a declared output schema as fields (`x-unit` → unit). */
function schemaFields(outputSchema: JsonObject): FieldSpec[] {
  const properties = isObject(outputSchema.properties) ? outputSchema.properties : {};
  return Object.entries(properties).map(([id, schema]) => {
    const spec: { -readonly [K in keyof FieldSpec]: FieldSpec[K] } = { id, path: [id] };
    if (isObject(schema) || typeof schema === "boolean") spec.schema = schema;
    if (isObject(schema)) {
      if (typeof schema.type === "string") spec.datatype = schema.type;
      if (typeof schema.description === "string") spec.description = schema.description;
      if (typeof schema["x-unit"] === "string") spec.unit = schema["x-unit"];
    }
    return spec;
  });
}

class UnsupportedRef extends Error {}

const LOCAL_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;
/** Keywords whose value is data, not a schema: never rewritten. */
const VALUE_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose value maps names to schemas. */
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);
const UNSUPPORTED_KEYWORDS = new Set(["$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor"]);

/**
 * Moves a schema's own root `$defs` / `definitions` into the artifact's shared definitions (scoped by
 * tool and direction) and rewrites `#/$defs/<name>` references to them; any other reference form is
 * unsupported. A schema without local definitions is returned unchanged.
 */
function hoistLocalRefs(
  tool: string,
  side: string,
  schema: JsonObject,
  into: Record<string, JsonSchema>,
): JsonObject {
  const local = new Map<string, string>();
  for (const keyword of ["$defs", "definitions"] as const) {
    const group = schema[keyword];
    if (isObject(group))
      for (const name of Object.keys(group)) local.set(`${keyword}/${name}`, `${tool}.${side}.${name}`);
  }
  const rewriteMap = (map: JsonObject): JsonObject =>
    Object.fromEntries(Object.entries(map).map(([name, child]) => [name, rewrite(child)]));
  const rewrite = (value: JsonValue): JsonValue => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isObject(value)) return value;
    const out: Record<string, JsonValue> = {};
    // defineProperty, not assignment: a property named `__proto__` stays a property.
    const set = (key: string, child: JsonValue) =>
      Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    for (const [key, child] of Object.entries(value)) {
      if (VALUE_KEYWORDS.has(key)) set(key, child);
      else if (MAP_KEYWORDS.has(key) && isObject(child)) set(key, rewriteMap(child));
      else if (UNSUPPORTED_KEYWORDS.has(key))
        throw new UnsupportedRef(`${side}Schema uses ${key}, which is not supported.`);
      else if (key === "$ref" && typeof child === "string") {
        const match = LOCAL_REF.exec(child);
        const name = match?.[2]?.replace(/~1/g, "/").replace(/~0/g, "~");
        const scoped = match && name !== undefined ? local.get(`${match[1]}/${name}`) : undefined;
        if (scoped === undefined)
          throw new UnsupportedRef(`${side}Schema reference "${child}" is not a root $defs entry.`);
        set(key, `#/$defs/${encodePointerToken(scoped)}`);
      } else set(key, rewrite(child));
    }
    return out;
  };
  const rewritten = rewrite(schema) as Record<string, JsonValue>;
  if (local.size === 0) return schema;
  for (const keyword of ["$defs", "definitions"] as const) {
    const group = rewritten[keyword];
    if (!isObject(group)) continue;
    delete rewritten[keyword];
    for (const [name, body] of Object.entries(group)) into[`${tool}.${side}.${name}`] = body as JsonSchema;
  }
  return rewritten;
}

/** `record[key]` when it is the record's own property (never an inherited `constructor` or `toString`). */
function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
