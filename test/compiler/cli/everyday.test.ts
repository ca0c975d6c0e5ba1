/**
 * The CLI as a new user meets it (docs/common-mistakes.md): no stack trace for a missing config, a
 * diff outside git or a closed pipe; an unknown route names the nearest ones; `diff` on the change
 * that adds SchemaRouter lists everything as added; `--json` prints JSON for errors too.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { copyInto, REPO_ROOT, type TempProject, tempProject } from "../../helpers/project.js";

const BIN = join(REPO_ROOT, "compiler", "dist", "cli", "bin.js");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
    cwd,
    stdio: "pipe",
  });

function petstore(project: TempProject): TempProject {
  copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "petstore.yaml" } } });
  return project;
}

describe("CLI without a config", () => {
  it.each([["inspect"], ["diff"], ["check"], ["compile"]])(
    "%s exits 2 with CONFIG_NOT_FOUND",
    async (cmd) => {
      const project = tempProject("no-config");
      const result = await runCli(project.dir, [cmd]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error \[CONFIG_NOT_FOUND\]: No config at .*schemarouter\.config\.json\. Run `schemarouter init` to create one\.\n$/,
      );
      expect(result.stderr).not.toContain("    at ");
    },
  );

  it.each([["inspect"], ["diff"], ["check"], ["compile"]])(
    "%s --json prints the error as JSON",
    async (cmd) => {
      const project = tempProject("no-config-json");
      const result = await runCli(project.dir, [cmd, "--json"]);
      expect(result.code).toBe(2);
      const json = JSON.parse(result.stdout);
      expect(json.error).toMatchObject({
        code: "CONFIG_NOT_FOUND",
        details: { path: join(project.dir, "schemarouter.config.json") },
      });
    },
  );

  it("a usage error in --json mode is JSON too", async () => {
    const project = tempProject("usage-json");
    const result = await runCli(project.dir, ["check", "--json", "--fail-on", "sometimes"]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error).toEqual({
      code: "USAGE",
      message: "--fail-on takes breaking, security-review or any (got sometimes)",
    });
  });
});

describe("inspect <route>", () => {
  let project: TempProject;
  beforeAll(async () => {
    project = petstore(tempProject("inspect-route"));
    expect((await runCli(project.dir, ["compile"])).code).toBe(0);
  });

  it("an unknown route exits 1 and names the nearest routes", async () => {
    const result = await runCli(project.dir, ["inspect", "petstore.getPetByID"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('error [UNKNOWN_ENDPOINT]: No endpoint "petstore.getPetByID"');
    expect(result.stderr).toContain('Did you mean "petstore.getPetById"?');
  });

  it("--json gives the error and the nearest routes as JSON", async () => {
    const result = await runCli(project.dir, ["inspect", "petstor.listPets", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({
      code: "UNKNOWN_ENDPOINT",
      details: { route: "petstor.listPets", nearest: ["petstore.listPets"] },
    });
  });

  it("a route with nothing near says how to list them", async () => {
    const result = await runCli(project.dir, ["inspect", "zzzzzzzzzzzzzzzzzzzz"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Run `schemarouter inspect` to list them.");
  });
});

describe("diff against git", () => {
  const outside = mkdtempSync(join(tmpdir(), "schemarouter-nogit-"));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  it("outside a git repository is LOCK_NOT_FOUND with what to pass instead, exit 2", async () => {
    const project = { ...tempProject("nogit"), dir: outside };
    copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      join(outside, "schemarouter.config.json"),
      JSON.stringify({ sources: { petstore: { kind: "openapi", location: "petstore.yaml" } } }),
    );
    expect((await runCli(outside, ["compile"])).code).toBe(0);
    const result = await runCli(outside, ["diff"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error [LOCK_NOT_FOUND]:");
    expect(result.stderr).toContain("is not inside a git repository");
    expect(result.stderr).toContain("pass --base <path-to-a-lockfile> instead");
    expect(result.stderr).not.toContain("    at ");
  });

  it("the change that adds SchemaRouter (no lock at the base) lists every endpoint as added", async () => {
    const project = petstore(tempProject("first-diff"));
    git(project.dir, "init", "-q");
    git(project.dir, "commit", "-q", "--allow-empty", "-m", "before SchemaRouter");
    expect((await runCli(project.dir, ["compile"])).code).toBe(0);
    const result = await runCli(project.dir, ["diff", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.changes).toEqual([
      expect.objectContaining({
        rule: "source.added-not-read-only",
        source: "petstore",
        after: expect.objectContaining({ endpoints: 5 }),
      }),
    ]);
    const text = await runCli(project.dir, ["diff"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('new openapi source "petstore"');
    expect((await runCli(project.dir, ["diff", "--base", "no-such-ref"])).stderr).toContain(
      'git revision "no-such-ref" does not exist',
    );
  });
});

describe("a closed stdout", () => {
  it.runIf(existsSync(BIN))("exits quietly when the reader goes away (EPIPE)", async () => {
    const project = petstore(tempProject("epipe"));
    expect((await runCli(project.dir, ["compile"])).code).toBe(0);
    const child = spawn(process.execPath, [BIN, "inspect"], {
      cwd: project.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the `| head` that already read enough
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

describe("init", () => {
  it("writes a .gitattributes that keeps artifacts byte-exact, once, keeping what was there", async () => {
    const { readFileSync, writeFileSync } = await import("node:fs");
    const project = tempProject("init-attrs");
    writeFileSync(join(project.dir, ".gitattributes"), "*.png binary");
    const result = await runCli(project.dir, ["init"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(".gitattributes (artifacts keep their exact bytes in git)");
    const expected =
      "*.png binary\n# schemarouter: artifacts are pinned by the SHA-256 of their bytes; never convert their line ends.\nschemarouter/artifacts/*.json -text\n";
    expect(readFileSync(join(project.dir, ".gitattributes"), "utf8")).toBe(expected);
    const again = await runCli(project.dir, ["init", "--force"]);
    expect(again.stdout).not.toContain(".gitattributes");
    expect(readFileSync(join(project.dir, ".gitattributes"), "utf8")).toBe(expected);
  });
});
