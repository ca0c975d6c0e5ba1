/**
 * `schemarouter serve` on the compiler side: the `serve` section's schema (and its defaults, which are
 * the runtime's), the router the config builds (secrets from named variables, bindings only where the
 * config may give them, the approval hook module), the `--http` address and token, and the command run
 * in-process until its abort signal fires.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../compiler/cli/program.js";
import { httpOptionsOf, serveSetup } from "../../../compiler/cli/serve-setup.js";
import { loadConfig, validateConfig } from "../../../compiler/config/config.js";
import { serveConfigSchema } from "../../../compiler/config/serve.js";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import { SERVE_DEFAULTS } from "../../../runtime/serve/defaults.js";
import { runCli } from "../../helpers/cli.js";
import { copyInto, tempProject } from "../../helpers/project.js";

const TOKEN = "petstore-upstream-token";

describe("the serve config section", () => {
  it.each([
    ["a list of globs", { expose: "petstore.*" }],
    ["an unknown key", { exposed: ["**"] }],
    [
      "a secret without a variable name",
      { bindings: { petstore: { headers: { authorization: { value: "x" } } } } },
    ],
    ["a bad variable name", { http: { tokenEnv: "not-a-name" } }],
    ["a port out of range", { http: { port: 70000 } }],
    ["a listing without k", { listing: { query: "pets" } }],
    ["an unknown policy action", { policy: { rules: [{ action: "maybe", operation: "**" }] } }],
  ])("refuses %s", (_name, serve) => {
    expect(() => validateConfig({ sources: {}, serve }, "schemarouter.config.json")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });

  it("states the runtime's defaults", () => {
    const { http, maxConcurrentCalls, maxQueuedCalls } = serveConfigSchema.properties;
    expect({
      host: http.properties.host.default,
      port: http.properties.port.default,
      path: http.properties.path.default,
      maxBodyBytes: http.properties.maxBodyBytes.default,
      maxSessions: http.properties.maxSessions.default,
      sessionIdleMs: http.properties.sessionIdleMs.default,
      maxConcurrentCalls: maxConcurrentCalls.default,
      maxQueuedCalls: maxQueuedCalls.default,
    }).toEqual({ ...SERVE_DEFAULTS });
  });
});

describe("serveSetup", () => {
  const project = tempProject("serve-setup");
  let petstore: Awaited<ReturnType<typeof startPetstoreServer>>;
  const env = { PETSTORE_TOKEN: TOKEN };
  const write = (serve: Record<string, unknown>) =>
    project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } }, serve });

  beforeAll(async () => {
    copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
    petstore = await startPetstoreServer({ token: TOKEN });
    write({});
    expect((await runCli(project.dir, ["compile"])).code).toBe(0);
  });
  afterAll(() => petstore.close());

  const binding = () => ({
    petstore: {
      baseUrl: petstore.url,
      headers: { authorization: { env: "PETSTORE_TOKEN", prefix: "Bearer " } },
    },
  });
  const pin = (
    router: Awaited<ReturnType<Awaited<ReturnType<typeof serveSetup>>["load"]>>,
    endpoint: string,
  ) => ({
    tool: "petstore",
    endpoint,
    arguments: endpoint === "getPetById" ? { petId: "rex" } : {},
    endpointFingerprint: router.registry.get("petstore")!.endpointFingerprints.get(endpoint)!,
    toolFingerprint: router.registry.get("petstore")!.fingerprint,
  });

  it("binds OpenAPI sources from serve.bindings, the secret from its variable", async () => {
    write({ bindings: binding() });
    const setup = await serveSetup(await loadConfig(project.configPath), env);
    const router = await setup.load();
    try {
      const [result] = await router.invoke(pin(router, "getPetById"));
      expect(result!.data).toMatchObject({ id: "rex" });
      expect(petstore.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    } finally {
      await router.close();
      await setup.close();
    }
  });

  it("refuses a secret whose variable is not set, and bindings for sources bound elsewhere", async () => {
    write({ bindings: binding() });
    const setup = await serveSetup(await loadConfig(project.configPath), {});
    await expect(setup.load()).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("reads environment variable PETSTORE_TOKEN, which is not set"),
    });
    write({ bindings: { ...binding(), memory: { timeoutMs: 1000 } } });
    await expect(serveSetup(await loadConfig(project.configPath), env)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining('serve.bindings.memory: there is no source "memory"'),
    });
    project.write({
      sources: {
        petstore: { kind: "openapi", location: "openapi.yaml" },
        tools: { kind: "local", module: "tools.mjs" },
      },
      serve: { bindings: { tools: { timeoutMs: 1000 } } },
    });
    await expect(serveSetup(await loadConfig(project.configPath), env)).rejects.toMatchObject({
      message: expect.stringContaining(
        "serve.bindings.tools: only openapi, optimade, odata and graphql sources take a binding here (local sources",
      ),
    });
  });

  it("hands approvals to the configured hook module; without one, approval means refusal", async () => {
    writeFileSync(
      join(project.dir, "approve.mjs"),
      "export default (request) => request.endpoint === 'getPetById';\n",
    );
    write({ bindings: binding(), policy: { approval: "all" }, approvals: { module: "approve.mjs" } });
    const hooked = await serveSetup(await loadConfig(project.configPath), env);
    const router = await hooked.load();
    try {
      await expect(router.invoke(pin(router, "getPetById"))).resolves.toHaveLength(1);
      await expect(router.invoke(pin(router, "listPets"))).rejects.toMatchObject({ code: "APPROVAL_DENIED" });
    } finally {
      await router.close();
    }
    write({ bindings: binding(), policy: { approval: "all" } });
    const unhooked = await (await serveSetup(await loadConfig(project.configPath), env)).load();
    try {
      await expect(unhooked.invoke(pin(unhooked, "getPetById"))).rejects.toMatchObject({
        code: "APPROVAL_DENIED",
      });
    } finally {
      await unhooked.close();
    }
    writeFileSync(join(project.dir, "approve.mjs"), "export const notIt = 1;\n");
    write({ approvals: { module: "approve.mjs" } });
    await expect(serveSetup(await loadConfig(project.configPath), env)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
    });
  });

  it("reads the HTTP address and the token", async () => {
    write({ http: { tokenEnv: "SERVE_TOKEN", port: 9100 } });
    const config = await loadConfig(project.configPath);
    expect(httpOptionsOf(config, { SERVE_TOKEN: "t".repeat(20) }, undefined)).toMatchObject({
      port: 9100,
      token: "t".repeat(20),
    });
    expect(httpOptionsOf(config, { SERVE_TOKEN: "x" }, "[::1]:9000")).toMatchObject({
      host: "::1",
      port: 9000,
    });
    expect(() => httpOptionsOf(config, { SERVE_TOKEN: "x" }, "localhost")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
    expect(() => httpOptionsOf(config, {}, undefined)).toThrow(
      expect.objectContaining({ message: expect.stringContaining("SERVE_TOKEN, which is not set") }),
    );
  });

  it("runs `serve --http` in-process until its signal fires; --stdio with --http is a usage error", async () => {
    write({ bindings: binding(), expose: ["petstore.getPetById"] });
    expect((await runCli(project.dir, ["serve", "--stdio", "--http"])).code).toBe(2);
    const controller = new AbortController();
    let stderr = "";
    const exit = main(["serve", "--http", "127.0.0.1:0", "--no-watch"], {
      stdout: () => undefined,
      stderr: (text) => {
        stderr += text;
      },
      cwd: project.dir,
      env,
      signal: controller.signal,
    });
    const started = Date.now();
    while (!/tools at (\S+) /.test(stderr) && Date.now() - started < 20_000)
      await new Promise((r) => setTimeout(r, 50));
    const url = /tools at (\S+) /.exec(stderr)![1]!;
    const client = new Client({ name: "cli", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "petstore.getPetById",
      "search_capabilities",
    ]);
    await client.close();
    controller.abort();
    expect(await exit).toBe(0);
    expect(stderr).toContain("2 tools at http://127.0.0.1:");
  });
});
