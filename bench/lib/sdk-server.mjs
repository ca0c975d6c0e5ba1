/**
 * The serve benchmark's info baseline: a bare MCP SDK low-level Server over Streamable HTTP (the
 * transport `schemarouter serve --http` builds on) with one tool answering a constant, in its own
 * process. The gap between it and `serve` is the cost of the governed call; the gap between it and
 * `router.invoke()` in-process is the cost of MCP over HTTP itself. Prints its URL on stderr.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const RESULT = { id: 1, full_name: "octo/bench", stars: 42 };
const sessions = new Map();

const http = createServer(async (request, response) => {
  let body;
  if (request.method === "POST") {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  }
  const id = request.headers["mcp-session-id"];
  if (typeof id === "string") return sessions.get(id).handleRequest(request, response, body);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
  });
  const server = new Server({ name: "bare", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "constant", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: "text", text: JSON.stringify(RESULT) }],
    structuredContent: RESULT,
  }));
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
});
http.listen(0, "127.0.0.1", () => {
  process.stderr.write(`tools at http://127.0.0.1:${http.address().port}/mcp \n`);
});
