/**
 * Trusted MCP client factories: each returns `() => Promise<Client>` that builds and connects an SDK
 * Client over stdio (allowlisted environment) or Streamable HTTP (trusted headers, no redirects off
 * origin). The SDK is imported lazily, when a factory is first called.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { loadPeer, MCP_SDK } from "../../errors/optional-peer.js";
import type { McpClientLike } from "./client-like.js";
import {
  checkMcpHeaders,
  checkMcpUrl,
  httpIdentity,
  resolveStdioEnv,
  type StdioEnv,
  stdioIdentity,
} from "./target.js";

export type { McpClientLike, McpServerVersionLike } from "./client-like.js";

/** How this runtime introduces itself in `initialize`. */
export const MCP_CLIENT_INFO = { name: "schemarouter", version: "0.1.0" } as const;

/** Default bound for connecting (spawn/HTTP + `initialize`). */
export const MCP_DEFAULT_CONNECT_TIMEOUT_MS = 20_000;

/** A trusted factory: builds and connects a fresh MCP SDK `Client` (typed structurally, see McpClientLike). */
export type McpClientFactory = () => Promise<McpClientLike>;

export interface StdioClientOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /**
   * The complete child environment (default: empty): names copied from this process's environment
   * (`["GITHUB_TOKEN"]`, the config's allowlist shape) or the values (`{ GITHUB_TOKEN: token }`).
   */
  readonly env?: StdioEnv;
  readonly stderr?: "inherit" | "ignore";
  readonly connectTimeoutMs?: number;
}

export interface HttpClientOptions {
  /** Streamable HTTP endpoint; no userinfo, query string or fragment. */
  readonly url: string;
  /** Trusted headers (e.g. authorization), never from tool schemas or config literals. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly allowInsecureHttp?: boolean;
  readonly connectTimeoutMs?: number;
}

/** One MCP connection target, as trusted local configuration. */
export type McpConnectionOptions =
  | ({ readonly stdio: StdioClientOptions } & { readonly url?: never })
  | ({ readonly url: string } & Omit<HttpClientOptions, "url"> & { readonly stdio?: never });

async function connectClient(transport: Transport, timeoutMs: number | undefined): Promise<Client> {
  const { Client } = await loadPeer(
    MCP_SDK,
    "An MCP binding",
    () => import("@modelcontextprotocol/sdk/client/index.js"),
  );
  const client = new Client({ ...MCP_CLIENT_INFO }, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: timeoutMs ?? MCP_DEFAULT_CONNECT_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/** Factory for a stdio server spawned with exactly `env` (nothing of this process's environment leaks). */
export function stdioClientFactory(options: StdioClientOptions): McpClientFactory {
  const env = resolveStdioEnv(options.env);
  const params = { ...options, env, args: [...(options.args ?? [])] };
  return async () => {
    const { createStdioTransport } = await import("./stdio.js");
    return connectClient(await createStdioTransport(params), options.connectTimeoutMs);
  };
}

/** Factory for a Streamable HTTP server. URL and headers are checked now, before anything connects. */
export function httpClientFactory(options: HttpClientOptions): McpClientFactory {
  const url = checkMcpUrl(options.url, { allowInsecureHttp: options.allowInsecureHttp === true });
  const headers = checkMcpHeaders(options.headers ?? {});
  return async () => {
    const { StreamableHTTPClientTransport } = await loadPeer(
      MCP_SDK,
      "An MCP Streamable HTTP binding",
      () => import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    );
    const transport = new StreamableHTTPClientTransport(new URL(url.href), {
      requestInit: { headers: { ...headers }, redirect: "error" },
      redirectPolicy: "same-origin",
      reconnectionOptions: {
        maxRetries: 2,
        initialReconnectionDelay: 500,
        maxReconnectionDelay: 5000,
        reconnectionDelayGrowFactor: 2,
      },
    });
    return connectClient(transport, options.connectTimeoutMs);
  };
}

/** Factory for either kind of target. */
export function mcpClientFactory(options: McpConnectionOptions): McpClientFactory {
  if (options.stdio !== undefined) return stdioClientFactory(options.stdio);
  const { url, ...rest } = options;
  return httpClientFactory({ url, ...rest });
}

/** The execution identity (`ToolSpec.execution`) a connection target corresponds to. */
export function mcpExecutionIdentity(options: McpConnectionOptions): {
  readonly transport: "mcp";
  readonly server: "stdio" | "http";
  readonly identity: string;
} {
  if (options.stdio !== undefined) {
    return {
      transport: "mcp",
      server: "stdio",
      identity: stdioIdentity(options.stdio.command, options.stdio.args),
    };
  }
  const url = checkMcpUrl(options.url, { allowInsecureHttp: options.allowInsecureHttp === true });
  return { transport: "mcp", server: "http", identity: httpIdentity(url) };
}
