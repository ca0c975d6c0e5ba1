/**
 * Hostile MCP servers over Streamable HTTP (docs/sources/mcp.md): redirects on and off the origin,
 * wrong content types, echoed credentials, endless bodies, broken event streams and stalls, at
 * compile time (the MCP source adapter) and at run time (the router's MCP binding). The canary is
 * the trusted Authorization header; it never reaches another origin, an artifact or a run event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpSourceConfig } from "../../compiler/config/mcp-source.js";
import { mcpAdapter } from "../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../compiler/sources/types.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { Registry, registerTool } from "../../runtime/load/registry.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import {
  type HostileHttpMode,
  type HostileMcpHttp,
  startHostileMcpHttp,
} from "../fixtures/hostile/hostile-mcp-http.js";
import { assertNoSecret, HostileTally, MemoryTraceStore, outcomeOf } from "../fixtures/hostile/outcomes.js";
import { REPO_ROOT } from "../helpers/project.js";

const CANARY = "CANARY-mcp-http-91b2d4aa";
const tally = new HostileTally("mcp-http-servers");
let server: HostileMcpHttp;
let compiled: SourceResult;

const context = { cwd: REPO_ROOT, env: { CANARY_AUTH: `Bearer ${CANARY}` }, allowInsecureHttp: false };
const source = (): McpSourceConfig => ({
  kind: "mcp",
  url: server.url,
  headers: { authorization: { env: "CANARY_AUTH" } },
  effects: { lookup: "read", note: "write" },
});

beforeAll(async () => {
  server = await startHostileMcpHttp();
  compiled = await mcpAdapter.resolve("remote", source(), context);
});
afterAll(async () => {
  console.log(tally.line());
  await server.close();
});

describe("compiling a hostile Streamable HTTP server", () => {
  it("compiles the well-behaved answers without storing the header value", () => {
    expect(compiled.tools[0]?.endpoints.map((endpoint) => endpoint.name)).toEqual(["lookup", "note", "wipe"]);
    expect(server.requests.every((request) => request.authorized)).toBe(true);
    assertNoSecret(CANARY, compiled);
  });

  it.each<[HostileHttpMode, string]>([
    ["redirect-off-origin", "MCP_CONNECT_FAILED"],
    ["redirect-same-origin", "MCP_CONNECT_FAILED"],
    ["html", "MCP_CONNECT_FAILED"],
    ["destroy", "MCP_CONNECT_FAILED"],
    ["list-crash", "MCP_LIST_FAILED"],
  ])("%s is refused with %s and nothing reaches another origin", async (mode, code) => {
    server.mode = mode;
    server.elsewhere.length = 0;
    const outcome = await outcomeOf(() => mcpAdapter.resolve("remote", source(), context), 10_000);
    server.mode = "ok";
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    expect(server.elsewhere).toEqual([]);
    assertNoSecret(CANARY, outcome);
  });

  /**
   * Was a bug: the SDK puts the body of a non-2xx answer into its error
   * message and the adapter quotes that message, so a server that echoes the request's
   * Authorization header gets the trusted credential printed by `schemarouter compile`.
   */
  it.each<[HostileHttpMode]>([["status-401-echo"], ["status-500-echo"]])(
    "fixed: %s puts the echoed Authorization header into the compile error",
    async (mode) => {
      server.mode = mode;
      const outcome = await outcomeOf(() => mcpAdapter.resolve("remote", source(), context), 10_000);
      server.mode = "ok";
      expect(outcome.kind === "refused" && outcome.error.code).toBe("MCP_CONNECT_FAILED");
      assertNoSecret(CANARY, outcome);
    },
  );
});

describe("calling a hostile Streamable HTTP server through the router", () => {
  async function callWith(mode: HostileHttpMode, endpoint: string, includePayloads = true) {
    const tool = compiled.tools[0]!;
    const registered = registerTool({
      tool,
      source: "remote",
      sourceKind: "mcp",
      defs: compiled.defs,
      remoteDigests: compiled.remoteDigests?.remote ?? {},
    });
    const headers = { authorization: `Bearer ${CANARY}` };
    const router = SchemaRouter.fromRegistry(new Registry([registered]), {
      policy: new ExecutionPolicy({ allowMutations: true }),
      bindings: { remote: { mcp: { url: server.url, headers, connectTimeoutMs: 800 }, timeoutMs: 500 } },
    });
    const store = new MemoryTraceStore();
    const call = {
      tool: "remote",
      endpoint,
      arguments: {},
      endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
      toolFingerprint: registered.fingerprint,
    };
    server.mode = mode;
    server.elsewhere.length = 0;
    try {
      const outcome = await outcomeOf(() => router.call(call, { traceStore: store, includePayloads }), 8_000);
      assertNoSecret(CANARY, store.events);
      return outcome;
    } finally {
      server.mode = "ok";
      await router.close();
    }
  }

  it.each<[HostileHttpMode, string, string]>([
    ["never", "lookup", "INVOCATION_UNAVAILABLE"],
    ["endless-body", "lookup", "INVOCATION_UNAVAILABLE"],
    ["sse-garbage", "lookup", "INVOCATION_UNAVAILABLE"],
    ["not-jsonrpc", "lookup", "INVOCATION_UNAVAILABLE"],
    ["redirect-off-origin", "lookup", "INVOCATION_UNAVAILABLE"],
    ["list-never", "lookup", "INVOCATION_UNAVAILABLE"],
    ["call-never", "note", "INVOCATION_UNAVAILABLE"],
    ["call-sse-wrong-id", "note", "INVOCATION_UNAVAILABLE"],
    ["call-content-not-array", "lookup", "TOOL_ERROR"],
  ])("%s (%s) is refused with %s", async (mode, endpoint, code) => {
    const outcome = await callWith(mode, endpoint);
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe(code);
    expect(server.elsewhere).toEqual([]);
    assertNoSecret(CANARY, outcome);
  });

  it("a server that echoes the Authorization header: run events and traces carry none of it", async () => {
    // The thrown error quotes the server's answer, as the HTTP transport's HTTP_STATUS errors do;
    // events carry a structural message unless the run includes payloads.
    const outcome = await callWith("status-500-echo", "lookup", false);
    tally.record(outcome);
    expect(outcome.kind === "refused" && outcome.error.code).toBe("INVOCATION_UNAVAILABLE");
  });

  it("a well-behaved answer succeeds", async () => {
    const outcome = await callWith("ok", "note");
    tally.record(outcome);
    expect(outcome.kind === "ok" && outcome.value.data).toEqual({ id: "n1" });
  });
});
