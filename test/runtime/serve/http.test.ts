/**
 * The HTTP transport's checks (path, Host, Origin, bearer token, body bound, session bound, idle
 * sessions) on a real listening server, and the guard that removes the client's Authorization
 * header once it is checked.
 */
import type { IncomingMessage } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SchemaRouter } from "../../../runtime/router/router.js";
import { guardOf, isLoopbackHost } from "../../../runtime/serve/http-guard.js";
import { createMcpServer, type SchemaRouterMcpServer } from "../../../runtime/serve/index.js";
import { defineLocalTool } from "../../../runtime/transports/local/transport.js";
import { localRouter } from "../../helpers/serve-local.js";

const TOKEN = "a-token-of-32-characters-exactly";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const ping = defineLocalTool({
  name: "ping",
  endpoints: [
    {
      name: "pong",
      effect: "read",
      input: { type: "object", properties: {} },
      output: { type: "object", properties: { ok: { type: "boolean" } } },
      handler: () => ({ ok: true }),
    },
  ],
});

function request(url: string, headers: Record<string, string>): IncomingMessage {
  const raw = Object.entries(headers).flat();
  return { url, headers: { ...headers }, rawHeaders: raw } as unknown as IncomingMessage;
}

describe("the HTTP guard", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.10", false],
    ["localhost.evil.example", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it("checks path, Host, Origin and token, then removes the Authorization header", () => {
    const guard = guardOf({ host: "127.0.0.1", port: 8931, path: "/mcp", options: { token: TOKEN } });
    const ok = { host: "127.0.0.1:8931", authorization: `Bearer ${TOKEN}` };
    expect(guard.check(request("/other", ok))?.status).toBe(404);
    expect(guard.check(request("/mcp", { ...ok, host: "evil.example:8931" }))?.status).toBe(403);
    expect(guard.check(request("/mcp", { ...ok, origin: "https://evil.example" }))?.status).toBe(403);
    expect(guard.check(request("/mcp", { ...ok, authorization: "Bearer wrong" }))).toMatchObject({
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="schemarouter"' },
    });
    expect(guard.check(request("/mcp", { host: ok.host }))?.status).toBe(401);
    const passed = request("/mcp?x=1", { ...ok, origin: "http://localhost:6274" });
    expect(guard.check(passed)).toBeUndefined();
    expect(passed.headers.authorization).toBeUndefined();
    expect(passed.rawHeaders.map((name) => name.toLowerCase())).not.toContain("authorization");
    expect(JSON.stringify(passed.rawHeaders)).not.toContain(TOKEN);
  });

  it("accepts configured hosts and origins besides the loopback ones", () => {
    const guard = guardOf({
      host: "127.0.0.1",
      port: 8931,
      path: "/mcp",
      options: { allowedHosts: ["mcp.example.org"], allowedOrigins: ["https://app.example.org"] },
    });
    expect(
      guard.check(request("/mcp", { host: "mcp.example.org", origin: "https://app.example.org" })),
    ).toBeUndefined();
    expect(guard.check(request("/mcp", { host: "localhost:8931" }))).toBeUndefined();
    expect(() =>
      guardOf({
        host: "127.0.0.1",
        port: 1,
        path: "/mcp",
        options: { allowedOrigins: ["https://a.example/path"] },
      }),
    ).toThrow(expect.objectContaining({ code: "SERVE_OPTIONS_INVALID" }));
  });
});

describe("listen()", () => {
  let router: SchemaRouter;
  let server: SchemaRouterMcpServer;

  beforeAll(async () => {
    router = localRouter([ping]);
    server = await createMcpServer(router, { log: () => undefined });
  });
  afterAll(async () => {
    await server.close();
    await router.close();
  });

  it("refuses a non-loopback interface without a long enough token", async () => {
    await expect(server.listen({ host: "0.0.0.0", port: 0 })).rejects.toMatchObject({
      code: "SERVE_OPTIONS_INVALID",
      details: { option: "http.token" },
    });
    await expect(server.listen({ host: "0.0.0.0", port: 0, token: "short" })).rejects.toMatchObject({
      code: "SERVE_OPTIONS_INVALID",
    });
    const open = await server.listen({ host: "0.0.0.0", port: 0, token: TOKEN });
    await open.close();
  });

  it("bounds bodies and sessions, and answers requests outside a session", async () => {
    const http = await server.listen({ port: 0, maxBodyBytes: 1024, maxSessions: 1 });
    try {
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(http.url, { method: "POST", headers: { ...HEADERS, ...headers }, body });
      expect((await post(`${INITIALIZE}${" ".repeat(2000)}`)).status).toBe(413);
      expect((await post("{not json")).status).toBe(400);
      expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }))).status).toBe(400);
      expect((await post(INITIALIZE, { "mcp-session-id": "no-such-session" })).status).toBe(404);
      const first = await post(INITIALIZE);
      expect(first.status).toBe(200);
      await first.body?.cancel();
      expect(http.sessions).toBe(1);
      expect((await post(INITIALIZE)).status).toBe(503);
      const id = first.headers.get("mcp-session-id")!;
      const closed = await fetch(http.url, {
        method: "DELETE",
        headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      });
      expect(closed.status).toBe(200);
      expect(http.sessions).toBe(0);
      expect(server.sessionCount).toBe(0);
    } finally {
      await http.close();
    }
  });

  it("closes sessions that stay idle", async () => {
    const http = await server.listen({ port: 0, sessionIdleMs: 300 });
    try {
      const client = new Client({ name: "idle", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      expect((await client.callTool({ name: "ping.pong", arguments: {} })).structuredContent).toEqual({
        ok: true,
      });
      expect(http.sessions).toBe(1);
      const started = Date.now();
      while (http.sessions > 0 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 100));
      expect(http.sessions).toBe(0);
      await client.close();
    } finally {
      await http.close();
    }
  });
});
