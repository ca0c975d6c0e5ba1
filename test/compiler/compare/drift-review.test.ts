/**
 * Drift review end to end: a local OpenAPI server whose document changes between compile and check;
 * `check` exits 1 with the right categories, 2 when it cannot tell; `diff` against git and lockfile
 * paths; `compile --frozen` and the classified compile summary.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { tempProject } from "../../helpers/project.js";

// biome-ignore lint/suspicious/noExplicitAny: documents are edited freely below
type Doc = Record<string, any>;

function baseDocument(): Doc {
  return {
    openapi: "3.1.0",
    info: { title: "Inventory", version: "1.0.0" },
    servers: [{ url: "https://inventory.example.com/api" }],
    paths: {
      "/items/{id}": {
        get: {
          operationId: "getItem",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "expand", in: "query", schema: { type: "boolean" } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["id", "name"],
                    properties: {
                      id: { type: "string" },
                      name: { type: "string" },
                      price: { type: "number" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

let document: Doc = baseDocument();
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/openapi.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function compiled() {
  document = baseDocument();
  const project = tempProject("review");
  project.write({ sources: { inventory: { kind: "openapi", location: url } } });
  expect((await runCli(project.dir, ["compile"])).code).toBe(0);
  return project;
}

const operation = () => document.paths["/items/{id}"].get;

describe("schemarouter check", () => {
  it("exits 0 when every source matches the lock", async () => {
    const project = await compiled();
    const result = await runCli(project.dir, ["check"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("identical");
  });

  it.each([
    [
      "a response field removed",
      () => delete operation().responses["200"].content["application/json"].schema.properties.price,
      "breaking",
      "response.property.removed",
    ],
    [
      "a parameter made required",
      () => (operation().parameters[1].required = true),
      "breaking",
      "request.parameter.became-required",
    ],
    [
      "a GET turned into a POST",
      () => {
        document.paths["/items/{id}"].post = operation();
        delete document.paths["/items/{id}"].get;
      },
      "security-review",
      "endpoint.execution.method-to-unsafe",
    ],
    [
      "the servers entry moved to another origin",
      () => (document.servers = [{ url: "https://evil.example.net/api" }]),
      "security-review",
      "tool.execution.origin-changed",
    ],
  ])("exits 1 on drift: %s", async (_name, change, category, rule) => {
    const project = await compiled();
    change();
    const text = await runCli(project.dir, ["check"]);
    expect(text.code).toBe(1);
    const json = JSON.parse((await runCli(project.dir, ["check", "--json"])).stdout);
    expect(json.category).toBe(category);
    expect(json.changes.map((c: { rule: string }) => c.rule)).toContain(rule);
    expect(json.rulesVersion).toBe(1);
    // check writes nothing: the lock still verifies and --check still says current.
    expect((await runCli(project.dir, ["compile", "--check"])).code).toBe(1);
  });

  it("honours --fail-on and prints a markdown report for PR comments", async () => {
    const project = await compiled();
    operation().responses["200"].content["application/json"].schema.properties.stock = { type: "integer" };
    expect((await runCli(project.dir, ["check", "--fail-on", "breaking"])).code).toBe(0);
    expect((await runCli(project.dir, ["check", "--fail-on", "any"])).code).toBe(1);
    const markdown = await runCli(project.dir, ["check", "--format", "markdown"]);
    expect(markdown.stdout).toContain("**Capability changes: `compatible`**");
    expect((await runCli(project.dir, ["check", "--fail-on", "sometimes"])).code).toBe(2);
  });

  it("exits 2 when a source is unreachable or the config is bad", async () => {
    const project = tempProject("review-down");
    project.write({
      sources: { inventory: { kind: "openapi", location: "http://127.0.0.1:9/openapi.json" } },
    });
    await runCli(project.dir, ["compile"]);
    const down = await runCli(project.dir, ["check"]);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/LOCK_NOT_FOUND|SOURCE_FETCH_FAILED/);
    const live = await compiled();
    project.write({
      sources: { inventory: { kind: "openapi", location: "http://127.0.0.1:9/openapi.json" } },
    });
    copyFileSync(live.lockfile, project.lockfile);
    mkdirSync(join(project.dir, "generated", "artifacts"), { recursive: true });
    copyFileSync(
      join(live.outDir, "artifacts", "inventory.json"),
      join(project.outDir, "artifacts", "inventory.json"),
    );
    // The lockfile pins the retrieval index too (docs/runtime/retrieval-and-planning.md, "Stored index").
    copyFileSync(join(live.outDir, "retrieval-index.bin"), join(project.outDir, "retrieval-index.bin"));
    const unreachable = await runCli(project.dir, ["check"]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("SOURCE_FETCH_FAILED");
  });
});

describe("schemarouter compile --frozen and the classified summary", () => {
  it("refuses to change the lock under --frozen and prints what a compile changes", async () => {
    const project = await compiled();
    expect((await runCli(project.dir, ["compile", "--frozen"])).code).toBe(0);
    operation().parameters[1].required = true;
    const frozen = await runCli(project.dir, ["compile", "--frozen"]);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toContain("LOCK_FROZEN");
    const lockBefore = readFileSync(project.lockfile, "utf8");
    expect(readFileSync(project.lockfile, "utf8")).toBe(lockBefore);
    const compile = await runCli(project.dir, ["compile"]);
    expect(compile.stdout).toContain("Capability changes: breaking");
    expect(compile.stdout).toContain("request.parameter.became-required");
  });
});

describe("schemarouter diff", () => {
  it("classifies the working tree against a git revision and against a lockfile path", async () => {
    const project = await compiled();
    const git = (...args: string[]) => execFileSync("git", args, { cwd: project.dir, stdio: "pipe" });
    git("init", "-q");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base");
    expect((await runCli(project.dir, ["diff"])).stdout).toContain("identical");
    const baseCopy = join(project.dir, "base");
    mkdirSync(join(baseCopy, "generated", "artifacts"), { recursive: true });
    copyFileSync(project.lockfile, join(baseCopy, "schemarouter.lock.json"));
    copyFileSync(
      join(project.outDir, "artifacts", "inventory.json"),
      join(baseCopy, "generated", "artifacts", "inventory.json"),
    );

    document.servers = [{ url: "https://elsewhere.example.org/api" }];
    await runCli(project.dir, ["compile"]);
    const head = JSON.parse((await runCli(project.dir, ["diff", "--json"])).stdout);
    expect(head.category).toBe("security-review");
    const path = JSON.parse(
      (await runCli(project.dir, ["diff", "--base", join(baseCopy, "schemarouter.lock.json"), "--json"]))
        .stdout,
    );
    expect(path.changes).toEqual(head.changes);
    expect((await runCli(project.dir, ["diff", "--fail-on", "security-review"])).code).toBe(1);
    expect((await runCli(project.dir, ["diff", "--base", "no-such-ref"])).code).toBe(2);
  });
});
