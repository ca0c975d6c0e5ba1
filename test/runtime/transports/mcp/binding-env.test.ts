/**
 * An MCP stdio binding takes `env` in the config's shape (a list of names copied from this process) as
 * well as with values, and a tool without a binding is told the MCP binding shape, not the HTTP one
 * (docs/sources/mcp.md, docs/common-mistakes.md).
 */
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { REPO_ROOT, tempProject } from "../../../helpers/project.js";
import { failure } from "../../../helpers/refusal.js";

const FIXTURE = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");
const project = tempProject("mcp-binding-env");
const stdio = { command: process.execPath, args: [FIXTURE] };

beforeAll(async () => {
  project.write({
    sources: {
      fixture: {
        kind: "mcp",
        stdio: { ...stdio, env: ["FIXTURE_TOKEN", "FIXTURE_SECRET", "FIXTURE_FAIL_MODE"] },
        effects: { env_probe: "read", fails: "read" },
      },
    },
  });
  await compile({ config: project.configPath, env: {} });
}, 60_000);

const opened: SchemaRouter[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((router) => router.close()));
  delete process.env.FIXTURE_TOKEN;
  delete process.env.FIXTURE_SECRET;
  delete process.env.FIXTURE_FAIL_MODE;
});

async function load(env: unknown): Promise<SchemaRouter> {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { fixture: { mcp: { stdio: { ...stdio, env: env as never, stderr: "ignore" } } } },
  });
  opened.push(router);
  return router;
}

function call(router: SchemaRouter, endpoint: string, args: Record<string, unknown>) {
  const registered = router.registry.get("fixture")!;
  return router.call({
    tool: "fixture",
    endpoint,
    arguments: args,
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  });
}

describe("MCP stdio binding env", () => {
  it("the config's list of names works verbatim in the binding: values come from this process", async () => {
    process.env.FIXTURE_TOKEN = "token-value";
    process.env.UNLISTED_VAR = "x";
    try {
      const router = await load(["FIXTURE_TOKEN"]);
      await expect(call(router, "env_probe", { name: "FIXTURE_TOKEN" })).resolves.toMatchObject({
        data: { name: "FIXTURE_TOKEN", set: true },
      });
      await expect(call(router, "env_probe", { name: "UNLISTED_VAR" })).resolves.toMatchObject({
        data: { set: false },
      });
    } finally {
      delete process.env.UNLISTED_VAR;
    }
  });

  it("values given in the binding reach the server; a listed name this process lacks is left out", async () => {
    const router = await load({ FIXTURE_TOKEN: "given" });
    await expect(call(router, "env_probe", { name: "FIXTURE_TOKEN" })).resolves.toMatchObject({
      data: { set: true },
    });
    const fromList = await load(["FIXTURE_TOKEN"]);
    await expect(call(fromList, "env_probe", { name: "FIXTURE_TOKEN" })).resolves.toMatchObject({
      data: { set: false },
    });
  });

  it("a value copied from this process is still a secret the server's error text cannot repeat", async () => {
    process.env.FIXTURE_SECRET = "sk-live-4242";
    process.env.FIXTURE_FAIL_MODE = "rpc";
    const router = await load(["FIXTURE_SECRET", "FIXTURE_FAIL_MODE"]);
    const error = await failure(call(router, "fails", {}));
    expect(error.code).toBe("TOOL_ERROR");
    expect(error.message).toContain("upstream refused key");
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain("sk-live-4242");
  });

  it.each([
    ["FIXTURE_TOKEN", 'got "FIXTURE_TOKEN"'],
    [[1], "got a list holding number"],
    [{ FIXTURE_TOKEN: 7 }, "got FIXTURE_TOKEN: number"],
    [["A", "A"], "got a list naming a variable twice"],
  ])("env %j is refused at load with BINDING_INVALID showing both shapes", async (env, got) => {
    const error = await failure(load(env));
    expect(error).toMatchObject({ code: "BINDING_INVALID", details: { key: "env", tool: "fixture" } });
    expect(error.message).toBe(
      `bindings.fixture.mcp.stdio.env must be a list of variable names to copy from this process (["GITHUB_TOKEN"], as in the config) or their values ({ GITHUB_TOKEN: token }); ${got}.`,
    );
  });

  it("a call to an unbound MCP tool is told the MCP binding shape and the locked server", async () => {
    const router = await SchemaRouter.load({ root: project.dir });
    opened.push(router);
    const error = await failure(call(router, "env_probe", { name: "X" }));
    expect(error.code).toBe("BINDING_NOT_READY");
    expect(error.message).toContain(
      'fixture.env_probe: no trusted invoker is bound for tool "fixture". Pass bindings: { fixture: { mcp: { stdio: { command, args, env } } } } to SchemaRouter.load(), for the locked server `',
    );
    expect(error.message).not.toContain("baseUrl");
  });
});
