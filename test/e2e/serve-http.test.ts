/**
 * `schemarouter serve --http` end to end: the SDK's Client over Streamable HTTP against the built CLI
 * (a bearer token from an environment variable, Host/Origin checks, bounded bodies), the client's
 * Authorization header never reaching the upstream, traces carrying the MCP session id, and a lock
 * change announced with notifications/tools/list_changed on the session's stream.
 */
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteTraceStore } from "../../runtime/traces/sqlite.js";
import { runCli } from "../helpers/cli.js";
import {
  petstoreBinding,
  type ServedProject,
  type ServeProcess,
  spawnServe,
  startServedProject,
  UPSTREAM_TOKEN,
} from "../helpers/serve-project.js";

const CLIENT_TOKEN = "client-token-0123456789abcdef";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("schemarouter serve --http", () => {
  let served: ServedProject;
  let serve: ServeProcess;

  beforeAll(async () => {
    served = await startServedProject("serve-http");
    await served.compile({
      expose: ["petstore.getPetById", "petstore.listPets", "memory.read_graph"],
      bindings: petstoreBinding(served),
      http: { tokenEnv: "SERVE_TOKEN", maxBodyBytes: 4096 },
      traces: { sqlite: "traces.db" },
    });
    serve = await spawnServe(served, ["--http", "127.0.0.1:0"], { SERVE_TOKEN: CLIENT_TOKEN });
  });
  afterAll(async () => {
    await serve?.stop();
    await served?.close();
  });

  const connect = async (token = CLIENT_TOKEN) => {
    const client = new Client({ name: "serve-http-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(serve.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    return { client, transport };
  };

  it("lists and calls over Streamable HTTP, with the session id in the traces", async () => {
    const { client, transport } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "memory.read_graph",
      "petstore.getPetById",
      "petstore.listPets",
      "search_capabilities",
    ]);
    const pet = await client.callTool({ name: "petstore.getPetById", arguments: { petId: "rex" } });
    expect(pet.structuredContent).toEqual({
      id: "rex",
      weightKg: 31500,
      owner: { address: { city: "Seoul" } },
    });
    // listPets returns an array: its structured content is wrapped, as its output schema says.
    const listing = tools.find((tool) => tool.name === "petstore.listPets")!;
    expect(listing.outputSchema).toMatchObject({ type: "object", required: ["result"] });
    const pets = await client.callTool({ name: "petstore.listPets", arguments: { tag: "cat" } });
    expect(pets.structuredContent).toMatchObject({ result: [{ id: "tom", name: "Tom" }] });
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await client.close();

    const store = await SqliteTraceStore.open(join(served.project.dir, "traces.db"));
    try {
      const runs = await store.listRuns();
      const starts = await Promise.all(
        runs.map(
          async (runId) => JSON.parse((await store.readRun(runId))[0]!.data) as Record<string, unknown>,
        ),
      );
      const ours = starts.filter(
        (event) => (event.metadata as Record<string, string>).mcpSessionId === sessionId,
      );
      expect(ours).toHaveLength(2);
      expect(ours[0]).toMatchObject({
        type: "run.start",
        tags: ["mcp"],
        metadata: { mcpSessionId: sessionId, mcpTransport: "http", mcpTool: "petstore.getPetById" },
      });
    } finally {
      await store.close();
    }
  });

  it("refuses requests without the bearer token, and never forwards the client's token upstream", async () => {
    const missing = await fetch(serve.url, {
      method: "POST",
      headers: jsonHeaders(),
      body: JSON.stringify(INITIALIZE),
    });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await fetch(serve.url, {
      method: "POST",
      headers: jsonHeaders({ authorization: "Bearer not-the-token" }),
      body: JSON.stringify(INITIALIZE),
    });
    expect(wrong.status).toBe(401);
    await expect(connect("not-the-token")).rejects.toThrow();

    const { client } = await connect();
    served.petstore.requests.length = 0;
    await client.callTool({ name: "petstore.getPetById", arguments: { petId: "tom" } });
    await client.callTool({ name: "petstore.listPets", arguments: {} });
    await client.close();
    expect(served.petstore.requests.length).toBe(2);
    for (const seen of served.petstore.requests) {
      expect(seen.headers.authorization).toBe(`Bearer ${UPSTREAM_TOKEN}`);
      expect(JSON.stringify(seen)).not.toContain(CLIENT_TOKEN);
    }
  });

  it("refuses a foreign Origin or Host (DNS rebinding) and bodies over the bound", async () => {
    const origin = await fetch(serve.url, {
      method: "POST",
      headers: jsonHeaders({ authorization: `Bearer ${CLIENT_TOKEN}`, origin: "http://evil.example.com" }),
      body: JSON.stringify(INITIALIZE),
    });
    expect(origin.status).toBe(403);
    const host = await rawPost(serve.url, JSON.stringify(INITIALIZE), {
      host: "evil.example.com",
      authorization: `Bearer ${CLIENT_TOKEN}`,
    });
    expect(host.status).toBe(403);
    const big = await fetch(serve.url, {
      method: "POST",
      headers: jsonHeaders({ authorization: `Bearer ${CLIENT_TOKEN}` }),
      body: JSON.stringify({ ...INITIALIZE, padding: "x".repeat(5000) }),
    });
    expect(big.status).toBe(413);
    // A loopback browser origin is accepted.
    const local = await fetch(serve.url, {
      method: "POST",
      headers: jsonHeaders({ authorization: `Bearer ${CLIENT_TOKEN}`, origin: "http://localhost:6274" }),
      body: JSON.stringify(INITIALIZE),
    });
    expect(local.status).toBe(200);
  });

  it("announces a lock change on the session's stream", async () => {
    const { client } = await connect();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    // Give the client's GET stream (server-initiated messages) a moment to open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await served.compile({
      expose: ["petstore.getPetById", "petstore.listPets", "petstore.listVisits", "memory.read_graph"],
      bindings: petstoreBinding(served),
      http: { tokenEnv: "SERVE_TOKEN", maxBodyBytes: 4096 },
      traces: { sqlite: "traces.db" },
    });
    // The serve section is read at start: the lock is unchanged, so nothing is announced yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(changed).toBe(0);
    const document = join(served.project.dir, "openapi.yaml");
    const { readFileSync, writeFileSync } = await import("node:fs");
    writeFileSync(
      document,
      readFileSync(document, "utf8").replace("Find a pet by its ID.", "Find one pet by its ID."),
    );
    expect((await runCli(served.project.dir, ["compile"], served.env)).code).toBe(0);
    await until(() => changed > 0);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "petstore.getPetById")?.description).toContain("Find one pet");
    await client.close();
  });

  it("refuses to bind a non-loopback interface without a token", async () => {
    await served.compile({ bindings: petstoreBinding(served), expose: ["petstore.listPets"] });
    await expect(spawnServe(served, ["--http", "0.0.0.0:0"])).rejects.toThrow(/needs a bearer token/);
  });
});

function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra };
}

/** A POST with headers fetch may not set (Host). */
function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: { ...jsonHeaders(), "content-length": Buffer.byteLength(body), ...headers },
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0 });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
