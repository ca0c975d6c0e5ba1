/**
 * MCP through the whole stack: compile the fixture server and the published server-memory into a
 * lockfile, load it, and call through the router's fail-closed boundary (policy, output validation,
 * projection, live drift, binding identity).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { type McpHttpFixture, startMcpHttpServer } from "../../../fixtures/mcp/server.js";
import { REPO_ROOT, tempProject } from "../../../helpers/project.js";

const FIXTURE = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");
const MEMORY = join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

const project = tempProject("mcp-router");
let http: McpHttpFixture;

beforeAll(async () => {
  http = await startMcpHttpServer();
  project.write({
    sources: {
      fixture: {
        kind: "mcp",
        stdio: { command: process.execPath, args: [FIXTURE] },
        effects: {
          echo_weather: "read",
          bad_output: "read",
          nested: "read",
          mutable: "read",
          control: "write",
          fails: "read",
        },
      },
      remote: {
        kind: "mcp",
        url: http.url,
        effects: { echo_weather: "read", mutable: "read", control: "write" },
      },
      memory: {
        kind: "mcp",
        stdio: { command: process.execPath, args: [MEMORY], env: ["MEMORY_FILE_PATH"] },
        effects: { read_graph: "read", create_entities: "write" },
      },
    },
  });
  await compile({ config: project.configPath, env: {} });
}, 60_000);
afterAll(() => http.close());

const memoryFile = join(mkdtempSync(join(tmpdir(), "sr-memory-")), "memory.jsonl");
const bindings = () => ({
  fixture: {
    mcp: { stdio: { command: process.execPath, args: [FIXTURE], stderr: "ignore" as const } },
    timeoutMs: 5_000,
  },
  remote: { mcp: { url: http.url } },
  memory: {
    mcp: {
      stdio: {
        command: process.execPath,
        args: [MEMORY],
        env: { MEMORY_FILE_PATH: memoryFile },
        stderr: "ignore" as const,
      },
    },
  },
});

function pin(
  router: SchemaRouter,
  tool: string,
  endpoint: string,
  args: Record<string, unknown> = {},
  fields?: string[],
) {
  const registered = router.registry.get(tool)!;
  return {
    tool,
    endpoint,
    arguments: args,
    ...(fields ? { fields } : {}),
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  };
}

describe("MCP through the router", () => {
  it("locks remote digests and effects; unclassified tools stay unclassified", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    const lock = router.catalog!.lock;
    const endpoints = lock.sources.fixture!.tools.fixture!.endpoints;
    expect(endpoints.echo_weather).toMatchObject({
      effect: "read",
      remoteDigest: expect.stringMatching(/^sha256:/),
    });
    expect(endpoints.hangs!.effect).toBe("unclassified");
    expect(endpoints.task_only).toBeUndefined();
    await router.close();
  });

  it("calls a read tool, validates structuredContent and projects fields with units", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    const result = await router.call(
      pin(router, "fixture", "echo_weather", { city: "Seoul" }, ["temperature"]),
    );
    expect(Object.keys(result.data as object)).toEqual(["temperature"]);
    const field = router.registry
      .get("fixture")!
      .endpoints.get("echo_weather")!
      .fields.find((f) => f.id === "temperature");
    expect(field?.unit).toBe("Cel");
    await router.close();
  });

  it("blocks unclassified remote tools by default and allows them only with local opt-in", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    await expect(router.call(pin(router, "fixture", "env_probe", { name: "HOME" }))).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await router.close();
    const open = await SchemaRouter.load({
      root: project.dir,
      bindings: bindings(),
      policy: new ExecutionPolicy({ allowUnclassifiedRemote: true }),
    });
    await expect(open.call(pin(open, "fixture", "env_probe", { name: "HOME" }))).resolves.toMatchObject({
      data: { name: "HOME", set: false },
    });
    await open.close();
  });

  it("refuses structuredContent that violates the locked output schema", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    await expect(router.call(pin(router, "fixture", "bad_output"))).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
    });
    await router.close();
  });

  it("turns isError results into TOOL_ERROR", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    await expect(router.call(pin(router, "fixture", "fails"))).rejects.toMatchObject({ code: "TOOL_ERROR" });
    await router.close();
  });

  it("refuses a tool whose live definition drifted (Streamable HTTP, list_changed) while others keep working", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    await expect(router.call(pin(router, "remote", "mutable"))).resolves.toBeDefined();
    await http.mutate("describe");
    // The list_changed notification arrives asynchronously; once it is handled the tool is refused.
    let refusal: unknown;
    for (let attempt = 0; attempt < 100 && refusal === undefined; attempt++) {
      refusal = await router.call(pin(router, "remote", "mutable")).then(
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20)),
        (error: unknown) => error,
      );
    }
    expect(refusal).toMatchObject({ code: "REMOTE_DRIFT", details: { tool: "mutable" } });
    await expect(
      router.call(pin(router, "remote", "echo_weather", { city: "Busan" })),
    ).resolves.toBeDefined();
    await router.close();
  });

  it("refuses a binding that points at another server than the locked one", async () => {
    await expect(
      SchemaRouter.load({
        root: project.dir,
        bindings: {
          ...bindings(),
          fixture: { mcp: { stdio: { command: process.execPath, args: [MEMORY] } } },
        },
      }),
    ).rejects.toMatchObject({ code: "LOCK_MISMATCH", details: { reason: "binding-identity" } });
  });

  it("server-memory: read tool runs, write tool needs allowMutations, unclassified tools stay blocked", async () => {
    const router = await SchemaRouter.load({ root: project.dir, bindings: bindings() });
    const entities = [{ name: "Ada", entityType: "person", observations: ["programmer"] }];
    await expect(router.call(pin(router, "memory", "create_entities", { entities }))).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await router.close();
    const writer = await SchemaRouter.load({
      root: project.dir,
      bindings: bindings(),
      policy: new ExecutionPolicy({ allowMutations: true }),
    });
    await writer.call(pin(writer, "memory", "create_entities", { entities }));
    const graph = await writer.call(pin(writer, "memory", "read_graph", {}, ["entities"]));
    expect(graph.data).toMatchObject({ entities: [{ name: "Ada", entityType: "person" }] });
    await expect(
      writer.call(pin(writer, "memory", "delete_entities", { entityNames: ["Ada"] })),
    ).rejects.toMatchObject({ code: "POLICY_DENIED" });
    await writer.close();
  });
});
