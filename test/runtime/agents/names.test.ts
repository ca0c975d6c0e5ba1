/**
 * The provider-safe name map: deterministic names, exact reverse map, lengths and characters within
 * every profile, and collisions refused, never overwritten. The property tests run over the GitHub
 * REST catalog's endpoint names (@octokit/openapi, compiled once for this file) and over arbitrary
 * adversarial names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import {
  isSafeName,
  NAME_PROFILES,
  type NamedRoute,
  type NameProfile,
  providerSafeName,
  ToolNameMap,
} from "../../../runtime/agents/names.js";
import { REPO_ROOT, tempProject } from "../../helpers/project.js";

const DOCUMENT = join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const PROFILES = Object.values(NAME_PROFILES);

let github: NamedRoute[] = [];
beforeAll(async () => {
  const project = tempProject("names");
  project.write({
    runtimeImport: "schemarouter",
    sources: { github: { kind: "openapi", location: DOCUMENT } },
  });
  const result = await compile({ config: project.configPath });
  github = result.sources[0]!.artifact.tools[0]!.endpoints.map((endpoint) => ({
    tool: "github",
    endpoint: endpoint.name,
  }));
}, 180_000);

function expectSound(map: ToolNameMap, routes: readonly NamedRoute[], profile: NameProfile) {
  expect(map.size).toBe(routes.length);
  expect(new Set(map.names()).size).toBe(routes.length);
  for (const route of routes) {
    const name = map.nameOf(route)!;
    expect(isSafeName(name, profile), `${name} under ${profile.id}`).toBe(true);
    expect(map.routeOf(name)).toEqual(route);
    expect(name).toBe(providerSafeName(route, profile));
  }
}

describe("providerSafeName", () => {
  it.each([
    [
      "keeps safe names readable",
      { tool: "petstore", endpoint: "getPetById" },
      "portable",
      "petstore_getPetById",
    ],
    [
      "hashes lossy names",
      { tool: "github", endpoint: "repos/get" },
      "portable",
      /^github_repos_get_[0-9a-f]{8}$/,
    ],
    ["keeps dots under mcp", { tool: "memory", endpoint: "read_graph" }, "mcp", "memory.read_graph"],
    [
      "hashes a slash under mcp too",
      { tool: "github", endpoint: "repos/get" },
      "mcp",
      /^github\.repos_get_[0-9a-f]{8}$/,
    ],
    ["bounds the length", { tool: "t", endpoint: "x".repeat(200) }, "openai", /^t_x{53}_[0-9a-f]{8}$/],
    ["names empty parts", { tool: "t", endpoint: "" }, "portable", /^t___[0-9a-f]{8}$/],
  ] as const)("%s", (_name, route, profile, want) => {
    const name = providerSafeName(route, NAME_PROFILES[profile]);
    if (typeof want === "string") expect(name).toBe(want);
    else expect(name).toMatch(want);
    expect(isSafeName(name, NAME_PROFILES[profile])).toBe(true);
  });

  it("gives different names to routes sanitizing alike", () => {
    const a = providerSafeName({ tool: "t", endpoint: "a/b" });
    const b = providerSafeName({ tool: "t", endpoint: "a.b" });
    expect(a).not.toBe(b);
  });
});

describe("ToolNameMap", () => {
  it("refuses a collision instead of overwriting, and says how to fix it", () => {
    const routes = [
      { tool: "a_b", endpoint: "c" },
      { tool: "a", endpoint: "b_c" },
    ];
    expect(() => ToolNameMap.build(routes)).toThrow(
      expect.objectContaining({
        code: "TOOL_NAME_COLLISION",
        details: expect.objectContaining({ name: "a_b_c" }),
      }),
    );
    const map = ToolNameMap.build(routes, { overrides: { "a.b_c": "a_bc" } });
    expect(map.routeOf("a_bc")).toEqual({ tool: "a", endpoint: "b_c" });
    expect(map.routeOf("a_b_c")).toEqual({ tool: "a_b", endpoint: "c" });
  });

  it("refuses reserved names, invalid overrides, unknown override routes and duplicate routes", () => {
    const route = { tool: "search", endpoint: "capabilities" };
    expect(() => ToolNameMap.build([route], { reserved: ["search_capabilities"] })).toThrow(
      expect.objectContaining({ code: "TOOL_NAME_COLLISION" }),
    );
    expect(() => ToolNameMap.build([route], { overrides: { "search.capabilities": "has space" } })).toThrow(
      expect.objectContaining({ code: "AGENT_TOOLS_INVALID" }),
    );
    expect(() => ToolNameMap.build([route], { overrides: { "other.route": "x" } })).toThrow(
      expect.objectContaining({ code: "AGENT_TOOLS_INVALID" }),
    );
    expect(() => ToolNameMap.build([route, route])).toThrow(
      expect.objectContaining({ code: "AGENT_TOOLS_INVALID" }),
    );
    expect(() => ToolNameMap.build([route], { profile: "nope" as "mcp" })).toThrow(
      expect.objectContaining({ code: "AGENT_TOOLS_INVALID" }),
    );
  });

  it("an unknown name has no route (exact matches only)", () => {
    const map = ToolNameMap.build([{ tool: "petstore", endpoint: "getPetById" }]);
    expect(map.routeOf("petstore_getpetbyid")).toBeUndefined();
    expect(map.routeOf("__proto__")).toBeUndefined();
  });
});

describe("property: the GitHub REST catalog", () => {
  it.each(PROFILES.map((profile) => [profile.id, profile] as const))(
    "every endpoint gets a unique, valid, reversible name under %s",
    (_id, profile) => {
      expect(github.length).toBeGreaterThan(1_000);
      expectSound(ToolNameMap.build(github, { profile }), github, profile);
    },
  );

  it("any subset maps soundly, names independent of the other members", () => {
    fc.assert(
      fc.property(
        fc.subarray(github, { minLength: 1, maxLength: 64 }),
        fc.constantFrom(...PROFILES),
        (routes, profile) => {
          expectSound(ToolNameMap.build(routes, { profile }), routes, profile);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("property: adversarial names", () => {
  const part = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: fc.constantFrom("a", "_", "-", ".", "/", "é", "😀", " "), maxLength: 140 }),
  );
  it("either every name is sound or the map refuses with TOOL_NAME_COLLISION / AGENT_TOOLS_INVALID", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool: part, endpoint: part }), { maxLength: 30 }),
        fc.constantFrom(...PROFILES),
        (routes, profile) => {
          let map: ToolNameMap;
          try {
            map = ToolNameMap.build(routes, { profile });
          } catch (error) {
            expect(["TOOL_NAME_COLLISION", "AGENT_TOOLS_INVALID"]).toContain(
              (error as { code?: string }).code,
            );
            return;
          }
          expectSound(map, routes, profile);
        },
      ),
      { numRuns: 500 },
    );
  });
});

it("the fixture document is the catalog the compiler test uses", () => {
  expect(JSON.parse(readFileSync(DOCUMENT, "utf8")).info.title).toContain("GitHub");
});
