/**
 * In-process fixtures for the `schemarouter/serve` unit tests: routers over local tools (registered
 * from their definitions, bound to the same definitions) and SDK Clients connected to a served
 * session through the SDK's in-memory transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { Registry, registerTool } from "../../runtime/load/registry.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import type { SchemaRouterMcpServer } from "../../runtime/serve/index.js";
import { type LocalToolDefinition, localToolSpec } from "../../runtime/transports/local/transport.js";

/** A router over local tools, each bound to its own definition. */
export function localRouter(
  definitions: readonly LocalToolDefinition[],
  options: { policy?: ExecutionPolicy } = {},
): SchemaRouter {
  const registry = new Registry(
    definitions.map((definition) =>
      registerTool({
        tool: localToolSpec(definition),
        source: definition.name,
        sourceKind: "local",
        defs: {},
      }),
    ),
  );
  return SchemaRouter.fromRegistry(registry, {
    local: Object.fromEntries(definitions.map((definition) => [definition.name, definition])),
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
  });
}

/** A client connected to a new session of `server` over an in-memory transport. */
export async function connectClient(server: SchemaRouterMcpServer, name = "test"): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** The refusal a result carries as text (`{ ok: false, code, … }`), or undefined for a success. */
export function refusalOf(result: object): Record<string, unknown> | undefined {
  const { isError, content } = result as { isError?: unknown; content?: unknown };
  if (isError !== true) return undefined;
  return JSON.parse((content as { text: string }[])[0]!.text) as Record<string, unknown>;
}

/** A promise with its resolve function outside (to hold a local tool's handler). */
export function gate<T = void>(): { readonly promise: Promise<T>; readonly open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
