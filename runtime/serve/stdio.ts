/**
 * One session over stdin/stdout (docs/serve.md): what Claude Desktop, Cursor and the MCP Inspector
 * start. stdout carries only the protocol; the session ends when the input ends or on close().
 */
import type { Readable, Writable } from "node:stream";
import { loadPeer } from "../agents/peer.js";
import type { SchemaRouterMcpServer } from "./server.js";
import type { ServeSession } from "./session.js";

export interface StdioServeOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export interface StdioServeHandle {
  readonly session: ServeSession;
  /** Resolves when the session has ended. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(
  served: SchemaRouterMcpServer,
  options: StdioServeOptions,
): Promise<StdioServeHandle> {
  const { StdioServerTransport } = await loadPeer(
    "@modelcontextprotocol/sdk",
    "schemarouter serve --stdio",
    () => import("@modelcontextprotocol/sdk/server/stdio.js"),
  );
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let resolveClosed: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  transport.onclose = () => resolveClosed();
  const session = await served.connect(transport, "stdio");
  const onEnd = () => void transport.close();
  stdin.once("end", onEnd);
  void closed.then(() => stdin.off("end", onEnd));
  return {
    session,
    closed,
    async close() {
      await transport.close();
      await closed;
    },
  };
}
