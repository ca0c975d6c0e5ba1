/**
 * Provider profiles (docs/providers.md): `providers` in the config names which sources reach the same
 * logical provider, so fallbacks try the same provider's other access path before another provider's;
 * `schemarouter add provider` registers a provider's declared access methods from a profile without
 * installing an SDK, storing a credential or granting authority.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { runCli } from "../helpers/cli.js";
import { copyInto, tempProject, writeInto } from "../helpers/project.js";

describe("providers in the config", () => {
  it("set each tool's provider and access mode, and fallbacks try the same provider first", async () => {
    const p = tempProject("providers");
    copyInto(p, "examples/petstore/openapi.yaml", "openapi.yaml");
    const source = { kind: "openapi", location: "openapi.yaml" };
    p.write({
      sources: { a_rest: source, c_mirror: source, b_rival: source },
      providers: {
        petco: { description: "Pet Co", sources: { a_rest: "rest", c_mirror: "mirror" } },
        rival: { sources: { b_rival: "rest" } },
      },
    });
    await compile({ config: p.configPath });
    const router = await SchemaRouter.load({
      root: p.dir,
      bindings: Object.fromEntries(
        ["b_rival", "a_rest", "c_mirror"].map((n) => [n, { baseUrl: "http://127.0.0.1:9" }]),
      ),
    });
    const artifact = (name: string) =>
      JSON.parse(readFileSync(join(p.outDir, "artifacts", `${name}.json`), "utf8")).tools[0];
    expect(
      [artifact("a_rest"), artifact("c_mirror"), artifact("b_rival")].map((t) => [t.provider, t.accessMode]),
    ).toEqual([
      ["petco", "rest"],
      ["petco", "mirror"],
      ["rival", "rest"],
    ]);
    const plan = router.plan(
      {
        query: "pet by id name",
        fields: ["name"],
        arguments: { petId: "rex" },
        fallbacks: true,
      },
      { maxFallbacks: 4 },
    );
    const call = plan.calls[0]!;
    const providerOf: Record<string, string> = { b_rival: "rival", a_rest: "petco", c_mirror: "petco" };
    const routes = call.fallbacks ?? [];
    expect(`${call.tool}.${call.endpoint}`).toBe("a_rest.getPetById");
    expect(routes.map((r) => [r.route, r.sameProvider, r.accessMode])).toEqual([
      ["c_mirror.getPetById", true, "mirror"],
      ["c_mirror.listPets", true, "mirror"],
      ["b_rival.getPetById", false, "rest"],
      ["b_rival.listPets", false, "rest"],
    ]);
    for (const route of routes) expect(route.provider).toBe(providerOf[route.tool]);
    await router.close();
  });

  it.each([
    [
      "a provider naming a source that does not exist",
      { petco: { sources: { nope: "rest" } } },
      /providers\.petco names source "nope", which is not in "sources"/,
    ],
    [
      "a source under two providers",
      { petco: { sources: { pets: "rest" } }, other: { sources: { pets: "mirror" } } },
      /source "pets" is listed under both providers\.petco and providers\.other/,
    ],
  ])("refuses %s", async (_name, providers, message) => {
    const p = tempProject("providers");
    copyInto(p, "examples/petstore/openapi.yaml", "openapi.yaml");
    p.write({ sources: { pets: { kind: "openapi", location: "openapi.yaml" } }, providers });
    const run = await runCli(p.dir, ["compile"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\[CONFIG_INVALID\]/);
    expect(run.stderr).toMatch(message);
  });

  it("refuses a GraphQL source whose own provider key disagrees with its provider profile", async () => {
    const p = tempProject("providers-graphql");
    copyInto(p, "examples/graphql/library.graphql", "library.graphql");
    p.write({
      sources: { books: { kind: "graphql", location: "library.graphql", provider: "Shelf" } },
      providers: { Library: { sources: { books: "graphql" } } },
    });
    const run = await runCli(p.dir, ["compile"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'source "books" says "provider": "Shelf" but is listed under providers.Library; keep one of the two.',
    );
  });
});

describe("schemarouter add provider", () => {
  it("adds the protocol access methods as sources, reports SDKs without installing them, stores no credential", async () => {
    const p = tempProject("providers");
    p.write({ sources: {} });
    copyInto(p, "examples/petstore/openapi.yaml", "openapi.yaml");
    writeInto(
      p,
      "petco.profile.json",
      JSON.stringify({
        description: "Pet Co",
        accessMethods: [
          { accessMode: "rest", source: { kind: "openapi", location: "openapi.yaml" } },
          { accessMode: "mcp", source: { kind: "mcp", url: "https://mcp.petco.example/mcp" } },
          { accessMode: "sdk", sdk: { package: "@petco/sdk", language: "typescript" } },
        ],
      }),
    );
    const run = await runCli(p.dir, ["add", "provider", "petco", "--profile", "petco.profile.json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'Added provider "petco" with 2 access method(s):',
        "  source petco_rest (openapi, access mode rest)",
        "  source petco_mcp (mcp, access mode mcp)",
        "  not added: access mode sdk is the SDK @petco/sdk; SchemaRouter installs no SDK (install and bind it yourself if you want it).",
        'MCP tools stay unclassified until you classify them in the source\'s "effects".',
        "No credential was stored: bind headers at run time. Run `schemarouter compile`.",
        "",
      ].join("\n"),
    );
    const config = JSON.parse(readFileSync(p.configPath, "utf8"));
    expect(config.sources).toEqual({
      petco_rest: { kind: "openapi", location: "openapi.yaml" },
      petco_mcp: { kind: "mcp", url: "https://mcp.petco.example/mcp" },
    });
    expect(config.providers).toEqual({
      petco: { description: "Pet Co", sources: { petco_rest: "rest", petco_mcp: "mcp" } },
    });
    expect(existsSync(join(p.dir, "node_modules"))).toBe(false);
    expect(existsSync(join(p.dir, "package.json"))).toBe(false);
  });

  it.each([
    [
      "a header",
      { kind: "mcp", url: "https://mcp.petco.example/mcp", headers: { authorization: { env: "TOKEN" } } },
      "headers",
    ],
    [
      "effects",
      { kind: "mcp", url: "https://mcp.petco.example/mcp", effects: { delete_pet: "read" } },
      "effects",
    ],
    [
      "a schema-fetch credential",
      { kind: "openapi", location: "https://petco.example/openapi.json", schemaHeaders: {} },
      "schemaHeaders",
    ],
  ])("refuses a profile carrying %s, and leaves the config as it was", async (_name, source, key) => {
    const p = tempProject("providers");
    p.write({ sources: {} });
    const before = readFileSync(p.configPath, "utf8");
    writeInto(p, "bad.profile.json", JSON.stringify({ accessMethods: [{ accessMode: "mcp", source }] }));
    const run = await runCli(p.dir, ["add", "provider", "petco", "--profile", "bad.profile.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[PROVIDER_PROFILE_INVALID]");
    expect(run.stderr).toContain(`"${key}" at /accessMethods/0/source is not a profile key.`);
    expect(readFileSync(p.configPath, "utf8")).toBe(before);
  });
});
