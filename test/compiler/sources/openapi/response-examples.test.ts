/**
 * Response examples checked at compile (docs/sources/openapi-overlays.md): every 2xx JSON example is
 * validated against the compiled response schema, and each one that does not satisfy it is an
 * `example-mismatch` finding at its JSON Pointer — in the artifact, the compile output and `--json`.
 */
import { describe, expect, it } from "vitest";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import { runCli } from "../../../helpers/cli.js";
import { tempDocs } from "./helpers.js";

const docs = tempDocs();

const PET = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer" }, name: { type: "string" }, tag: { type: "string", nullable: true } },
};

const DOC = {
  openapi: "3.0.3",
  info: { title: "Examples", version: "1" },
  paths: {
    "/pets/{id}": {
      get: {
        operationId: "getPet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": {
            description: "A pet.",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Pet" },
                // Valid: nullable (OpenAPI 3.0) is read as the runtime reads it.
                example: { id: 1, name: "Rex", tag: null },
                examples: {
                  noName: { value: { id: 2 } },
                  shared: { $ref: "#/components/examples/stringId" },
                  elsewhere: { externalValue: "https://example.com/pet.json" },
                },
              },
            },
          },
          "404": {
            description: "Not documented as a success.",
            content: { "application/json": { example: 7 } },
          },
        },
      },
    },
    "/pets": {
      get: {
        operationId: "listPets",
        responses: {
          "200": {
            description: "Pets.",
            content: {
              "application/json": {
                schema: { type: "array", items: { $ref: "#/components/schemas/Pet" }, example: [{ id: 1 }] },
              },
            },
          },
        },
      },
    },
    "/pets.xml": {
      get: {
        operationId: "listPetsXml",
        responses: {
          "200": {
            description: "Left out (not JSON): its examples are not checked.",
            content: { "application/xml": { schema: { type: "string" }, example: 5 } },
          },
        },
      },
    },
  },
  components: {
    schemas: { Pet: PET },
    examples: { stringId: { value: { id: "one", name: "Rex" } } },
  },
};

describe("response examples checked at compile", () => {
  it("reports each example its schema refuses, at the example's pointer, and nothing else", async () => {
    const location = docs.writeDoc(DOC);
    const result = await openapiAdapter.resolve(
      "pets",
      { kind: "openapi", location },
      {
        cwd: "/",
        env: {},
        allowInsecureHttp: false,
      },
    );
    const found = result.compatibility.filter((issue) => issue.construct === "example-mismatch");
    const tail =
      "a response like it is refused at run time. If the example is right, fix the schema with an OpenAPI overlay (specOverlays).";
    expect(found).toEqual([
      {
        pointer: "/components/examples/stringId/value",
        construct: "example-mismatch",
        level: "partial",
        message: `this response example does not satisfy the response schema (/id must be integer); ${tail}`,
      },
      {
        pointer: "/paths/~1pets/get/responses/200/content/application~1json/schema/example",
        construct: "example-mismatch",
        level: "partial",
        message: `this response example does not satisfy the response schema (/0 must have required property 'name'); ${tail}`,
      },
      {
        pointer: "/paths/~1pets~1{id}/get/responses/200/content/application~1json/examples/noName/value",
        construct: "example-mismatch",
        level: "partial",
        message: `this response example does not satisfy the response schema ((root) must have required property 'name'); ${tail}`,
      },
    ]);
  });

  it("OpenAPI 3.1: the schema's JSON Schema `examples` array, entry by entry", async () => {
    const location = docs.writeDoc({
      openapi: "3.1.0",
      info: { title: "Examples", version: "1" },
      paths: {
        "/count": {
          get: {
            operationId: "count",
            responses: {
              "200": {
                description: "A count.",
                content: {
                  "application/json": { schema: { type: "integer", minimum: 0, examples: [3, -1, "x"] } },
                },
              },
            },
          },
        },
      },
    });
    const result = await openapiAdapter.resolve(
      "counts",
      { kind: "openapi", location },
      {
        cwd: "/",
        env: {},
        allowInsecureHttp: false,
      },
    );
    expect(
      result.compatibility
        .filter((issue) => issue.construct === "example-mismatch")
        .map((issue) => issue.pointer),
    ).toEqual([
      "/paths/~1count/get/responses/200/content/application~1json/schema/examples/1",
      "/paths/~1count/get/responses/200/content/application~1json/schema/examples/2",
    ]);
  });

  it("compile prints them under the source and carries them in --json", async () => {
    const project = docs.project("examples-cli");
    const location = docs.writeDoc(DOC);
    project.write({ sources: { pets: { kind: "openapi", location } } });
    const text = await runCli(project.dir, ["compile"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "    example-mismatch 3: /components/examples/stringId/value, /paths/~1pets/get/responses/200/content/application~1json/schema/example, /paths/~1pets~1{id}/get/responses/200/content/application~1json/examples/noName/value",
    );
    const json = await runCli(project.dir, ["compile", "--json"]);
    const coverage = (
      JSON.parse(json.stdout) as { coverage: { partialReasons: { construct: string; count: number }[] }[] }
    ).coverage[0]!;
    expect(coverage.partialReasons).toContainEqual(
      expect.objectContaining({ construct: "example-mismatch", count: 3 }),
    );
  });
});
