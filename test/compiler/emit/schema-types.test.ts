/**
 * The JSON Schema → TypeScript emitter of the bindings: the type each schema construct becomes, and
 * a full type-check (skipLibCheck off) of the declaration files generated for the OpenAPI fixtures
 * and for GitHub REST, so an invalid declaration cannot hide behind skipLibCheck.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { declaration, typeText } from "../../../compiler/emit/schema-types.js";
import type { JsonSchema } from "../../../runtime/model/specs.js";
import { copyInto, REPO_ROOT, tempProject } from "../../helpers/project.js";

const context = { refName: (name: string) => ({ pet: "Pet", "a/b": "AB" })[name] };
const type = (schema: JsonSchema) => typeText(schema, context, "");

describe("schema types", () => {
  it.each<[string, JsonSchema, string]>([
    ["true", true, "unknown"],
    ["false", false, "never"],
    ["the empty schema", {}, "unknown"],
    ["only descriptive keywords", { description: "x", examples: [1] }, "unknown"],
    ["a string", { type: "string", format: "date-time", minLength: 1 }, "string"],
    ["an integer", { type: "integer", minimum: 0 }, "number"],
    ["a nullable string", { type: ["string", "null"] }, "(string | null)"],
    ["an enum (over its type)", { type: "string", enum: ["a", "b"] }, '("a" | "b")'],
    ["a const", { const: 3 }, "3"],
    ["a non-primitive enum value", { enum: [{ a: 1 }, "x"] }, "unknown"],
    [
      "a closed object",
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      "{\n  a: string;\n}",
    ],
    [
      "an optional property",
      { type: "object", properties: { a: { type: "boolean" } } },
      "{\n  a?: boolean;\n}",
    ],
    [
      "a quoted key",
      { type: "object", properties: { "X-Id": { type: "string" } } },
      '{\n  "X-Id"?: string;\n}',
    ],
    [
      "a map",
      { type: "object", additionalProperties: { type: "integer" } },
      "{\n  [k: string]: number | undefined;\n}",
    ],
    ["an object of anything", { type: "object" }, "{\n  [k: string]: unknown | undefined;\n}"],
    ["an explicitly empty object", { type: "object", additionalProperties: false }, "{}"],
    [
      "properties and a map (the index covers the properties)",
      { type: "object", properties: { n: { type: "integer" } }, additionalProperties: { type: "string" } },
      "{\n  n?: number;\n  [k: string]: (string | number) | undefined;\n}",
    ],
    ["an array", { type: "array", items: { type: "string" } }, "string[]"],
    ["an array of unions", { type: "array", items: { type: ["string", "null"] } }, "(string | null)[]"],
    ["an untyped array", { type: "array" }, "unknown[]"],
    ["a tuple", { type: "array", prefixItems: [{ type: "string" }], items: false }, "[string?]"],
    ["an open tuple", { prefixItems: [{ type: "number" }] }, "[number?, ...unknown[]]"],
    ["a shared definition", { $ref: "#/$defs/pet" }, "Pet"],
    ["an escaped definition name", { $ref: "#/$defs/a~1b" }, "AB"],
    ["an undeclared reference", { $ref: "#/components/schemas/x" }, "unknown"],
    ["a reference with a description", { $ref: "#/$defs/pet", description: "the pet" }, "Pet"],
    [
      "a reference with constraints",
      { $ref: "#/$defs/pet", properties: { extra: { type: "string" } } },
      "(Pet & {\n  extra?: string;\n})",
    ],
    ["allOf", { allOf: [{ $ref: "#/$defs/pet" }, { $ref: "#/$defs/a~1b" }] }, "(Pet & AB)"],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "integer" }] }, "(string | number)"],
    ["oneOf with unknown", { oneOf: [{ type: "string" }, {}] }, "unknown"],
    [
      "anyOf of required-only members",
      { type: "object", properties: { a: { type: "string" } }, anyOf: [{ required: ["a"] }] },
      "{\n  a?: string;\n}",
    ],
    ["a union with never", { anyOf: [false, { type: "null" }] }, "null"],
    [
      "additionalProperties: true without type does not narrow an anyOf to objects",
      {
        anyOf: [{ type: "string" }, { type: "object", properties: { a: { type: "string" } } }],
        additionalProperties: true,
      },
      "(string | {\n  a?: string;\n})",
    ],
    [
      "additionalProperties: {} without type does not narrow an anyOf to objects",
      { anyOf: [{ type: "string" }, { type: "integer" }], additionalProperties: {} },
      "(string | number)",
    ],
    ["additionalProperties: true alone is any value", { additionalProperties: true }, "unknown"],
    [
      "additionalProperties: true with type object stays an open object",
      { type: "object", additionalProperties: true },
      "{\n  [k: string]: unknown | undefined;\n}",
    ],
  ])("%s", (_, schema, want) => {
    expect(type(schema)).toBe(want);
  });

  it("documents properties and definitions, escaping comment ends, and marks deprecation", () => {
    const schema: JsonSchema = {
      type: "object",
      description: "A pet. */ not the end",
      deprecated: true,
      properties: { id: { type: "string", description: "line 1\n\nline 3" } },
      required: ["id"],
    };
    expect(declaration("Pet", schema, context)).toBe(
      [
        "/**",
        " * A pet. *\\/ not the end",
        " * @deprecated",
        " */",
        "export interface Pet {",
        "  /**",
        "   * line 1",
        "   *",
        "   * line 3",
        "   */",
        "  id: string;",
        "}",
        "",
      ].join("\n"),
    );
    expect(declaration("Name", { type: "string" }, context)).toBe("export type Name = string;\n");
  });

  it("generates declaration files that type-check with skipLibCheck off (fixtures and GitHub REST)", {
    timeout: 180_000,
  }, async () => {
    const project = tempProject("schema-types");
    const specs = join(REPO_ROOT, "test/fixtures/specs");
    const sources: Record<string, unknown> = {
      github: {
        kind: "openapi",
        location: join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"),
      },
    };
    // The fixture documents (not the real ones under real/, which the differential test covers).
    for (const file of readdirSync(specs, { withFileTypes: true }).flatMap((e) =>
      e.isFile() ? [e.name] : [],
    )) {
      const name = file.replace(/[^a-z0-9]/gi, "").toLowerCase();
      copyInto(project, `test/fixtures/specs/${file}`, file);
      sources[name] = { kind: "openapi", location: file };
    }
    project.write({ sources });
    const result = await compile({ config: project.configPath, env: {} });
    const declarations = result.files
      .map((file) => file.path)
      .filter((path) => path.endsWith(".schemas.d.ts"));
    expect(declarations.length).toBe(Object.keys(sources).length);
    writeFileSync(
      join(project.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, types: [], target: "ES2022" },
        files: declarations,
      }),
    );
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    const output = execFileSync(
      process.execPath,
      [tsc, "-p", join(project.dir, "tsconfig.json"), "--listFiles"],
      {
        encoding: "utf8",
      },
    );
    for (const path of declarations) expect(output).toContain(path);
  });
});
