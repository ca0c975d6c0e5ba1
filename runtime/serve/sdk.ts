/**
 * The MCP SDK is an optional peer: imported when a server is created, never when the runtime is
 * imported. A missing one is OPTIONAL_DEPENDENCY_MISSING, naming the package to install.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type * as Types from "@modelcontextprotocol/sdk/types.js";
import { loadPeer } from "../agents/peer.js";

export interface Sdk {
  readonly Server: typeof Server;
  readonly types: typeof Types;
}

export function loadSdk(): Promise<Sdk> {
  return loadPeer("@modelcontextprotocol/sdk", "createMcpServer", async () => {
    const [server, types] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    return { Server: server.Server, types };
  });
}
