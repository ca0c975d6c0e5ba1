/**
 * Tool comparison: identity and authority members of two ToolSpecs (provider, access mode, remote
 * flag, transport/binding identity) and their endpoints, matched by name.
 */
import type { EndpointSpec, JsonObject, ToolSpec } from "schemarouter/internal";
import { canonical, show } from "./context.js";
import type { DefsPair } from "./defs.js";
import { diffEndpoint } from "./endpoint.js";
import { diffUnknownKeys, unionKeys } from "./members.js";
import { draft, type Emit, pointerOf, scoped } from "./report.js";
import type { RuleId } from "./rules.js";
import { diffSpecOverlays } from "./spec-overlays.js";

const KNOWN_KEYS = new Set([
  "name",
  "namespace",
  "description",
  "provider",
  "accessMode",
  "remote",
  "execution",
  "endpoints",
  "metadata",
]);

const EXECUTION_RULES: Readonly<Record<string, RuleId>> = {
  origin: "tool.execution.origin-changed",
  basePath: "tool.execution.base-path-changed",
  server: "tool.execution.mcp-server-changed",
  identity: "tool.execution.mcp-identity-changed",
  baseUrl: "tool.execution.optimade-base-url-changed",
  serviceRoot: "tool.execution.odata-service-root-changed",
  module: "tool.execution.local-module-changed",
  url: "tool.execution.graphql-url-changed",
  rpcUrl: "tool.execution.openrpc-url-changed",
};

export function isMcpTool(tool: ToolSpec): boolean {
  return tool.execution.transport === "mcp";
}

export function diffTool(a: ToolSpec, b: ToolSpec, defs: DefsPair, emit: Emit): void {
  const mcp = isMcpTool(a) || isMcpTool(b);
  if (a.name !== b.name)
    emit(draft("/name", "tool.renamed", `tool renamed from "${a.name}" to "${b.name}"`, a.name, b.name));
  if (a.namespace !== b.namespace) {
    emit(
      draft(
        "/namespace",
        "tool.namespace-changed",
        "namespace changed: generated binding names change",
        a.namespace,
        b.namespace,
      ),
    );
  }
  if (a.description !== b.description) {
    emit(
      mcp
        ? draft(
            "/description",
            "tool.description-changed.mcp",
            "MCP description changed; it reaches the model, review the new text",
            a.description,
            b.description,
          )
        : draft(
            "/description",
            "tool.description-changed",
            "description changed (descriptive only)",
            a.description,
            b.description,
          ),
    );
  }
  if (a.provider !== b.provider) {
    emit(
      draft(
        "/provider",
        "tool.provider-changed",
        `provider changed from ${show(a.provider)} to ${show(b.provider)}`,
        a.provider,
        b.provider,
      ),
    );
  }
  if (a.accessMode !== b.accessMode) {
    emit(
      draft(
        "/accessMode",
        "tool.access-mode-changed",
        `access mode changed from ${show(a.accessMode)} to ${show(b.accessMode)}`,
        a.accessMode,
        b.accessMode,
      ),
    );
  }
  if (a.remote !== b.remote) {
    const what = b.remote ? "remote: calls now leave this process" : "local";
    emit(draft("/remote", "tool.remote-changed", `tool is now ${what}`, a.remote, b.remote));
  }
  diffExecution(a, b, emit);
  diffEndpoints(a, b, defs, mcp, emit);
  diffSpecOverlays(a, b, emit);
  diffUnknownKeys(a, b, KNOWN_KEYS, emit);
}

function diffExecution(a: ToolSpec, b: ToolSpec, emit: Emit): void {
  if (a.execution.transport !== b.execution.transport) {
    emit(
      draft(
        "/execution/transport",
        "tool.execution.transport-changed",
        `transport changed from ${a.execution.transport} to ${b.execution.transport}`,
        a.execution,
        b.execution,
      ),
    );
    return;
  }
  const ea = a.execution as unknown as JsonObject;
  const eb = b.execution as unknown as JsonObject;
  for (const key of unionKeys(ea, eb)) {
    if (canonical(ea[key]) === canonical(eb[key])) continue;
    const rule = EXECUTION_RULES[key] ?? "tool.execution.other-changed";
    emit(
      draft(
        `/execution${pointerOf(key)}`,
        rule,
        `binding ${key} changed from ${show(ea[key])} to ${show(eb[key])}: calls go elsewhere`,
        ea[key],
        eb[key],
      ),
    );
  }
}

function diffEndpoints(a: ToolSpec, b: ToolSpec, defs: DefsPair, mcp: boolean, emit: Emit): void {
  const ea = new Map(a.endpoints.map((e) => [e.name, e]));
  const eb = new Map(b.endpoints.map((e) => [e.name, e]));
  for (const name of [...new Set([...ea.keys(), ...eb.keys()])].sort()) {
    const prefix = `/endpoints${pointerOf(name)}`;
    const before = ea.get(name);
    const after = eb.get(name);
    if (after === undefined) {
      emit({
        ...draft(
          prefix,
          "endpoint.removed",
          `endpoint "${name}" removed: calls to it are refused`,
          endpointSummary(before),
        ),
        endpoint: name,
      });
    } else if (before === undefined) {
      emit({ ...addedEndpoint(prefix, after), endpoint: name });
    } else {
      diffEndpoint(before, after, { defs, mcp }, scoped(emit, prefix, { endpoint: name }));
    }
  }
  const orderA = a.endpoints.filter((e) => eb.has(e.name)).map((e) => e.name);
  const orderB = b.endpoints.filter((e) => ea.has(e.name)).map((e) => e.name);
  if (canonical(orderA) !== canonical(orderB)) {
    emit(
      draft(
        "/endpoints",
        "tool.endpoint-order-changed",
        "endpoints reordered (the tool fingerprint covers their order)",
        orderA,
        orderB,
      ),
    );
  }
}

function addedEndpoint(pointer: string, endpoint: EndpointSpec) {
  const after = endpointSummary(endpoint);
  return endpoint.effect === "read"
    ? draft(pointer, "endpoint.added.read", `new read-only endpoint "${endpoint.name}"`, undefined, after)
    : draft(
        pointer,
        "endpoint.added.not-read-only",
        `new ${endpoint.effect} endpoint "${endpoint.name}": review the authority it adds`,
        undefined,
        after,
      );
}

function endpointSummary(endpoint: EndpointSpec | undefined): unknown {
  if (endpoint === undefined) return undefined;
  const execution = endpoint.execution;
  const where =
    execution.kind === "http"
      ? { method: execution.method, path: execution.path }
      : execution.kind === "mcp"
        ? { toolName: execution.toolName }
        : {};
  return { effect: endpoint.effect, ...where };
}

/** Effect counts and the names of endpoints that are not read-only (first few), for added tools. */
export function toolSummary(tools: readonly ToolSpec[]): {
  readonly summary: unknown;
  readonly notReadOnly: readonly string[];
} {
  const effects: Record<string, number> = {};
  const notReadOnly: string[] = [];
  let endpoints = 0;
  for (const tool of tools) {
    for (const endpoint of tool.endpoints) {
      endpoints += 1;
      effects[endpoint.effect] = (effects[endpoint.effect] ?? 0) + 1;
      if (endpoint.effect !== "read") notReadOnly.push(`${tool.name}.${endpoint.name} (${endpoint.effect})`);
    }
  }
  return { summary: { tools: tools.length, endpoints, effects }, notReadOnly };
}

export function listSome(items: readonly string[]): string {
  const shown = items.slice(0, 5).join(", ");
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}
