import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpSourceConfig } from "../../compiler/config/mcp-source.js";
import { mcpAdapter } from "../../compiler/sources/mcp/index.js";
import type { SourceResult } from "../../compiler/sources/types.js";
import type { Invoker } from "../../runtime/boundary/invoker.js";
import { ValidatorSet } from "../../runtime/boundary/validation.js";
import { createMcpInvoker, pickEnv, stdioClientFactory } from "../../runtime/transports/mcp/transport.js";
import { endpointOf, expectedDigests, invocation, sourceContext, toolOf } from "../fixtures/mcp/harness.js";

const SERVER = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";
const TOOLS = [
  "add_observations",
  "create_entities",
  "create_relations",
  "delete_entities",
  "delete_observations",
  "delete_relations",
  "open_nodes",
  "read_graph",
  "search_nodes",
];

describe("@modelcontextprotocol/server-memory as a real peer", () => {
  let dir: string;
  let env: Record<string, string>;
  let compiled: SourceResult;
  const config = (effects?: McpSourceConfig["effects"]): McpSourceConfig => ({
    kind: "mcp",
    stdio: { command: "node", args: [SERVER], env: ["MEMORY_FILE_PATH"] },
    ...(effects === undefined ? {} : { effects }),
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "schemarouter-memory-"));
    env = { MEMORY_FILE_PATH: join(dir, "memory.jsonl") };
    compiled = await mcpAdapter.resolve("memory", config(), sourceContext(env));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("compiles every tool it lists, pinned by remote digests", async () => {
    const tool = toolOf(compiled);
    expect(tool).toMatchObject({
      name: "memory",
      provider: "memory-server",
      remote: true,
      accessMode: "mcp",
    });
    expect(tool.execution).toEqual({ transport: "mcp", server: "stdio", identity: `node ${SERVER}` });
    expect(tool.endpoints.map((e) => e.name)).toEqual(TOOLS);
    const digests = compiled.remoteDigests?.memory ?? {};
    expect(Object.keys(digests).sort()).toEqual(TOOLS);
    for (const digest of Object.values(digests)) expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(compiled.compatibility).toEqual([]);
    const again = await mcpAdapter.resolve("memory", config(), sourceContext(env));
    expect(again.remoteDigests).toEqual(compiled.remoteDigests);
    expect(again.documentDigest).toBe(compiled.documentDigest);
  });

  it("keeps every tool unclassified until local config classifies it", async () => {
    expect(toolOf(compiled).endpoints.every((e) => e.effect === "unclassified")).toBe(true);
    expect(compiled.notes).toContain(
      "tool read_graph says readOnlyHint=true; classify it in effects to trust it",
    );
    expect(compiled.notes).toContain(
      "tool delete_entities says destructiveHint=true; classify it in effects to trust it",
    );
    const classified = await mcpAdapter.resolve(
      "memory",
      config({ read_graph: "read", create_entities: "write", delete_entities: "destructive" }),
      sourceContext(env),
    );
    const tool = toolOf(classified);
    expect(endpointOf(tool, "read_graph").effect).toBe("read");
    expect(endpointOf(tool, "create_entities").effect).toBe("write");
    expect(endpointOf(tool, "delete_entities").effect).toBe("destructive");
    expect(endpointOf(tool, "search_nodes").effect).toBe("unclassified");
    expect(classified.remoteDigests).toEqual(compiled.remoteDigests);
  });

  describe("through the MCP invoker", () => {
    let invoker: Invoker;
    beforeAll(() => {
      invoker = createMcpInvoker({
        source: "memory",
        connect: stdioClientFactory({
          command: "node",
          args: [SERVER],
          env: pickEnv(["MEMORY_FILE_PATH"], env),
          stderr: "ignore",
        }),
        expected: expectedDigests(compiled),
      });
    });
    afterAll(async () => {
      await invoker.close?.();
    });

    it("calls read_graph and returns output that satisfies the locked schema", async () => {
      const raw = await invoker.invoke(invocation(compiled, "read_graph"));
      expect(raw).toEqual({ entities: [], relations: [] });
      const schema = endpointOf(toolOf(compiled), "read_graph").outputSchema;
      expect(new ValidatorSet().validate(schema, raw)).toEqual([]);
    });

    it("round-trips a write and a read against the real server", async () => {
      const entity = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
      await invoker.invoke(invocation(compiled, "create_entities", { entities: [entity] }));
      const found = await invoker.invoke(invocation(compiled, "search_nodes", { query: "Ada" }));
      expect(found).toEqual({ entities: [entity], relations: [] });
    });
  });
});
