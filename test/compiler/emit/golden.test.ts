/**
 * Golden files for what the emitters write for the OpenAPI fixture documents (test/fixtures/specs):
 * each source's artifact, the lockfile, and per source the client module, the types module and the
 * declaration file (the schema-types emitter's output plus the field-path interfaces), and index.ts.
 * A change to any emitter shows as a reviewable diff under __golden__/; after reviewing it, accept it
 * with `npx vitest run test/compiler/emit/golden.test.ts -u`. The root config's examples
 * (examples/generated/) are compared byte for byte by `compile --check` in test/e2e/package.test.ts.
 */
import { readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import type { OutputFile } from "../../../compiler/emit/write.js";
import { copyInto, REPO_ROOT, tempProject } from "../../helpers/project.js";

const GOLDEN = join(import.meta.dirname, "__golden__");
const SPECS = "test/fixtures/specs";
const project = tempProject("golden");
let files: readonly OutputFile[] = [];

beforeAll(async () => {
  const sources: Record<string, unknown> = {};
  const entries = readdirSync(join(REPO_ROOT, SPECS), { withFileTypes: true });
  for (const file of entries.flatMap((entry) => (entry.isFile() ? [entry.name] : [])).sort()) {
    copyInto(project, `${SPECS}/${file}`, file);
    sources[file.replace(/\.(json|yaml)$/, "").replace(/-/g, "_")] = { kind: "openapi", location: file };
  }
  // The import generated bindings use in an application, rather than this repository's sources.
  project.write({ sources, runtimeImport: "schemarouter" });
  files = (await compile({ config: project.configPath, mode: "dry-run", env: {} })).files;
});

afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

const EXPECTED = [
  "generated/artifacts/names_31.json",
  "generated/artifacts/petstore_30.json",
  "generated/artifacts/petstore_31.json",
  "generated/artifacts/unsupported_31.json",
  "schemarouter.lock.json",
  ...["names_31", "petstore_30", "petstore_31", "unsupported_31"].flatMap((source) => [
    `generated/${source}.schemas.d.ts`,
    `generated/${source}.types.ts`,
    `generated/${source}.ts`,
  ]),
  "generated/index.ts",
];

describe("emitter golden files (OpenAPI fixtures)", () => {
  it("emits exactly the files that have a golden", () => {
    expect(files.map((file) => relative(project.dir, file.path)).sort()).toEqual([...EXPECTED].sort());
  });

  it.each(EXPECTED)("%s", async (path) => {
    const file = files.find((candidate) => relative(project.dir, candidate.path) === path);
    expect(file, path).toBeDefined();
    await expect(file!.contents).toMatchFileSnapshot(join(GOLDEN, path));
  });
});
