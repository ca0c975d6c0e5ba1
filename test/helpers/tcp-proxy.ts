/**
 * A loopback TCP proxy in front of a real server, to make it unreachable on demand: `refuse` closes
 * every connection and refuses new ones (a stopped server), `blackhole` keeps accepting but never
 * answers (a hung server or a dropped network), `forward` passes bytes again.
 */
import { createServer, Socket as NetSocket, type Server, type Socket } from "node:net";

export type ProxyMode = "forward" | "refuse" | "blackhole";

export interface TcpProxy {
  readonly port: number;
  /** `url` with its port replaced by the proxy's. */
  via(url: string): string;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = "forward";
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (mode === "refuse") {
      client.destroy();
      return;
    }
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => undefined);
    if (mode === "blackhole") {
      client.resume();
      return;
    }
    const upstream = new NetSocket();
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.connect(targetPort, "127.0.0.1");
    client.on("data", (chunk) => {
      if (mode === "forward") upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (mode === "forward") client.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  const port = address.port;
  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.port = String(port);
      return parsed.toString();
    },
    set(next) {
      mode = next;
      if (next === "refuse") for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
