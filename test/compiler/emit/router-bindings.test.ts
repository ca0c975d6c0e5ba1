/**
 * The generated `RouterBindings` (docs/runtime/bindings.md): one key per remote tool with its
 * transport's shape, no key for a local tool (bound through `local`), byte-identical across compiles.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { copyInto, REPO_ROOT, tempProject } from "../../helpers/project.js";

const project = tempProject("router-bindings");
let first = "";

beforeAll(async () => {
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({
    sources: {
      weather: { kind: "local", module: join(REPO_ROOT, "test/fixtures/local/weather.ts") },
      petstore: { kind: "openapi", location: "openapi.yaml" },
    },
  });
  await compile({ config: project.configPath, env: {} });
  first = readFileSync(join(project.outDir, "index.ts"), "utf8");
});

describe("generated RouterBindings", () => {
  it("keys the remote source with its binding shape and leaves the local one to `local`", () => {
    expect(first).toContain(
      ["export type RouterBindings = {", '  readonly petstore?: BindingOf<"http">;', "};"].join("\n"),
    );
    expect(first).not.toMatch(/readonly weather\?: BindingOf/);
    expect(first).toContain("import type { BindingOf, SchemaRouter } from ");
  });

  it("is byte-identical on a second compile", async () => {
    await compile({ config: project.configPath, env: {} });
    expect(readFileSync(join(project.outDir, "index.ts"), "utf8")).toBe(first);
  });

  it("a project of local tools only gets a RouterBindings that takes no key", async () => {
    const local = tempProject("router-bindings-local");
    local.write({
      sources: { weather: { kind: "local", module: join(REPO_ROOT, "test/fixtures/local/weather.ts") } },
    });
    await compile({ config: local.configPath, env: {} });
    expect(readFileSync(join(local.outDir, "index.ts"), "utf8")).toContain(
      "export type RouterBindings = { readonly [tool: string]: never };",
    );
  });
});
