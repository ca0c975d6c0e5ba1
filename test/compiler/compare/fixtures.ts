/** Contracts for the comparison tests: endpoints, tools, sources and the rule assertion they share. */
import { expect } from "vitest";
import {
  type ChangeCategory,
  type ComparisonReport,
  type Definitions,
  type EndpointSnapshot,
  RULES,
  RULES_VERSION,
  type RuleId,
  type SourceSnapshot,
  type ToolSnapshot,
} from "../../../compiler/compare/compare.js";
import type {
  EndpointSpec,
  FieldSpec,
  JsonSchema,
  ParameterSpec,
  ToolSpec,
} from "../../../runtime/model/specs.js";

export function bare(over: Partial<EndpointSpec> = {}): EndpointSpec {
  return {
    name: "things/get",
    description: "Get a thing",
    effect: "read",
    parameters: [],
    inputSchema: { type: "object" },
    outputSchema: true,
    fields: [],
    execution: { kind: "http", method: "get", path: "/things", successStatus: [200] },
    ...over,
  };
}

export const OWNER: ParameterSpec = {
  name: "owner",
  location: "path",
  required: true,
  schema: { type: "string" },
};
export const PER_PAGE: ParameterSpec = {
  name: "per_page",
  location: "query",
  required: false,
  schema: { type: "integer", minimum: 1, maximum: 100 },
};

/** An endpoint whose input schema repeats its parameters, as the OpenAPI adapter writes it. */
export function withParams(params: readonly ParameterSpec[], over: Partial<EndpointSpec> = {}): EndpointSpec {
  const properties: Record<string, JsonSchema> = {};
  for (const p of params) properties[p.name] = p.schema;
  const required = params.filter((p) => p.required).map((p) => p.name);
  return bare({
    name: "repos/get",
    parameters: params,
    inputSchema: { type: "object", properties, required, additionalProperties: false },
    ...over,
  });
}

export const FIELDS: readonly FieldSpec[] = [
  { id: "full_name", path: ["full_name"], schema: { type: "string" } },
  { id: "stars", path: ["stargazers_count"], unit: "count", schema: { type: "integer" } },
];

export function withFields(fields: readonly FieldSpec[]): EndpointSpec {
  return bare({ fields });
}

export function field(id: string, over: Partial<FieldSpec>): FieldSpec[] {
  return FIELDS.map((f) => (f.id === id ? { ...f, ...over } : f));
}

export function snap(endpoint: EndpointSpec, defs: Definitions = {}): EndpointSnapshot {
  return { endpoint, defs };
}

export function tool(over: Partial<ToolSpec> = {}): ToolSpec {
  return {
    name: "github",
    namespace: "github",
    description: "GitHub REST API",
    provider: "github",
    accessMode: "rest",
    remote: true,
    execution: { transport: "http", basePath: "/", origin: "https://api.github.com" },
    endpoints: [withParams([OWNER, PER_PAGE])],
    ...over,
  };
}

export const MCP_ENDPOINT = bare({
  name: "read_graph",
  description: "Read the whole knowledge graph",
  execution: { kind: "mcp", toolName: "read_graph" },
  inputSchema: { type: "object", properties: { depth: { type: "integer", description: "How deep" } } },
});

export function mcpTool(over: Partial<ToolSpec> = {}): ToolSpec {
  return tool({
    name: "memory",
    namespace: "memory",
    description: "Knowledge graph memory",
    provider: "memory",
    accessMode: "mcp",
    execution: { transport: "mcp", server: "stdio", identity: "server-memory" },
    endpoints: [MCP_ENDPOINT],
    ...over,
  });
}

export function tsnap(t: ToolSpec, defs: Definitions = {}): ToolSnapshot {
  return { tool: t, defs };
}

export function source(over: Partial<SourceSnapshot> = {}): SourceSnapshot {
  return {
    name: "github",
    kind: "openapi",
    location: "https://example.com/openapi.json",
    tools: [tool()],
    defs: {},
    ...over,
  };
}

export interface Want {
  readonly category: ChangeCategory;
  readonly rule: RuleId;
  readonly pointer?: string;
}
export type Case<T> = readonly [string, { readonly given: readonly [T, T]; readonly want: Want }];

export function expectRule(report: ComparisonReport, want: Want): void {
  const seen = report.changes.map((c) => `${c.rule} @ ${c.pointer}`).join("; ");
  const hit = report.changes.find(
    (c) => c.rule === want.rule && (want.pointer === undefined || c.pointer === want.pointer),
  );
  expect(hit, `want ${want.rule} @ ${want.pointer ?? "*"}; got ${seen}`).toBeDefined();
  expect(hit?.category).toBe(RULES[want.rule].category);
  expect(hit?.message.length).toBeGreaterThan(0);
  expect(report.category, seen).toBe(want.category);
  expect(report.rulesVersion).toBe(RULES_VERSION);
}

export const MCP = mcpTool();

export type Lock = Record<string, SourceSnapshot>;

export const USER_DEFS = (maxLength: number): Definitions => ({
  user: { type: "object", properties: { login: { type: "string", maxLength } }, required: ["login"] },
  repo: {
    type: "object",
    properties: {
      name: { type: "string" },
      owner: { $ref: "#/$defs/user" },
      organization: { $ref: "#/$defs/user" },
    },
  },
  label: { type: "object", properties: { name: { type: "string" } } },
});

export const REF_TOOL = tool({
  endpoints: [
    bare({ name: "repos/get", outputSchema: { $ref: "#/$defs/repo" } }),
    withParams([{ name: "assignee", location: "body", required: true, schema: { $ref: "#/$defs/user" } }], {
      name: "issues/assign",
      effect: "write",
    }),
    bare({ name: "labels/list", outputSchema: { type: "array", items: { $ref: "#/$defs/label" } } }),
  ],
});
