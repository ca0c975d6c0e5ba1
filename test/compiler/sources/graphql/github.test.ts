/**
 * GitHub's public GraphQL schema (node_modules/@octokit/graphql-schema, about 1.2 MB of SDL) compiles
 * with the full compile step: every Query and Mutation field becomes an endpoint or is reported, the
 * output is byte-identical on a second compile, and the generated bindings type-check with --strict.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { REPO_ROOT, tempProject } from "../../../helpers/project.js";
import { typecheckDirectory } from "../../../helpers/typecheck.js";

const GITHUB_SDL = join(REPO_ROOT, "node_modules", "@octokit", "graphql-schema", "schema.graphql");

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[path.slice(dir.length)] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return out;
}

describe("GitHub's public GraphQL schema", () => {
  const project = tempProject("graphql-github");
  project.write({ sources: { github: { kind: "graphql", location: GITHUB_SDL, provider: "GitHub" } } });

  it("compiles, deterministically, and its bindings type-check with --strict", async () => {
    const started = performance.now();
    await compile({ config: project.configPath, env: {} });
    const elapsed = performance.now() - started;
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    const entry = lock.sources.github;
    const artifact = JSON.parse(readFileSync(join(project.dir, entry.artifact.path), "utf8"));
    const tool = artifact.tools[0];
    const endpoints = tool.endpoints as { name: string; effect: string; fields: unknown[] }[];
    const queries = endpoints.filter((endpoint) => endpoint.effect === "read").length;
    const mutations = endpoints.length - queries;
    console.log(
      `GitHub schema: compiled in ${Math.round(elapsed)} ms; ${queries} queries and ${mutations} mutations; ${endpoints.reduce((sum, endpoint) => sum + endpoint.fields.length, 0)} fields; artifact ${statSync(join(project.dir, entry.artifact.path)).size} bytes`,
    );
    expect(tool.provider).toBe("GitHub");
    expect(endpoints.map((endpoint) => endpoint.name)).toEqual(
      expect.arrayContaining(["repository", "viewer", "createIssue"]),
    );
    expect(mutations).toBeGreaterThan(100);
    expect(endpoints.find((endpoint) => endpoint.name === "createIssue")!.effect).toBe("write");
    const constructs = new Set(artifact.compatibility.map((issue: { construct: string }) => issue.construct));
    expect(constructs).toContain("duplicate-field");
    expect(constructs).toContain("custom-scalar");

    const first = snapshot(project.dir);
    await compile({ config: project.configPath, env: {} });
    expect(snapshot(project.dir)).toEqual(first);

    const typecheckStarted = performance.now();
    expect(typecheckDirectory(project.outDir)).toEqual([]);
    console.log(`GitHub bindings: tsc --strict in ${Math.round(performance.now() - typecheckStarted)} ms`);
  }, 600_000);
});
