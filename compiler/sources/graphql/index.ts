/**
 * The GraphQL SourceAdapter (docs/sources/graphql.md): one ToolSpec per schema, one endpoint per
 * Query and Mutation root field, subscriptions reported unsupported, and the schema's digest in the
 * lock. The runtime needs no GraphQL library: the contract carries everything its query builder uses.
 */
import type { GraphQLObjectType, GraphQLSchema } from "graphql";
import type { CompatibilityIssue, EndpointSpec, ToolSpec } from "schemarouter/internal";
import { sanitizeLocation } from "schemarouter/internal";
import type { GraphqlSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { sortIssues } from "../compatibility.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { SchemaBuilder } from "./json-schemas.js";
import { loadGraphqlSchema } from "./load.js";
import { type RootField, rootFieldEndpoint } from "./root-fields.js";

export const DEFAULT_GRAPHQL_MAX_DEPTH = 3;
export const DEFAULT_GRAPHQL_MAX_FIELDS = 200;

export const graphqlAdapter: SourceAdapter<GraphqlSourceConfig> = {
  kind: "graphql",
  async resolve(name: string, config: GraphqlSourceConfig, context: SourceContext): Promise<SourceResult> {
    const loaded = await loadGraphqlSchema(name, config, context);
    const issues: CompatibilityIssue[] = [];
    const report = (issue: CompatibilityIssue) => issues.push(issue);
    for (const key of loaded.duplicates ?? [])
      report({
        pointer: `/types/${key.replace(".", "/")}`,
        construct: "duplicate-field",
        level: "partial",
        message: `${key} is defined twice in the SDL document with the same type and arguments; it is compiled once.`,
      });
    const roots = rootFieldsOf(name, loaded.schema, config);
    const subscription = loaded.schema.getSubscriptionType();
    if (subscription !== undefined && subscription !== null) {
      for (const field of Object.keys(subscription.getFields()).sort())
        report({
          pointer: `/subscription/${field}`,
          construct: "subscription",
          level: "unsupported",
          message: `subscription ${field} is not compiled: subscriptions stream events, which a tool call does not.`,
          leftOut: `/subscription/${field}`,
        });
    }
    const builder = new SchemaBuilder(report);
    const limits = {
      maxDepth: config.maxDepth ?? DEFAULT_GRAPHQL_MAX_DEPTH,
      maxFields: config.maxFields ?? DEFAULT_GRAPHQL_MAX_FIELDS,
    };
    const endpoints: EndpointSpec[] = [];
    for (const root of roots) {
      const endpoint = rootFieldEndpoint(root, builder, limits, config.partialResults === true, report);
      if (endpoint !== undefined) endpoints.push(endpoint);
    }
    const description = loaded.schema.description;
    const tool: ToolSpec = {
      name,
      namespace: name,
      description: `GraphQL API "${name}"${description ? `: ${description}` : "."} ${roots.filter((root) => root.operation === "query").length} queries, ${roots.filter((root) => root.operation === "mutation").length} mutations.`,
      provider: config.provider ?? name,
      accessMode: "graphql",
      remote: true,
      execution: { transport: "graphql", ...(loaded.url !== undefined ? { url: loaded.url } : {}) },
      endpoints,
      metadata: { schemaDigest: loaded.digest },
    };
    return {
      tools: [tool],
      defs: builder.defs,
      compatibility: sortIssues(issues),
      documentDigest: loaded.digest,
      location: sanitizeLocation(config.location),
    };
  },
};

/** The Query and Mutation fields in name order, with their endpoint names and effects. */
function rootFieldsOf(source: string, schema: GraphQLSchema, config: GraphqlSourceConfig): RootField[] {
  const fieldsOf = (type: GraphQLObjectType | null | undefined) =>
    type === null || type === undefined
      ? []
      : Object.values(type.getFields()).sort((a, b) => (a.name < b.name ? -1 : 1));
  const queries = fieldsOf(schema.getQueryType());
  const queryNames = new Set(queries.map((field) => field.name));
  const roots: RootField[] = queries.map((field) => ({
    operation: "query",
    field,
    name: field.name,
    effect: "read",
  }));
  const effects = config.effects ?? {};
  const mutationNames = new Set<string>();
  for (const field of fieldsOf(schema.getMutationType())) {
    const endpoint = queryNames.has(field.name) ? `mutation_${field.name}` : field.name;
    mutationNames.add(endpoint);
    roots.push({
      operation: "mutation",
      field,
      name: endpoint,
      effect: Object.hasOwn(effects, endpoint) ? effects[endpoint]! : "write",
    });
  }
  for (const endpoint of Object.keys(effects)) {
    if (!mutationNames.has(endpoint))
      throw new SourceError(
        source,
        "GRAPHQL_CONFIG_INVALID",
        `effects.${endpoint} names no mutation of the schema${queryNames.has(endpoint) ? " (queries are always read)" : ""}; remove or rename it.`,
        { endpoint },
      );
  }
  return roots;
}
