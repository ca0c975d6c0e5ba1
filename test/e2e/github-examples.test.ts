/**
 * GitHub's REST description (@octokit/openapi) documents responses its own schemas refuse: compile
 * reports each such example at its JSON Pointer (docs/sources/openapi-overlays.md). Treating the
 * documented example as the real response, a node:http server on 127.0.0.1 replays it: the governed
 * call through the unfixed contract is refused (response validation stays strict), and through the
 * same document with an OpenAPI overlay that fixes the schema (test/fixtures/overlays) it succeeds.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompileResult, compile } from "../../compiler/compile/compile.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { runCli } from "../helpers/cli.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { copyInto, REPO_ROOT, tempProject } from "../helpers/project.js";
import { failure } from "../helpers/refusal.js";

const DOCUMENT = join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const EXAMPLES = (
  JSON.parse(readFileSync(DOCUMENT, "utf8")) as {
    components: { examples: Record<string, { value: unknown }> };
  }
).components.examples;
const REPO_EXAMPLE = "/components/examples/full-repository-default-response/value";
const PULLS_EXAMPLE = "/components/examples/pull-request-simple-items/value";

const project = tempProject("github-examples");
let result: CompileResult;
let server: TestServer;
let router: SchemaRouter;

beforeAll(async () => {
  copyInto(project, "test/fixtures/overlays/github-examples.overlay.yaml", "github.overlay.yaml");
  project.write({
    sources: {
      github: { kind: "openapi", location: DOCUMENT },
      githubFixed: { kind: "openapi", location: DOCUMENT, specOverlays: ["github.overlay.yaml"] },
    },
  });
  result = await compile({ config: project.configPath, env: {} });
  // The documented examples, replayed as the real responses.
  server = await startServer((request, response) => {
    if (request.url === "/repos/octocat/Hello-World")
      return sendJson(response, 200, EXAMPLES["full-repository-default-response"]!.value);
    if (request.url === "/repos/octocat/Hello-World/pulls")
      return sendJson(response, 200, EXAMPLES["pull-request-simple-items"]!.value);
    return sendJson(response, 404, { message: "Not Found" });
  });
  router = await SchemaRouter.load({
    root: project.dir,
    bindings: { github: { baseUrl: server.url }, githubFixed: { baseUrl: server.url } },
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
  rmSync(project.dir, { recursive: true, force: true });
});

const mismatches = (source: string) =>
  result.sources
    .find((compiled) => compiled.name === source)!
    .artifact.compatibility.filter((issue) => issue.construct === "example-mismatch");

describe("GitHub REST examples checked at compile", () => {
  it("reports the repos/get and pulls/list examples their schemas refuse, with pointer and reason", () => {
    const found = mismatches("github");
    expect(found.find((issue) => issue.pointer === REPO_EXAMPLE)).toEqual({
      pointer: REPO_EXAMPLE,
      construct: "example-mismatch",
      level: "partial",
      message:
        "this response example does not satisfy the response schema ((root) must have required property 'language'); a response like it is refused at run time. If the example is right, fix the schema with an OpenAPI overlay (specOverlays).",
    });
    expect(found.find((issue) => issue.pointer === PULLS_EXAMPLE)?.message).toContain(
      "/0/requested_teams/0 must have required property 'type'",
    );
    const coverage = result.coverage.find((entry) => entry.source === "github")!;
    const group = coverage.partialReasons.find((reason) => reason.construct === "example-mismatch")!;
    expect(group.count).toBe(found.length);
    expect(group.pointers).toContain(REPO_EXAMPLE);
  });

  it("the overlay fixes exactly those schemas; GitHub's other mismatches stay reported", () => {
    const fixed = mismatches("githubFixed").map((issue) => issue.pointer);
    expect(fixed).not.toContain(REPO_EXAMPLE);
    expect(fixed).not.toContain(PULLS_EXAMPLE);
    expect(fixed.length).toBeGreaterThan(0);
    expect(fixed.length).toBeLessThan(mismatches("github").length);
    expect(result.notes).toContain(
      'githubFixed: overlay github.overlay.yaml ("GitHub REST schemas that admit GitHub\'s own examples" 1.0.0): 3 of 3 action(s) applied',
    );
  });

  it("inspect --report lists them, as text and as JSON", async () => {
    const text = await runCli(project.dir, ["inspect", "--report", "github"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /partial\s+example-mismatch\s+\/components\/examples\/full-repository-default-response\/value/,
    );
    const json = await runCli(project.dir, ["inspect", "--report", "github", "--json"]);
    const report = JSON.parse(json.stdout) as { issues: { pointer: string; construct: string }[] };
    expect(report.issues).toContainEqual(
      expect.objectContaining({ pointer: PULLS_EXAMPLE, construct: "example-mismatch" }),
    );
  });

  it("the replayed example is refused through the unfixed contract and returned through the fixed one", async () => {
    // A governed call names the contract it expects: the fingerprints the lock pins.
    const call = (tool: string, endpoint: string) => {
      const locked = result.lock.sources[tool]!.tools[tool]!;
      return router.call({
        tool,
        endpoint,
        arguments: { owner: "octocat", repo: "Hello-World" },
        endpointFingerprint: locked.endpoints[endpoint]!.fingerprint,
        toolFingerprint: locked.fingerprint,
      });
    };
    const refused = await failure(call("github", "repos/get"));
    expect(refused.code).toBe("OUTPUT_SCHEMA_VIOLATION");
    expect(refused.message).toContain("must have required property 'language'");

    const repo = await call("githubFixed", "repos/get");
    expect((repo.data as { full_name: string }).full_name).toBe("octocat/Hello-World");
    expect((repo.data as { language?: unknown }).language).toBeUndefined();

    await expect(call("github", "pulls/list")).rejects.toMatchObject({ code: "OUTPUT_SCHEMA_VIOLATION" });
    const pulls = await call("githubFixed", "pulls/list");
    expect((pulls.data as { number: number }[]).map((pull) => pull.number)).toEqual([1347]);
    expect(server.requests.map((request) => request.url)).toEqual([
      "/repos/octocat/Hello-World",
      "/repos/octocat/Hello-World",
      "/repos/octocat/Hello-World/pulls",
      "/repos/octocat/Hello-World/pulls",
    ]);
  });
});
