/**
 * The proposal SourceAdapter (docs/sources/proposals.md, "Compiling an approved proposal"): an
 * approved SchemaProposal becomes one HTTP tool. The file must be the one approved (its digest), every
 * endpoint is re-checked against the format, non-GET endpoints compile only with `allowMutations`, and
 * the approved base URL is the tool's fingerprinted binding identity.
 */
import { relative, resolve } from "node:path";
import type {
  CompatibilityIssue,
  EndpointSpec,
  FieldSpec,
  JsonObject,
  JsonSchema,
  ParameterSpec,
  ToolSpec,
} from "schemarouter/internal";
import type { ProposalSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { checkBaseUrl } from "./base-url.js";
import { effectOfMethod, type ProposedEndpoint } from "./proposal.js";
import { readProposal } from "./proposal-file.js";

export const proposalAdapter: SourceAdapter<ProposalSourceConfig> = {
  kind: "proposal",
  async resolve(name: string, config: ProposalSourceConfig, context: SourceContext): Promise<SourceResult> {
    const path = resolve(context.cwd, config.proposal);
    const { proposal, digest } = await readProposal(name, path);
    if (digest !== config.digest)
      throw new SourceError(
        name,
        "PROPOSAL_NOT_APPROVED",
        `${config.proposal} is not the proposal that was approved (it changed since); review it and run \`schemarouter approve ${config.proposal} --base-url ${config.baseUrl}\` again.`,
        { path, approved: config.digest, actual: digest },
      );
    const baseUrl = new URL(checkBaseUrl(config.baseUrl, path, context.allowInsecureHttp));
    const issues: CompatibilityIssue[] = [];
    const endpoints: EndpointSpec[] = [];
    for (const [index, endpoint] of proposal.endpoints.entries()) {
      if (endpoint.method !== "get" && config.allowMutations !== true) {
        issues.push({
          pointer: `/endpoints/${index}`,
          construct: "unapproved-mutation",
          level: "unsupported",
          message: `${endpoint.method.toUpperCase()} ${endpoint.path} changes state; approve with --allow-mutations to compile it.`,
          leftOut: `/endpoints/${index}`,
        });
        continue;
      }
      endpoints.push(endpointOf(endpoint));
    }
    const tool: ToolSpec = {
      name,
      namespace: name,
      description: proposal.document.title,
      provider: name,
      accessMode: "rest",
      remote: true,
      execution: {
        transport: "http",
        basePath: baseUrl.pathname.replace(/\/+$/, ""),
        origin: baseUrl.origin,
      },
      endpoints,
      metadata: {
        proposal: { document: proposal.document.location, documentDigest: proposal.document.digest },
      },
    };
    return {
      tools: [tool],
      defs: {},
      compatibility: issues,
      documentDigest: digest,
      location: relative(context.cwd, path).split("\\").join("/"),
    };
  },
};

function endpointOf(endpoint: ProposedEndpoint): EndpointSpec {
  const parameters: ParameterSpec[] = endpoint.parameters.map((p) => ({
    name: p.name,
    location: p.in,
    required: p.required,
    schema: { type: p.type },
    description: p.quote.text,
  }));
  const properties: Record<string, JsonSchema> = {};
  for (const p of endpoint.parameters) properties[p.name] = { type: p.type };
  const record: JsonObject = {
    type: "object",
    properties: Object.fromEntries(endpoint.fields.map((f) => [f.name, { type: f.type }])),
  };
  const fields: FieldSpec[] = endpoint.fields.map((f) => ({
    id: endpoint.list ? `[].${f.name}` : f.name,
    path: endpoint.list ? ["*", f.name] : [f.name],
    schema: { type: f.type },
    datatype: f.type,
    description: f.quote.text,
  }));
  const hasBody = endpoint.parameters.some((p) => p.in === "body");
  return {
    name: endpoint.name,
    description: endpoint.description,
    effect: effectOfMethod(endpoint.method),
    parameters,
    inputSchema: {
      type: "object",
      properties,
      required: endpoint.parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    },
    outputSchema: endpoint.list ? { type: "array", items: record } : record,
    fields,
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
    metadata: {
      quote: { text: endpoint.quote.text, line: endpoint.quote.line, column: endpoint.quote.column },
    },
  };
}
