/**
 * Scale: GitHub's REST description (@octokit/openapi, ~1,200 operations) compiles, its shared
 * schemas are stored once, and its generated bindings type-check with tsc.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { REPO_ROOT, tempProject } from "../../../helpers/project.js";

const DOCUMENT = join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

describe("GitHub REST (@octokit/openapi)", () => {
  it("compiles, shares definitions, and the generated bindings type-check", {
    timeout: 180_000,
  }, async () => {
    const project = tempProject("github");
    project.write({
      runtimeImport: "schemarouter",
      sources: { github: { kind: "openapi", location: DOCUMENT } },
    });
    const result = await compile({ config: project.configPath });
    const source = result.sources[0]!;
    const endpoints = source.artifact.tools[0]!.endpoints;
    expect(endpoints.length).toBeGreaterThan(1_000);
    const repoGet = endpoints.find((endpoint) => endpoint.name === "repos/get")!;
    expect(repoGet.effect).toBe("read");
    expect(repoGet.fields.map((field) => field.id)).toContain("full_name");
    expect(endpoints.find((endpoint) => endpoint.name === "repos/delete")?.effect).toBe("destructive");
    // Shared definitions are stored once, not inlined per endpoint.
    expect(Object.keys(source.artifact.$defs).length).toBeGreaterThan(300);
    expect(JSON.stringify(repoGet.outputSchema)).toMatch(/^\{"\$ref":"#\/\$defs\//);
    // No endpoint takes a sensitive header as a parameter.
    for (const endpoint of endpoints) {
      for (const parameter of endpoint.parameters)
        expect(parameter.name.toLowerCase()).not.toBe("authorization");
    }
    expect(source.artifact.compatibility.some((issue) => issue.construct === "composition")).toBe(true);

    // Loading verifies no endpoint yet; each one verifies on first use against its compiled
    // fingerprint (from the line's own bytes), and `verify: "full"` verifies them all at load.
    const router = await SchemaRouter.load({ root: project.dir });
    const registered = router.registry.get("github")!;
    expect(registered.fingerprint).toBe(source.tools[0]!.fingerprint);
    expect([...registered.endpointFingerprints]).toEqual([...source.tools[0]!.endpointFingerprints]);
    expect([...registered.tool.endpoints]).toEqual(endpoints);
    await expect(SchemaRouter.load({ root: project.dir, verify: "full" })).resolves.toBeInstanceOf(
      SchemaRouter,
    );

    writeFileSync(
      join(project.dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        compilerOptions: { noEmit: true },
        include: ["generated/*.ts"],
        exclude: [],
      }),
    );
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    const output = execFileSync(
      process.execPath,
      [tsc, "-p", join(project.dir, "tsconfig.json"), "--listFiles"],
      { encoding: "utf8" },
    );
    expect(output).toContain(join(project.outDir, "github.ts"));
    const client = readFileSync(join(project.outDir, "github.ts"), "utf8");
    expect(client).toContain("reposGet<const F extends ReposGetField");
  });
});
