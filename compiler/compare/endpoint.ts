/**
 * Endpoint comparison: effect, execution metadata, parameters, input/output schemas, declared fields
 * and server projection of two EndpointSpecs (matched by name). Pointers are relative to the endpoint.
 */
import type { EndpointSpec, JsonObject } from "schemarouter/internal";
import { canonical, newBudget, type SchemaContext, type Side, show } from "./context.js";
import type { DefsPair } from "./defs.js";
import { diffFields } from "./fields.js";
import { diffUnknownKeys, unionKeys } from "./members.js";
import { diffInputSchema, diffParameters } from "./parameters.js";
import { draft, type Emit, pointerOf } from "./report.js";
import type { RuleId } from "./rules.js";
import { compareSchema } from "./schema.js";

export interface EndpointEnv {
  readonly defs: DefsPair;
  /** The endpoint belongs to an MCP tool (descriptions reach the model). */
  readonly mcp: boolean;
}

const KNOWN_KEYS = new Set([
  "name",
  "description",
  "effect",
  "parameters",
  "inputSchema",
  "outputSchema",
  "fields",
  "serverProjection",
  "execution",
  "metadata",
]);

const AUTHORITY: Readonly<Record<string, number>> = { read: 0, write: 1, destructive: 2, unclassified: 3 };
const UNSAFE_METHODS = new Set(["post", "put", "patch", "delete"]);

/** Emits every change between two endpoints; `equivalent-rewrite` when only the spelling differs. */
export function diffEndpoint(a: EndpointSpec, b: EndpointSpec, env: EndpointEnv, emit: Emit): void {
  if (env.defs.same(contract(a), contract(b))) return;
  let count = 0;
  const counted: Emit = (d) => {
    count += 1;
    emit(d);
  };
  const mcp = env.mcp || a.execution.kind === "mcp" || b.execution.kind === "mcp";
  const budget = newBudget();
  const schemaCtx = (side: Side): SchemaContext => ({
    side,
    defs: env.defs,
    emit: counted,
    mcp,
    nonMonotone: false,
    stack: [],
    budget,
  });
  if (a.name !== b.name)
    counted(
      draft("/name", "endpoint.renamed", `endpoint renamed from "${a.name}" to "${b.name}"`, a.name, b.name),
    );
  if (a.description !== b.description) {
    counted(
      mcp
        ? draft(
            "/description",
            "endpoint.description-changed.mcp",
            "MCP tool description changed; it reaches the model, review the new text",
            a.description,
            b.description,
          )
        : draft(
            "/description",
            "endpoint.description-changed",
            "description changed (descriptive only)",
            a.description,
            b.description,
          ),
    );
  }
  diffEffect(a, b, counted);
  diffExecution(a, b, counted);
  diffParameters(a, b, schemaCtx("request"), mcp, counted);
  diffInputSchema(a, b, schemaCtx("request"));
  compareSchema(a.outputSchema, b.outputSchema, "/outputSchema", schemaCtx("response"));
  diffFields(a.fields, b.fields, schemaCtx("response"), mcp, counted);
  diffServerProjection(a, b, counted);
  diffUnknownKeys(a, b, KNOWN_KEYS, counted);
  if (count === 0) {
    emit(
      draft(
        "",
        "endpoint.equivalent-rewrite",
        "the contract was rewritten without a semantic change (e.g. reordered required or enum); re-pin with `schemarouter compile`",
      ),
    );
  }
}

function contract(endpoint: EndpointSpec): Omit<EndpointSpec, "metadata"> {
  const { metadata: _metadata, ...rest } = endpoint;
  return rest;
}

function diffEffect(a: EndpointSpec, b: EndpointSpec, emit: Emit): void {
  if (a.effect === b.effect) return;
  const up = (AUTHORITY[b.effect] ?? 3) > (AUTHORITY[a.effect] ?? 3);
  emit(
    up
      ? draft(
          "/effect",
          "endpoint.effect.escalated",
          `effect changed from ${a.effect} to ${b.effect}: the endpoint now has more authority`,
          a.effect,
          b.effect,
        )
      : draft(
          "/effect",
          "endpoint.effect.relaxed",
          `effect changed from ${a.effect} to ${b.effect}: mutation/approval gates and retry rules that applied no longer do`,
          a.effect,
          b.effect,
        ),
  );
}

const EXECUTION_RULES: Readonly<Record<string, RuleId>> = {
  path: "endpoint.execution.path-changed",
  requestBody: "endpoint.execution.request-body-changed",
  security: "endpoint.execution.auth-changed",
  successStatus: "endpoint.execution.success-status-changed",
  toolName: "endpoint.execution.mcp-tool-name-changed",
  entryType: "endpoint.execution.optimade-changed",
  mode: "endpoint.execution.optimade-changed",
  paginations: "endpoint.execution.optimade-changed",
  operation: "endpoint.execution.odata-changed",
  resource: "endpoint.execution.odata-changed",
  keys: "endpoint.execution.odata-changed",
  parameters: "endpoint.execution.odata-changed",
  bound: "endpoint.execution.odata-changed",
  filterable: "endpoint.execution.odata-changed",
  collection: "endpoint.execution.odata-changed",
  function: "endpoint.execution.local-function-changed",
  rpcMethod: "endpoint.execution.openrpc-changed",
  paramStructure: "endpoint.execution.openrpc-changed",
};

/** Execution keys whose rule depends on the kind (GraphQL's `operation` is not OData's). */
const KIND_EXECUTION_RULES: Readonly<Record<string, Readonly<Record<string, RuleId>>>> = {
  graphql: {
    operation: "endpoint.execution.graphql-operation-changed",
    field: "endpoint.execution.graphql-operation-changed",
    variables: "endpoint.execution.graphql-variables-changed",
    selection: "endpoint.execution.graphql-selection-changed",
    partialResults: "endpoint.execution.graphql-partial-results-changed",
  },
};

function diffExecution(a: EndpointSpec, b: EndpointSpec, emit: Emit): void {
  const ea = a.execution as unknown as JsonObject;
  const eb = b.execution as unknown as JsonObject;
  if (a.execution.kind !== b.execution.kind) {
    emit(
      draft(
        "/execution/kind",
        "endpoint.execution.kind-changed",
        `execution kind changed from ${a.execution.kind} to ${b.execution.kind}`,
        a.execution,
        b.execution,
      ),
    );
    return;
  }
  for (const key of unionKeys(ea, eb)) {
    if (canonical(ea[key]) === canonical(eb[key])) continue;
    const where = `/execution${pointerOf(key)}`;
    if (key === "method") {
      const toUnsafe = typeof eb.method === "string" && UNSAFE_METHODS.has(eb.method);
      emit(
        toUnsafe
          ? draft(
              where,
              "endpoint.execution.method-to-unsafe",
              `HTTP method changed from ${show(ea.method)} to ${show(eb.method)}: the call may now change state`,
              ea.method,
              eb.method,
            )
          : draft(
              where,
              "endpoint.execution.method-changed",
              `HTTP method changed from ${show(ea.method)} to ${show(eb.method)}`,
              ea.method,
              eb.method,
            ),
      );
      continue;
    }
    const rule =
      KIND_EXECUTION_RULES[a.execution.kind]?.[key] ??
      EXECUTION_RULES[key] ??
      "endpoint.execution.other-changed";
    emit(
      draft(
        where,
        rule,
        `execution ${key} changed from ${show(ea[key])} to ${show(eb[key])}`,
        ea[key],
        eb[key],
      ),
    );
  }
}

function diffServerProjection(a: EndpointSpec, b: EndpointSpec, emit: Emit): void {
  const sa = a.serverProjection as unknown as JsonObject | undefined;
  const sb = b.serverProjection as unknown as JsonObject | undefined;
  if (canonical(sa) === canonical(sb)) return;
  const rule = "endpoint.server-projection-changed";
  if (sa === undefined || sb === undefined) {
    const what = sa === undefined ? "added" : "removed";
    emit(
      draft(
        "/serverProjection",
        rule,
        `trusted server-side projection ${what}: review what the server is asked for`,
        sa,
        sb,
      ),
    );
    return;
  }
  for (const key of unionKeys(sa, sb)) {
    if (canonical(sa[key]) === canonical(sb[key])) continue;
    emit(
      draft(
        `/serverProjection${pointerOf(key)}`,
        rule,
        `server-side projection ${key} changed`,
        sa[key],
        sb[key],
      ),
    );
  }
}
