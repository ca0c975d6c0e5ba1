/**
 * Drift of a GraphQL source (docs/sources/graphql.md "Drift"): `schemarouter check` re-reads the
 * schema and classifies its changes with the shared compare rules — a field removed and a new
 * required argument are breaking, a new optional field is compatible, reordering the SDL is no drift.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { LIBRARY_SDL } from "../../../fixtures/graphql/server.js";
import { runCli } from "../../../helpers/cli.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

const ORIGINAL = readFileSync(LIBRARY_SDL, "utf8");

async function checkAfter(edit: (sdl: string) => string) {
  const project = tempProject("graphql-drift");
  writeInto(project, "schema.graphql", ORIGINAL);
  project.write({ sources: { library: { kind: "graphql", location: "schema.graphql" } } });
  await compile({ config: project.configPath, env: {} });
  writeInto(project, "schema.graphql", edit(ORIGINAL));
  const run = await runCli(project.dir, ["check", "--json"]);
  const report = run.stdout === "" ? undefined : JSON.parse(run.stdout);
  const rules = new Set<string>((report?.changes ?? []).map((change: { rule: string }) => change.rule));
  return { code: run.code, category: report?.category as string | undefined, rules };
}

describe("GraphQL drift", () => {
  it("finds no drift when the SDL is only reordered", async () => {
    const reordered = (sdl: string) => {
      const at = sdl.indexOf("enum Genre");
      const end = sdl.indexOf("}", at) + 1;
      return `${sdl.slice(0, at)}${sdl.slice(end)}\n${sdl.slice(at, end)}\n`;
    };
    expect((await checkAfter(reordered)).code).toBe(0);
  });

  it.each([
    [
      "a removed output field",
      (sdl: string) => sdl.replace("  pages: Int\n", ""),
      "breaking",
      "response.field.removed",
    ],
    [
      "a new required argument",
      (sdl: string) => sdl.replace("book(id: ID!): Book", "book(id: ID!, shelf: String!): Book"),
      "breaking",
      "request.parameter.required-added",
    ],
    [
      "a changed field type",
      (sdl: string) => sdl.replace("  pages: Int\n", "  pages: String\n"),
      "breaking",
      undefined,
    ],
    [
      "a new optional field",
      (sdl: string) => sdl.replace("  pages: Int\n", "  pages: Int\n  isbn: String\n"),
      "compatible",
      undefined,
    ],
  ])("classifies %s", async (_name, edit, category, rule) => {
    const result = await checkAfter(edit);
    expect(result.code).toBe(1);
    expect(result.category).toBe(category);
    if (rule !== undefined) expect(result.rules).toContain(rule);
  });
});
