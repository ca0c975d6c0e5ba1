/** Compiling an MCP server over Streamable HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpSourceConfig } from "../../../../compiler/config/mcp-source.js";
import { mcpAdapter } from "../../../../compiler/sources/mcp/index.js";
import { mcpRemoteDigest } from "../../../../runtime/format/mcp-digest.js";
import { checkMcpUrl } from "../../../../runtime/transports/mcp/target.js";
import {
  compilable,
  expectedDigests,
  fixtureTools,
  rejection,
  sourceContext,
  stdio,
  toolOf,
} from "../../../fixtures/mcp/harness.js";
import { type McpHttpFixture, startMcpHttpServer } from "../../../fixtures/mcp/server.js";

describe("MCP compile over Streamable HTTP", () => {
  let fixture: McpHttpFixture;
  let secured: McpHttpFixture;
  beforeAll(async () => {
    fixture = await startMcpHttpServer();
    secured = await startMcpHttpServer({ bearerToken: "s3cret-token" });
  });
  afterAll(async () => {
    await fixture.close();
    await secured.close();
  });

  it("compiles the same definitions as over stdio, with the URL as identity", async () => {
    const result = await mcpAdapter.resolve("fixture", { kind: "mcp", url: fixture.url }, sourceContext());
    const viaStdio = await mcpAdapter.resolve("fixture", stdio(), sourceContext());
    expect(toolOf(result).execution).toEqual({ transport: "mcp", server: "http", identity: fixture.url });
    expect(result.remoteDigests).toEqual(viaStdio.remoteDigests);
    expect(result.documentDigest).toBe(viaStdio.documentDigest);
  });

  it("sends headers from named environment variables and never stores their values", async () => {
    const config: McpSourceConfig = {
      kind: "mcp",
      url: secured.url,
      headers: { authorization: { env: "FIXTURE_TOKEN" } },
    };
    const result = await mcpAdapter.resolve(
      "secured",
      config,
      sourceContext({ FIXTURE_TOKEN: "Bearer s3cret-token" }),
    );
    expect(toolOf(result).endpoints.length).toBe(compilable.length);
    expect(JSON.stringify(result)).not.toContain("s3cret");
    expect((await rejection(mcpAdapter.resolve("secured", config, sourceContext()))).code).toBe(
      "MCP_ENV_MISSING",
    );
    const wrong = sourceContext({ FIXTURE_TOKEN: "Bearer wrong" });
    expect((await rejection(mcpAdapter.resolve("secured", config, wrong))).code).toBe("MCP_CONNECT_FAILED");
  });

  it.each<[string, (base: string) => string, string, Record<string, { env: string }>?]>([
    ["userinfo", (base) => base.replace("http://", "http://user:pw@"), "MCP_URL_CREDENTIALS"],
    ["a token in the query", (base) => `${base}?access_token=abc`, "MCP_URL_CREDENTIALS"],
    ["an empty query", (base) => `${base}?`, "MCP_URL_CREDENTIALS"],
    ["a fragment", (base) => `${base}#part`, "MCP_URL_INVALID"],
    ["a non-http scheme", () => "ftp://127.0.0.1/mcp", "MCP_URL_INVALID"],
    ["plain http to a non-loopback host", () => "http://mcp.example.com/mcp", "MCP_URL_INSECURE"],
    [
      "a protocol-controlled header",
      (base) => base,
      "MCP_CONFIG_INVALID",
      { "Mcp-Session-Id": { env: "X" } },
    ],
  ])("refuses a URL with %s", async (_name, url, code, headers) => {
    const config: McpSourceConfig = { kind: "mcp", url: url(fixture.url), ...(headers ? { headers } : {}) };
    const error = await rejection(mcpAdapter.resolve("fixture", config, sourceContext({ X: "v" })));
    expect(error.code).toBe(code);
    expect(JSON.stringify(error.details)).not.toContain("pw");
    expect(JSON.stringify(error.details)).not.toContain("abc");
  });

  it("allows plain http to other hosts only with the local opt-in", () => {
    expect(checkMcpUrl("http://mcp.example.com/mcp", { allowInsecureHttp: true }).host).toBe(
      "mcp.example.com",
    );
    expect(checkMcpUrl("http://[::1]:8080/mcp").hostname).toBe("[::1]");
  });

  it("keeps the remote digests equal to the fixture's definitions", async () => {
    const result = await mcpAdapter.resolve("fixture", { kind: "mcp", url: fixture.url }, sourceContext());
    expect(expectedDigests(result).get("echo_weather")).toBe(
      mcpRemoteDigest(fixtureTools.find((t) => t.name === "echo_weather") ?? {}),
    );
  });
});
