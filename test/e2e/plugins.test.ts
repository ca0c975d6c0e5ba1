/**
 * Adapter plugins end to end (docs/plugins.md): a real plugin package — a small JSON-over-HTTP source
 * kind — written into a temp project's node_modules, discovered from package.json without import,
 * loaded only when allowlisted, its output compiled, locked and called through the boundary against
 * node:http servers. Every refusal happens before the plugin's module is imported (a marker file it
 * writes on import stays absent).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { runCli } from "../helpers/cli.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { type TempProject, tempProject } from "../helpers/project.js";

/** The plugin's source: reads a JSON catalog of operations over HTTP (bounded fetch from the compiler). */
const JSONHTTP_PLUGIN = `import { writeFileSync } from "node:fs";
import { defineSourceAdapter } from "@schemarouter/compiler";
writeFileSync(new URL("./imported.marker", import.meta.url), "imported");

export default defineSourceAdapter({
  kind: "KIND",
  transport: "http",
  async resolve(options, context) {
    RESOLVE
    const catalog = await context.fetchJson(options.catalog);
    return {
      description: catalog.title,
      provider: catalog.provider,
      location: options.catalog,
      endpoints: catalog.operations.map((op) => ({
        name: op.id,
        description: op.summary,
        method: op.method,
        path: op.path,
        ...(op.claims ? { effect: op.claims } : {}),
        parameters: (op.params ?? []).map((p) => ({ name: p.name, location: p.in, required: p.required === true, schema: { type: p.type } })),
        outputSchema: op.returns,
      })),
    };
  },
});
`;

interface PluginPackage {
  readonly name: string;
  readonly version?: string;
  readonly kind?: string;
  readonly resolve?: string;
  readonly source?: string;
}

function installPlugin(project: TempProject, plugin: PluginPackage): string {
  const dir = join(project.dir, "node_modules", ...plugin.name.split("/"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: plugin.name,
      version: plugin.version ?? "1.2.0",
      type: "module",
      schemarouter: { plugin: { kind: plugin.kind ?? "jsonhttp", entry: "./index.mjs" } },
    }),
  );
  writeFileSync(
    join(dir, "index.mjs"),
    plugin.source ??
      JSONHTTP_PLUGIN.replace("KIND", plugin.kind ?? "jsonhttp").replace("RESOLVE", plugin.resolve ?? ""),
  );
  return join(dir, "imported.marker");
}

let catalog: TestServer;
let api: TestServer;
const CATALOG = {
  title: "Inventory",
  provider: "Inventory Co",
  operations: [
    {
      id: "listItems",
      summary: "List items",
      method: "get",
      path: "/items",
      params: [{ name: "q", in: "query", type: "string" }],
      returns: {
        type: "array",
        items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
      },
    },
    {
      id: "deleteItem",
      summary: "Delete an item",
      method: "delete",
      path: "/items/{id}",
      claims: "read",
      params: [{ name: "id", in: "path", type: "string", required: true }],
      returns: { type: "object" },
    },
  ],
};

beforeAll(async () => {
  catalog = await startServer((_req, res) => sendJson(res, 200, CATALOG));
  api = await startServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/items"))
      return sendJson(res, 200, [
        { id: "i1", name: "bolt", secret: "x" },
        { id: "i2", name: "nut", secret: "y" },
      ]);
    return sendJson(res, 200, {});
  });
});
afterAll(async () => {
  await Promise.all([catalog.close(), api.close()]);
});

function project(config: Record<string, unknown> = {}): TempProject {
  const p = tempProject("plugins");
  p.write({
    sources: {
      inventory: {
        kind: "plugin",
        plugin: "jsonhttp",
        options: { catalog: `${catalog.url}/catalog.json` },
        effects: { listItems: "read" },
      },
    },
    plugins: { allow: [{ package: "schemarouter-plugin-jsonhttp", range: "^1.0.0" }] },
    ...config,
  });
  return p;
}

describe("an allowlisted plugin", () => {
  let p: TempProject;
  let marker: string;
  beforeAll(() => {
    p = project();
    marker = installPlugin(p, { name: "schemarouter-plugin-jsonhttp" });
  });

  it("is listed by `schemarouter plugins` without being imported", async () => {
    const run = await runCli(p.dir, ["plugins"]);
    expect(run.stdout).toBe("schemarouter-plugin-jsonhttp@1.2.0  kind jsonhttp  allowed\n");
    expect(existsSync(marker)).toBe(false);
  });

  it("compiles like a built-in source, with effects only from local config, and is called through the boundary", async () => {
    const compiled = await runCli(p.dir, ["compile"]);
    expect(compiled.stderr).toBe("");
    expect(compiled.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(compiled.stdout).toContain(
      'note: inventory: schemarouter-plugin-jsonhttp says deleteItem is read; it is unclassified (only "effects" in the config classifies plugin endpoints).',
    );
    const lock = JSON.parse(readFileSync(p.lockfile, "utf8"));
    expect(lock.sources.inventory.kind).toBe("plugin");
    expect(lock.sources.inventory.location).toBe(`${catalog.url}/catalog.json`);
    const endpoints = lock.sources.inventory.tools.inventory.endpoints;
    expect(
      Object.fromEntries(Object.entries(endpoints).map(([k, v]) => [k, (v as { effect: string }).effect])),
    ).toEqual({
      deleteItem: "unclassified",
      listItems: "read",
    });
    const before = readFileSync(p.lockfile, "utf8");
    await runCli(p.dir, ["compile"]);
    expect(readFileSync(p.lockfile, "utf8")).toBe(before);

    const router = await SchemaRouter.load({ root: p.dir, bindings: { inventory: { baseUrl: api.url } } });
    const { createClient } = await import(join(p.outDir, "index.ts"));
    const client = createClient(router);
    const items = await client.inventory.listItems({ q: "b" }, { fields: ["[].name"] });
    expect(items.data).toEqual([{ name: "bolt" }, { name: "nut" }]);
    expect(api.requests.at(-1)!.url).toBe("/items?q=b");
    const sent = api.requests.length;
    await expect(client.inventory.deleteItem({ id: "i1" })).rejects.toMatchObject({ code: "POLICY_DENIED" });
    expect(api.requests.length).toBe(sent);
    await router.close();
    const opted = await SchemaRouter.load({
      root: p.dir,
      bindings: { inventory: { baseUrl: api.url } },
      policy: new ExecutionPolicy({ allowMutations: true, allowDestructive: true }),
    });
    // Mutation opt-in is not enough: the plugin's "read" claim was not confirmed, so it stays unclassified.
    await expect(createClient(opted).inventory.deleteItem({ id: "i1" })).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await opted.close();
  });
});

describe("refused before import", () => {
  it.each([
    ["no allowlist", {}, { plugins: undefined }, "allowlist-empty", /needs "plugins": \{ "allow"/],
    [
      "a package not on the allowlist",
      {},
      { plugins: { allow: [{ package: "other-plugin", range: "^1.0.0" }] } },
      "not-allowed",
      /schemarouter-plugin-jsonhttp \(which provides "jsonhttp"\) is not on plugins\.allow/,
    ],
    [
      "a version outside the range",
      { version: "2.0.0" },
      {},
      "not-allowed",
      /schemarouter-plugin-jsonhttp@2\.0\.0 is installed, but plugins\.allow permits \^1\.0\.0/,
    ],
    [
      "an unknown kind",
      { kind: "xmlhttp" },
      {},
      "unknown",
      /no installed package declares the plugin kind "jsonhttp" \(installed plugin kinds: xmlhttp\)/,
    ],
  ])("%s", async (_name, plugin, config, reason, message) => {
    const p = project(config);
    if ("plugins" in config && config.plugins === undefined) {
      const file = JSON.parse(readFileSync(p.configPath, "utf8"));
      delete file.plugins;
      writeFileSync(p.configPath, JSON.stringify(file));
    }
    const marker = installPlugin(p, { name: "schemarouter-plugin-jsonhttp", ...plugin });
    const run = await runCli(p.dir, ["compile", "--json"]);
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stdout).error;
    expect(error).toMatchObject({ code: "PLUGIN_REFUSED", details: { reason } });
    expect(error.message).toMatch(message);
    expect(existsSync(marker)).toBe(false);
  });

  it("a kind two packages declare", async () => {
    const p = project({
      plugins: {
        allow: [
          { package: "schemarouter-plugin-jsonhttp", range: "^1.0.0" },
          { package: "@acme/jsonhttp", range: "1.2.0" },
        ],
      },
    });
    const markers = [
      installPlugin(p, { name: "schemarouter-plugin-jsonhttp" }),
      installPlugin(p, { name: "@acme/jsonhttp" }),
    ];
    const run = await runCli(p.dir, ["compile"]);
    expect(run.stderr).toContain(
      'error [PLUGIN_REFUSED]: source "inventory": the plugin kind "jsonhttp" is declared by @acme/jsonhttp and schemarouter-plugin-jsonhttp; uninstall one.',
    );
    expect(markers.map(existsSync)).toEqual([false, false]);
    expect((await runCli(p.dir, ["plugins"])).stdout).toContain(
      'refused: the kind "jsonhttp" is declared twice',
    );
  });

  it("a plugin claiming a built-in kind", async () => {
    const p = project({
      sources: { inventory: { kind: "plugin", plugin: "openapi" } },
    });
    const marker = installPlugin(p, { name: "schemarouter-plugin-jsonhttp", kind: "openapi" });
    const run = await runCli(p.dir, ["compile"]);
    expect(run.stderr).toContain('"openapi" is a built-in source kind; a plugin cannot replace it.');
    expect(existsSync(marker)).toBe(false);
  });
});

describe("a loaded plugin that misbehaves", () => {
  it.each([
    [
      "throws",
      { resolve: "throw new Error('catalog format changed');" },
      "PLUGIN_FAILED",
      /schemarouter-plugin-jsonhttp threw: catalog format changed/,
    ],
    [
      "hangs",
      { resolve: "await new Promise(() => {});" },
      "PLUGIN_FAILED",
      /schemarouter-plugin-jsonhttp did not resolve within 300 ms/,
    ],
    [
      "returns an absolute URL as a path",
      {
        resolve:
          "return { endpoints: [{ name: 'x', method: 'get', path: 'https://evil.example/x', outputSchema: {} }] };",
      },
      "PLUGIN_INVALID",
      /output that does not fit the plugin contract \(\/endpoints\/0\/path/,
    ],
    [
      "returns a schema that does not compile",
      {
        resolve:
          "return { endpoints: [{ name: 'x', method: 'get', path: '/x', outputSchema: { type: 12 } }] };",
      },
      "PLUGIN_INVALID",
      /an endpoint schema that does not compile/,
    ],
    [
      "returns extra keys (a transport of its own)",
      { resolve: "return { endpoints: [], execution: { transport: 'mcp' } };" },
      "PLUGIN_INVALID",
      /does not fit the plugin contract/,
    ],
    [
      "does not export defineSourceAdapter",
      {
        source:
          "export default { kind: 'jsonhttp', transport: 'http', resolve: () => ({ endpoints: [] }) };\n",
      },
      "PLUGIN_INVALID",
      /entry does not export defineSourceAdapter\(\{ kind: "jsonhttp", … \}\)/,
    ],
  ])("%s", async (_name, plugin, code, message) => {
    const p = project({
      plugins: { allow: [{ package: "schemarouter-plugin-jsonhttp", range: "~1.2.0" }], timeoutMs: 300 },
    });
    installPlugin(p, { name: "schemarouter-plugin-jsonhttp", ...plugin });
    const run = await runCli(p.dir, ["compile", "--json"]);
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stdout).error;
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(existsSync(p.lockfile)).toBe(false);
  });
});
