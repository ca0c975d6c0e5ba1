/**
 * Streamable HTTP (docs/serve.md, "HTTP security"). Every request passes, in order: the path; the
 * Host header (loopback names when bound to loopback, plus `allowedHosts`), and the Origin header
 * when a browser sends one (loopback origins plus `allowedOrigins`), against DNS rebinding; the bearer
 * token when one is set (required for any host but loopback); a bounded body. The client's
 * `Authorization` header is then removed from the request, so nothing after the check — handlers,
 * the router, an upstream — can ever see it. Each MCP session has its own SDK transport and Server;
 * sessions are bounded in number and closed after an idle period.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { loadPeer } from "../agents/peer.js";
import { invalid } from "./catalog.js";
import { SERVE_DEFAULTS } from "./defaults.js";
import { guardOf, type HttpGuard, isLoopbackHost } from "./http-guard.js";
import type { SchemaRouterMcpServer } from "./server.js";
import type { ServeSession } from "./session.js";

export interface HttpServeOptions {
  /** Interface to bind (default 127.0.0.1). Anything but loopback needs `token`. */
  readonly host?: string;
  /** Port (default 8931; 0 picks a free one). */
  readonly port?: number;
  /** The MCP endpoint's path (default /mcp). */
  readonly path?: string;
  /** Bearer token every request must carry (from trusted config, e.g. an environment variable). */
  readonly token?: string;
  /** Host names accepted besides the loopback names (e.g. the public name behind a proxy). */
  readonly allowedHosts?: readonly string[];
  /** Browser origins accepted besides loopback ones (e.g. `http://localhost:6274` is already one). */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Open sessions at once (default 100). */
  readonly maxSessions?: number;
  /** A session without requests for this long is closed (default 30 minutes). */
  readonly sessionIdleMs?: number;
}

export interface HttpServeHandle {
  /** `http://host:port/path` */
  readonly url: string;
  readonly sessions: number;
  /** Resolves when the server has stopped. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  readonly session: ServeSession;
  lastSeen: number;
  /** POST requests in progress (a call that takes long is not idle). */
  active: number;
}

export async function listenHttp(
  served: SchemaRouterMcpServer,
  options: HttpServeOptions,
): Promise<HttpServeHandle> {
  const { StreamableHTTPServerTransport } = await loadPeer(
    "@modelcontextprotocol/sdk",
    "schemarouter serve --http",
    () => import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  );
  const { isInitializeRequest } = await import("@modelcontextprotocol/sdk/types.js");
  const host = options.host ?? SERVE_DEFAULTS.host;
  const path = options.path ?? SERVE_DEFAULTS.path;
  const maxBody = limit("maxBodyBytes", options.maxBodyBytes ?? SERVE_DEFAULTS.maxBodyBytes);
  const maxSessions = limit("maxSessions", options.maxSessions ?? SERVE_DEFAULTS.maxSessions);
  const idleMs = limit("sessionIdleMs", options.sessionIdleMs ?? SERVE_DEFAULTS.sessionIdleMs);
  if (!path.startsWith("/")) throw invalid("http.path", "must start with /.");
  if (!isLoopbackHost(host) && (options.token === undefined || options.token.length < 16)) {
    throw invalid(
      "http.token",
      `binding ${host} (not loopback) needs a bearer token of at least 16 characters; set one (serve.http.tokenEnv names its environment variable) or bind 127.0.0.1.`,
    );
  }
  const entries = new Map<string, Entry>();
  /** Sessions whose initialize is being handled (counted against maxSessions too). */
  let opening = 0;
  let guard: HttpGuard | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = guard!.check(request);
    if (refusal !== undefined) return reply(response, refusal.status, refusal.message, refusal.headers);
    const body = request.method === "POST" ? await readBody(request, maxBody) : undefined;
    if (body instanceof BodyError) return reply(response, body.status, body.message);
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const entry = entries.get(id);
      if (entry === undefined) return reply(response, 404, "Session not found", {}, -32001);
      entry.lastSeen = Date.now();
      // Only requests count as activity: a client's open GET stream alone does not keep a session.
      const counted = request.method === "POST";
      if (counted) entry.active++;
      try {
        await entry.transport.handleRequest(request, response, body?.value);
      } finally {
        if (counted) entry.active--;
        entry.lastSeen = Date.now();
      }
      return;
    }
    if (request.method !== "POST" || body === undefined || !isInitializeRequest(body.value)) {
      return reply(response, 400, "Bad Request: no valid session ID (send initialize first)");
    }
    if (entries.size + opening >= maxSessions)
      return reply(response, 503, "Too many open sessions; try again later");
    opening++;
    const session = served.session("http");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        session.id = sessionId;
        entries.set(sessionId, { transport, session, lastSeen: Date.now(), active: 0 });
      },
      onsessionclosed: (sessionId) => {
        entries.delete(sessionId);
      },
    });
    transport.onclose = () => {
      entries.delete(session.id);
    };
    try {
      await session.server.connect(transport);
      await transport.handleRequest(request, response, body.value);
    } finally {
      opening--;
      // An initialize the transport refused made no session: nothing may stay behind.
      if (transport.sessionId === undefined) await transport.close();
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      served.log("warning", `HTTP request failed: ${String(error)}`);
      if (!response.headersSent) reply(response, 500, "Internal error", {}, -32603);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? SERVE_DEFAULTS.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  guard = guardOf({ host, port, path, options });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const entry of entries.values()) {
        if (entry.active === 0 && now - entry.lastSeen > idleMs) void entry.transport.close();
      }
    },
    Math.max(1_000, Math.min(60_000, Math.floor(idleMs / 2))),
  );
  sweep.unref();
  let resolveClosed: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${path}`,
    get sessions() {
      return entries.size;
    },
    closed,
    async close() {
      clearInterval(sweep);
      await Promise.all([...entries.values()].map((entry) => entry.transport.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      resolveClosed();
    },
  };
}

class BodyError {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/** Reads and parses a JSON body of at most `max` bytes. */
async function readBody(request: IncomingMessage, max: number): Promise<{ value: unknown } | BodyError> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > max) {
    request.resume();
    return new BodyError(413, `Request body larger than ${max} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      request.resume();
      return new BodyError(413, `Request body larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return new BodyError(400, "Parse error: the body is not JSON");
  }
}

/** A JSON-RPC error response (id null: the request was not read as JSON-RPC). */
function reply(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  code = status === 400 && message.startsWith("Parse") ? -32700 : -32000,
): void {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function limit(option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw invalid(`http.${option}`, "must be a positive integer.");
  return value;
}
