/**
 * The demo's JSON-RPC server: the real `@open-rpc/server-js` (Router and HTTP transport) serving
 * examples/openrpc/simple-math.json — the `@open-rpc/examples` Simple Math document — with real
 * handlers (the document dereferenced by `@open-rpc/schema-utils-js`, as server-js expects), on a fixed loopback port because the root config and lockfile name its URL.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { parseOpenRPCDocument } from "@open-rpc/schema-utils-js";
import { Router, transports } from "@open-rpc/server-js";

export const DEMO_OPENRPC_PORT = 18475;

export interface DemoMathServer {
  readonly url: string;
  close(): Promise<void>;
}

/** `documentPath`: examples/openrpc/simple-math.json (the compiled script does not sit beside it). */
export async function startDemoMathServer(
  documentPath: string,
  port = DEMO_OPENRPC_PORT,
): Promise<DemoMathServer> {
  // Dereferenced as server-js expects (its param validation cannot follow $refs).
  const document = await parseOpenRPCDocument(JSON.parse(readFileSync(documentPath, "utf8")));
  // Two releases of the same OpenrpcDocument type (spec-types and meta-schema): the same document.
  const router = new Router(document as unknown as ConstructorParameters<typeof Router>[0], {
    addition: async (a: number, b: number) => a + b,
    subtraction: async (a: number, b: number) => a - b,
  });
  const transport = new transports.HTTPTransport({ port, middleware: [] });
  transport.addRouter(router);
  // The transport's own node:http server, on loopback only (its start() listens on every interface).
  const server = (transport as unknown as { server: Server }).server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
