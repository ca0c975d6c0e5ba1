/**
 * Binding shapes checked at SchemaRouter.load, per the locked tool's transport: unknown keys (an
 * axios-style `baseURL`, a `timeout`) are named with the key meant, a missing `baseUrl` is named, a
 * binding for a tool the lock does not have lists the tools it has (docs/common-mistakes.md).
 */

import { bindingInvalid, positiveLimit } from "../errors/binding-invalid.js";
import { SchemaRouterError } from "../errors/errors.js";
import { nearestNames } from "../errors/suggest.js";
import type { RegisteredTool } from "../load/registry.js";
import { checkStdioEnv } from "../transports/mcp/target.js";

const KEYS = {
  http: [
    "baseUrl",
    "headers",
    "query",
    "timeoutMs",
    "maxResponseBytes",
    "dispatcher",
    "allowPlaintextCredentials",
  ],
  mcp: ["mcp", "timeoutMs", "relistBefore"],
  optimade: ["optimade"],
  odata: ["odata"],
  graphql: ["graphql"],
  openrpc: ["openrpc"],
  invoker: ["invoker"],
} as const;

type BindingKind = keyof typeof KEYS;

function kindOf(config: object, transport: string): BindingKind {
  if ("invoker" in config) return "invoker";
  if ("mcp" in config) return "mcp";
  if ("optimade" in config) return "optimade";
  if ("odata" in config) return "odata";
  if ("graphql" in config) return "graphql";
  if ("openrpc" in config) return "openrpc";
  if ("baseUrl" in config) return "http";
  return transport === "mcp" ||
    transport === "optimade" ||
    transport === "odata" ||
    transport === "graphql" ||
    transport === "openrpc"
    ? transport
    : "http";
}

function hintFor(kind: BindingKind, transport: string): string {
  if (kind === "mcp" || transport === "mcp")
    return '{ mcp: { stdio: { command, args } } } or { mcp: { url: "https://…" } }';
  if (kind === "optimade" || transport === "optimade") return "{ optimade: { … } }";
  if (kind === "odata" || transport === "odata") return "{ odata: { headers: { … } } }";
  if (kind === "graphql" || transport === "graphql") return '{ graphql: { url: "https://…/graphql" } }';
  if (kind === "openrpc" || transport === "openrpc") return "{ openrpc: { headers: { … } } }";
  return '{ baseUrl: "https://api.example.com", headers: { … } }';
}

/** Refuses a binding whose keys do not fit its kind, before any invoker is built. */
export function checkBindingShape(tool: string, registered: RegisteredTool, config: unknown): void {
  const transport = registered.tool.execution.transport;
  if (config === null || typeof config !== "object" || Array.isArray(config))
    throw bindingInvalid(
      tool,
      `bindings.${tool} must be an object, e.g. ${hintFor("http", transport)}.`,
      tool,
    );
  const kind = kindOf(config, transport);
  // A binding of another transport's kind is refused by the router with BINDING_NOT_READY.
  if (kind !== "invoker" && kind !== transport) return;
  const known: readonly string[] = KEYS[kind];
  for (const key of Object.keys(config)) {
    if (known.includes(key)) continue;
    const nearest = nearestNames(key, known, 1);
    throw bindingInvalid(
      key,
      `bindings.${tool}: "${key}" is not a key of ${kind === "invoker" ? "an invoker" : `an ${kind.toUpperCase()}`} binding${nearest.length > 0 ? ` — did you mean "${nearest[0]}"?` : "."} Keys: ${known.join(", ")}.`,
      tool,
    );
  }
  if (kind === "http" && !("baseUrl" in config))
    throw bindingInvalid(
      "baseUrl",
      `bindings.${tool}: baseUrl is missing; an HTTP binding is ${hintFor("http", transport)}.`,
      tool,
    );
  if (kind === "mcp") {
    positiveLimit(`bindings.${tool}`, "timeoutMs", (config as { timeoutMs?: unknown }).timeoutMs, tool);
    const stdio = (config as { mcp?: { stdio?: { env?: unknown } } }).mcp?.stdio;
    if (stdio !== null && typeof stdio === "object")
      checkStdioEnv(stdio.env, `bindings.${tool}.mcp.stdio.env`, tool);
  }
  if (kind === "http") {
    const limits = config as { timeoutMs?: unknown; maxResponseBytes?: unknown };
    positiveLimit(`bindings.${tool}`, "timeoutMs", limits.timeoutMs, tool);
    positiveLimit(`bindings.${tool}`, "maxResponseBytes", limits.maxResponseBytes, tool);
  }
}

/** A binding for a tool the lock does not have: the tools it has, nearest first. */
export function unknownBindingTool(
  tool: string,
  locked: readonly string[],
): SchemaRouterError<"UNKNOWN_TOOL"> {
  const nearest = nearestNames(tool, locked, 1);
  return new SchemaRouterError(
    "UNKNOWN_TOOL",
    `bindings.${tool}: no such tool in the lockfile${nearest.length > 0 ? ` — did you mean "${nearest[0]}"?` : "."} Locked tools: ${locked.join(", ") || "(none)"}.`,
    { tool },
  );
}
