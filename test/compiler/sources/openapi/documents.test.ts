/** OpenAPI documents: 3.0 and 3.1, JSON and YAML (with a BOM), unparseable input, and endpoint names. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify as stringifyYaml } from "yaml";
import { SchemaRouterError } from "../../../../runtime/errors/errors.js";
import { endpointOf, names, readDoc, resolve, SPECS, tempDocs, toolOf } from "./helpers.js";

const { project, writeDoc } = tempDocs();

describe("versions and formats", () => {
  const PETSTORE_ENDPOINTS_30 = [
    "listPets",
    "createPet",
    "getPet",
    "replacePet",
    "deletePet",
    "optionsPet",
    "headPet",
    "patchPet",
  ];
  const PETSTORE_ENDPOINTS_31 = ["listPets", "createPet", "getPet", "deletePet"];
  const table: [string, string, string, string[]][] = [
    ["OAS 3.0 YAML", "petstore-30.yaml", "3.0.3", PETSTORE_ENDPOINTS_30],
    ["OAS 3.1 JSON", "petstore-31.json", "3.1.0", PETSTORE_ENDPOINTS_31],
  ];
  it.each(table)(
    "%s compiles to one ToolSpec with one endpoint per operation",
    async (_name, file, version, expected) => {
      const result = await resolve(join(SPECS, file));
      expect(names(result)).toEqual(expected);
      expect(toolOf(result).metadata?.openapi).toBe(version);
      expect(result.documentDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    },
  );

  it.each(table)(
    "%s gives the same contracts when the document is re-encoded as the other format",
    async (_name, file) => {
      const original = await resolve(join(SPECS, file));
      const other = await resolve(
        writeDoc(readDoc(file), file.endsWith(".json") ? "openapi.yaml" : "openapi.json"),
      );
      expect(other.tools).toEqual(original.tools);
      expect(other.defs).toEqual(original.defs);
      expect(other.compatibility).toEqual(original.compatibility);
      expect(other.documentDigest).not.toBe(original.documentDigest);
    },
  );

  it.each([
    ["Swagger 2.0", { swagger: "2.0", info: { title: "x", version: "1" }, paths: {} }, "SOURCE_INVALID"],
    ["OAS 4", { openapi: "4.0.0", info: { title: "x", version: "1" }, paths: {} }, "SOURCE_INVALID"],
    ["a top-level array", [1, 2], "SOURCE_INVALID"],
  ])("refuses %s (%s)", async (_name, doc, code) => {
    const error = await resolve(writeDoc(doc)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaRouterError);
    expect((error as SchemaRouterError).code).toBe(code);
  });

  it.each(["openapi.json", "openapi.yaml"])("reads %s with a UTF-8 byte order mark", async (file) => {
    const doc = readDoc("petstore-31.json");
    const path = join(project("oas-doc").dir, file);
    writeFileSync(path, `\uFEFF${file.endsWith(".json") ? JSON.stringify(doc) : stringifyYaml(doc)}`);
    expect(names(await resolve(path))).toEqual(["listPets", "createPet", "getPet", "deletePet"]);
  });

  it("refuses a document that is neither JSON nor YAML (SOURCE_PARSE_FAILED)", async () => {
    const path = join(project("oas-doc").dir, "broken.yaml");
    writeFileSync(path, "openapi: [unclosed\n  : : :");
    const error = await resolve(path).catch((caught: unknown) => caught);
    expect((error as SchemaRouterError).code).toBe("SOURCE_PARSE_FAILED");
  });
});

describe("endpoint names", () => {
  it("uses operationIds, and derives deterministic, collision-free names when absent or duplicated", async () => {
    const result = await resolve(join(SPECS, "names-31.yaml"));
    expect(
      toolOf(result).endpoints.map((endpoint) => [
        endpoint.name,
        endpoint.execution.kind === "http" && endpoint.execution.method,
        endpoint.execution.kind === "http" && endpoint.execution.path,
      ]),
    ).toEqual([
      // A derived name never takes a declared operationId, even one declared later in the document.
      ["get_users_id_repos_2", "get", "/users/{id}/repos"],
      ["dup", "post", "/users/{id}/repos"],
      ["get_root", "get", "/"],
      ["dup_2", "get", "/items"],
      ["put_items", "put", "/items"],
      ["get_users_id_repos", "get", "/things"],
      ["collide", "post", "/collide/{id}"],
    ]);
    expect(result.compatibility.filter((issue) => issue.construct === "duplicate-operation-id")).toEqual([
      expect.objectContaining({ pointer: "/paths/~1items/get/operationId", level: "partial" }),
    ]);
    const again = await resolve(join(SPECS, "names-31.yaml"));
    expect(names(again)).toEqual(names(result));
  });

  it("gives parameters that share a wire name across locations distinct caller names", async () => {
    const collide = endpointOf(await resolve(join(SPECS, "names-31.yaml")), "collide");
    expect(collide.parameters.map((p) => [p.name, p.location, p.wireName ?? p.name, p.required])).toEqual([
      ["id", "path", "id", true],
      ["query_id", "query", "id", false],
      ["header_id", "header", "id", false],
      ["body_id", "body", "id", true],
      ["name", "body", "name", false],
    ]);
  });
});
