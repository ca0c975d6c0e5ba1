/**
 * Every generated file is a module: a document with no shared schemas and no endpoints still emits
 * bindings that `tsc --strict` accepts (an empty `<source>.schemas.d.ts` was "not a module", TS2306).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/index.js";
import { tempProject, writeInto } from "../../helpers/project.js";
import { typecheckDirectory } from "../../helpers/typecheck.js";

describe("generated bindings are modules", () => {
  it("a source with 0 endpoints and no schemas type-checks under --strict", async () => {
    const project = tempProject("modules");
    writeInto(
      project,
      "empty.json",
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "xkcd-like", version: "1" },
        paths: { "/info.0.json": { get: { responses: { "200": { content: { "image/png": {} } } } } } },
      }),
    );
    writeInto(
      project,
      "none.json",
      JSON.stringify({ openapi: "3.1.0", info: { title: "n", version: "1" }, paths: {} }),
    );
    project.write({
      sources: {
        empty: { kind: "openapi", location: "empty.json" },
        none: { kind: "openapi", location: "none.json" },
      },
    });
    await compile({ config: project.configPath });
    for (const name of ["empty", "none"]) {
      const declarations = readFileSync(join(project.outDir, `${name}.schemas.d.ts`), "utf8");
      expect(declarations).toMatch(/^export \{\};$/m);
    }
    expect(typecheckDirectory(project.outDir)).toEqual([]);
  });
});
