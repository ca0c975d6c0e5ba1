/**
 * Nothing dropped in silence: `compile` prints what each source left out or supports partly, grouped
 * by reason with the first pointers; `inspect --report` lists every finding; `--json` carries them;
 * a source with 0 endpoints is a warning; `--strict` (compile and check) fails on left-out operations.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { type TempProject, tempProject, writeInto } from "../../helpers/project.js";

function run(project: TempProject, ...args: string[]) {
  return runCli(project.dir, args);
}

const xml = { content: { "application/xml": { schema: { type: "string" } } } };
const ok = { content: { "application/json": { schema: { type: "object" } } } };

function documentWith(leftOut: number): string {
  const paths: Record<string, unknown> = {
    "/kept": { get: { operationId: "kept", responses: { "200": ok } } },
    "/kept/{id}": {
      get: {
        operationId: "keptWithStyle",
        parameters: [{ name: "id", in: "path", required: true, style: "label", schema: { type: "string" } }],
        responses: { "200": ok },
      },
    },
  };
  for (let i = 0; i < leftOut; i++)
    paths[`/xml${i}`] = { get: { operationId: `xml${i}`, responses: { "200": xml } } };
  paths["/dangling"] = {
    get: { operationId: "dangling", responses: { "200": { $ref: "#/components/responses/Missing" } } },
  };
  return JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths });
}

function project(doc: string, second?: string): TempProject {
  const p = tempProject("left-out");
  writeInto(p, "api.json", doc);
  const sources: Record<string, unknown> = { api: { kind: "openapi", location: "api.json" } };
  if (second !== undefined) {
    writeInto(p, "empty.json", second);
    sources.empty = { kind: "openapi", location: "empty.json" };
  }
  p.write({ sources });
  return p;
}

describe("compile says what it left out", () => {
  it("prints left-out operations and partial constructs per source, by reason, with the first pointers", async () => {
    const p = project(documentWith(5));
    const result = await run(p, "compile");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("api: 2 endpoints (2 read) — new");
    expect(result.stdout).toContain("  ! left out 6 operation(s):");
    expect(result.stdout).toContain(
      "    non-json-response 5: /paths/~1xml0/get, /paths/~1xml1/get, /paths/~1xml2/get, … (+2)",
    );
    expect(result.stdout).toContain("    unresolved-ref 1: /paths/~1dangling/get");
    expect(result.stdout).toContain("  ~ partly supported 1 construct(s):");
    expect(result.stdout).toContain("    parameter-style 1: /paths/~1kept~1{id}/get/parameters/0/style");
    expect(result.stdout).toContain("`schemarouter inspect --report api`");

    const json = JSON.parse((await run(p, "compile", "--check", "--json")).stdout);
    expect(json.coverage).toEqual([
      expect.objectContaining({ source: "api", endpoints: 2, leftOut: 6, partial: 1 }),
    ]);
    expect(json.coverage[0].leftOutReasons[0]).toMatchObject({ construct: "non-json-response", count: 5 });
    expect(json.coverage[0].leftOutReasons[0].pointers).toHaveLength(5);
  });

  it("inspect --report lists every finding of the locked source; --json as data", async () => {
    const p = project(documentWith(5));
    await run(p, "compile");
    const report = await run(p, "inspect", "--report", "api");
    expect(report.code).toBe(0);
    expect(report.stdout).toContain(
      "api: 2 endpoints, 6 operation(s) left out, 1 partly supported construct(s)",
    );
    for (let i = 0; i < 5; i++) expect(report.stdout).toContain(`/paths/~1xml${i}/get`);
    expect(report.stdout).toMatch(
      /left out\s+unresolved-ref\s+\/paths\/~1dangling\/get \(at \/paths\/~1dangling\/get\/responses\/200\)/,
    );
    const json = JSON.parse((await run(p, "inspect", "--report", "api", "--json")).stdout);
    expect(json.issues.filter((issue: { leftOut?: string }) => issue.leftOut !== undefined)).toHaveLength(6);
    const unknown = await run(p, "inspect", "--report", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain('No source "nope" in the lockfile (sources: api)');
  });

  it("warns on a source with 0 endpoints; --strict fails on it and on any left-out operation", async () => {
    const empty = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "e", version: "1" },
      paths: { "/x": { get: { responses: { "200": xml } } } },
    });
    const p = project(documentWith(0).replace(',"/dangling"', ',"/gone"'), empty);
    const plain = await run(p, "compile");
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(
      'warning: source "empty" compiled to 0 endpoints (1 operation(s) left out); run `schemarouter inspect --report empty` to see why.',
    );
    const strict = await run(p, "compile", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('error: --strict: source "empty" has 0 endpoints (non-json-response 1)');
    expect(strict.stderr).toContain(
      'error: --strict: source "api" left out 1 operation(s) (unresolved-ref 1)',
    );
    const check = await run(p, "check", "--strict");
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('source "api" left out 1 operation(s)');
    expect((await run(p, "check")).code).toBe(0);
  });

  it("--strict passes when nothing is left out", async () => {
    const doc = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: { "/kept": { get: { operationId: "kept", responses: { "200": ok } } } },
    });
    const p = project(doc);
    const strict = await run(p, "compile", "--strict");
    expect(strict).toMatchObject({ code: 0, stderr: "" });
    expect(strict.stdout).not.toContain("left out");
    expect((await run(p, "check", "--strict")).code).toBe(0);
  });
});
