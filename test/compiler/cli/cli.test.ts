/**
 * The CLI, run in-process: init, add, compile (summary, --check, --dry-run, --json), inspect, and
 * its error reporting.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

function run(project: TempProject, ...args: string[]) {
  return runCli(project.dir, args);
}

describe("schemarouter CLI", () => {
  it("init writes a config, add appends a source, compile writes lock and bindings", async () => {
    const project = tempProject("cli");
    expect(await run(project, "init")).toMatchObject({ code: 0 });
    expect((await run(project, "init")).code).toBe(2);
    copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
    expect(await run(project, "add", "openapi", "petstore", "petstore.yaml")).toMatchObject({ code: 0 });
    const duplicate = await run(project, "add", "openapi", "petstore", "petstore.yaml");
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain("SOURCE_EXISTS");
    expect((await run(project, "add", "openapi", "Bad-Name", "x.yaml")).stderr).toContain("CONFIG_INVALID");

    const dry = await run(project, "compile", "--dry-run");
    expect(dry.stdout).toContain("Would write:");
    expect(existsSync(join(project.dir, "schemarouter.lock.json"))).toBe(false);

    const first = await run(project, "compile");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("petstore: 5 endpoints (3 read, 1 write, 1 destructive) — new");
    for (const file of [
      "schemarouter.lock.json",
      "schemarouter/index.ts",
      "schemarouter/petstore.ts",
      "schemarouter/petstore.types.ts",
      "schemarouter/artifacts/petstore.json",
    ]) {
      expect(existsSync(join(project.dir, file))).toBe(true);
    }
    const again = await run(project, "compile");
    expect(again.stdout).toContain("— unchanged");
    expect(again.stdout).toContain("Nothing changed.");
    expect(await run(project, "compile", "--check")).toMatchObject({ code: 0 });

    const json = JSON.parse((await run(project, "compile", "--check", "--json")).stdout);
    expect(json).toMatchObject({ mode: "check", stale: [] });

    const inspect = await run(project, "inspect");
    expect(inspect.stdout).toMatch(/petstore\.createPet\s+write/);
    const one = JSON.parse((await run(project, "inspect", "petstore.getPetById")).stdout);
    expect(one.endpoint.execution).toMatchObject({ kind: "http", method: "get", path: "/pets/{petId}" });
  });

  it("add mcp / optimade / local append validated sources", async () => {
    const project = tempProject("cli-add");
    await run(project, "init");
    expect(
      await run(
        project,
        "add",
        "mcp",
        "memory",
        "--stdio",
        "--env",
        "MEMORY_FILE_PATH",
        "--",
        "node",
        "server.js",
        "--flag",
      ),
    ).toMatchObject({ code: 0 });
    expect(await run(project, "add", "mcp", "remote", "--url", "https://mcp.example.com/mcp")).toMatchObject({
      code: 0,
    });
    expect(
      (
        await run(
          project,
          "add",
          "mcp",
          "both",
          "--url",
          "https://mcp.example.com/mcp",
          "--stdio",
          "--",
          "node",
        )
      ).code,
    ).toBe(2);
    expect((await run(project, "add", "mcp", "neither")).code).toBe(2);
    const leaky = await run(
      project,
      "add",
      "mcp",
      "leaky",
      "--url",
      "https://mcp.example.com/mcp?token=secret",
    );
    expect(leaky.code).toBe(2);
    expect(leaky.stderr).toContain("CONFIG_INVALID");
    expect(await run(project, "add", "optimade", "materials", "https://optimade.example.org")).toMatchObject({
      code: 0,
    });
    expect(await run(project, "add", "local", "weather", "./tools/weather.ts")).toMatchObject({ code: 0 });
    const config = JSON.parse(readFileSync(project.configPath, "utf8"));
    expect(config.sources).toEqual({
      memory: {
        kind: "mcp",
        stdio: { command: "node", args: ["server.js", "--flag"], env: ["MEMORY_FILE_PATH"] },
      },
      remote: { kind: "mcp", url: "https://mcp.example.com/mcp" },
      materials: { kind: "optimade", location: "https://optimade.example.org" },
      weather: { kind: "local", module: "./tools/weather.ts" },
    });
  });

  it("prints per-source progress with timing on a TTY only", async () => {
    const project = tempProject("cli-progress");
    copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
    project.write({ sources: { petstore: { kind: "openapi", location: "petstore.yaml" } } });
    const tty = await runCli(project.dir, ["compile"], {}, { isTTY: true });
    expect(tty.stderr).toMatch(/^✓ petstore \(\d+ ms\)$/m);
    const piped = await runCli(project.dir, ["compile", "--check"]);
    expect(piped.stderr).toBe("");
  });

  it("prints what changed against the previous lock", async () => {
    const project = tempProject("cli-change");
    copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
    project.write({ sources: { petstore: { kind: "openapi", location: "petstore.yaml" } } });
    await run(project, "compile");
    const doc = join(project.dir, "petstore.yaml");
    writeFileSync(doc, readFileSync(doc, "utf8").replace("operationId: deletePet", "operationId: removePet"));
    const out = await run(project, "compile");
    expect(out.stdout).toContain("+ added 1: petstore.removePet");
    expect(out.stdout).toContain("- removed 1: petstore.deletePet");
  });

  it("reports config and source errors with their code and exit 2", async () => {
    const project = tempProject("cli-errors");
    expect((await run(project, "compile")).stderr).toContain("CONFIG_NOT_FOUND");
    project.write({ sources: { petstore: { kind: "openapi" } } });
    expect((await run(project, "compile")).stderr).toContain("CONFIG_INVALID");
    project.write({ sources: { petstore: { kind: "openapi", location: "missing.yaml" } } });
    const missing = await run(project, "compile");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/SOURCE_FETCH_FAILED.*source "petstore"/);
    writeFileSync(join(project.dir, "swagger.json"), JSON.stringify({ swagger: "2.0", paths: {} }));
    project.write({ sources: { old: { kind: "openapi", location: "swagger.json" } } });
    expect((await run(project, "compile")).stderr).toContain("SOURCE_INVALID");
  });
});
