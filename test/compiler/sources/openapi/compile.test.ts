/**
 * The OpenAPI source (compiler/sources/openapi) over small fixture documents: versions and formats,
 * names, parameters, request bodies, outputs and fields, OAS 3.0 → JSON Schema, shared `$defs`,
 * sensitive headers, effects, the compatibility report, descriptive servers, determinism and
 * fingerprint locality.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { compile } from "../../../../compiler/compile/compile.js";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
import { SchemaRouterError } from "../../../../runtime/errors/errors.js";
import { DefinitionSet, fingerprintTool } from "../../../../runtime/format/fingerprint.js";
import { effectiveSchema } from "../../../../runtime/load/registry.js";
import { decodePointerToken } from "../../../../runtime/model/json-pointer.js";
import type { EndpointSpec, JsonSchema, ToolSpec } from "../../../../runtime/model/specs.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { sendJson, startServer } from "../../../helpers/http-server.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../../helpers/project.js";

const SPECS = join(REPO_ROOT, "test", "fixtures", "specs");
const context = { cwd: SPECS, env: {}, allowInsecureHttp: false };

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
});

function project(name: string): TempProject {
  const created = tempProject(name);
  projects.push(created);
  return created;
}

/** Writes a document into a fresh temp directory and returns its path. */
function writeDoc(doc: unknown, file = "openapi.json"): string {
  const dir = project("oas-doc").dir;
  const path = join(dir, file);
  writeFileSync(path, file.endsWith(".json") ? JSON.stringify(doc) : stringifyYaml(doc));
  return path;
}

function readDoc(file: string): Record<string, unknown> {
  const text = readFileSync(join(SPECS, file), "utf8");
  return (file.endsWith(".json") ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
}

async function resolve(location: string): Promise<SourceResult> {
  return openapiAdapter.resolve("pets", { kind: "openapi", location }, context);
}

function toolOf(result: SourceResult): ToolSpec {
  expect(result.tools).toHaveLength(1);
  return result.tools[0]!;
}

function endpointOf(result: SourceResult, name: string): EndpointSpec {
  const found = toolOf(result).endpoints.find((endpoint) => endpoint.name === name);
  if (found === undefined) throw new Error(`no endpoint ${name}`);
  return found;
}

const names = (result: SourceResult) => toolOf(result).endpoints.map((endpoint) => endpoint.name);

/** Walks a JSON pointer through a parsed document; undefined when it does not resolve. */
function atPointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const token of pointer.split("/").slice(1).map(decodePointerToken)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

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

describe("parameters", () => {
  it("maps locations, keeps required flags and schemas, and forces path parameters required", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const list = endpointOf(result, "listPets");
    expect(list.parameters.map((p) => [p.name, p.location, p.required, p.schema])).toEqual([
      ["limit", "query", false, { type: "integer", minimum: 1 }],
      ["tags", "query", false, { type: "array", items: { type: "string" } }],
      ["X-Request-Id", "header", true, { type: "string" }],
    ]);
    expect(list.inputSchema).toEqual({
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1 },
        tags: { type: "array", items: { type: "string" } },
        "X-Request-Id": { type: "string" },
      },
      required: ["X-Request-Id"],
      additionalProperties: false,
    });
  });

  it("merges path-level and operation-level parameters; the operation's declaration wins", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const get = endpointOf(result, "getPet");
    expect(get.parameters.map((p) => [p.name, p.location, p.required, p.description, p.schema])).toEqual([
      ["petId", "path", true, undefined, { type: "string" }],
      ["fields", "query", false, "operation-level", { type: "integer" }],
      ["verbose", "query", false, undefined, { type: "boolean" }],
    ]);
    const del = endpointOf(result, "deletePet");
    expect(del.parameters.map((p) => [p.name, p.description ?? null])).toEqual([
      ["petId", null],
      ["fields", "path-level"],
    ]);
  });

  const SENSITIVE = [
    "Authorization",
    "Cookie",
    "Host",
    "Proxy-Authorization",
    "Connection",
    "Transfer-Encoding",
    "Content-Length",
    "TE",
    "Upgrade",
    "Set-Cookie",
    "X-Api-Key",
    "proxy-connection",
    "authorization",
  ];
  it.each(SENSITIVE)(
    "never makes the %s header a tool parameter and reports it with its pointer",
    async (header) => {
      const doc = {
        openapi: "3.1.0",
        info: { title: "h", version: "1" },
        paths: {
          "/h": {
            get: {
              operationId: "h",
              parameters: [
                { name: header, in: "header", required: true, schema: { type: "string" } },
                { name: "X-Fine", in: "header", schema: { type: "string" } },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      };
      const result = await resolve(writeDoc(doc));
      expect(endpointOf(result, "h").parameters.map((p) => p.name)).toEqual(["X-Fine"]);
      expect(endpointOf(result, "h").inputSchema).not.toHaveProperty("required");
      expect(result.compatibility).toEqual([
        expect.objectContaining({ pointer: "/paths/~1h/get/parameters/0", construct: "sensitive-header" }),
      ]);
    },
  );
});

describe("query serialization the transport does not perform", () => {
  it("reports explode: false arrays and form-style objects with their pointers", async () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "q", version: "1" },
      paths: {
        "/q": {
          get: {
            operationId: "q",
            parameters: [
              {
                name: "ids",
                in: "query",
                explode: false,
                schema: { type: "array", items: { type: "integer" } },
              },
              { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
              {
                name: "filter",
                in: "query",
                schema: { type: "object", properties: { a: { type: "string" } } },
              },
              { name: "deep", in: "query", style: "deepObject", schema: { type: "object" } },
              { name: "json", in: "query", content: { "application/json": { schema: { type: "object" } } } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const result = await resolve(writeDoc(doc));
    expect(endpointOf(result, "q").parameters.map((p) => p.name)).toEqual([
      "ids",
      "tags",
      "filter",
      "deep",
      "json",
    ]);
    expect(result.compatibility.map((issue) => [issue.pointer, issue.construct])).toEqual([
      ["/paths/~1q/get/parameters/0/explode", "parameter-style"],
      ["/paths/~1q/get/parameters/2/schema", "parameter-style"],
      ["/paths/~1q/get/parameters/3/style", "parameter-style"],
      ["/paths/~1q/get/parameters/4/content", "parameter-content"],
    ]);
  });
});

describe("request bodies", () => {
  it("flattens a JSON object body ($ref'd) into body parameters with the body's required list", async () => {
    const create = endpointOf(await resolve(join(SPECS, "petstore-30.yaml")), "createPet");
    expect(create.parameters.map((p) => [p.name, p.location, p.required, p.schema])).toEqual([
      ["name", "body", true, { type: "string" }],
      ["tag", "body", false, { type: ["string", "null"] }],
      ["owner", "body", false, { $ref: "#/$defs/Owner" }],
    ]);
    expect(create.execution).toMatchObject({
      requestBody: { contentType: "application/json", mode: "properties", required: true },
    });
  });

  it("keeps an optional body all-or-nothing: any body argument requires the body's required properties", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const replace = endpointOf(result, "replacePet");
    expect(replace.parameters.filter((p) => p.location === "body").map((p) => [p.name, p.required])).toEqual([
      ["name", false],
      ["tag", false],
      ["owner", false],
    ]);
    const schema = effectiveSchema(replace.inputSchema, new DefinitionSet(result.defs));
    const validators = new ValidatorSet();
    const table: [Record<string, unknown>, boolean][] = [
      [{ petId: "1" }, true],
      [{ petId: "1", name: "rex" }, true],
      [{ petId: "1", name: "rex", tag: null }, true],
      [{ petId: "1", tag: "x" }, false],
      [{ petId: "1", owner: { name: "a" } }, false],
    ];
    for (const [args, valid] of table) expect(validators.validate(schema, args).length === 0).toBe(valid);
  });

  it.each([
    ["an array body", "bulk", { type: "array", items: { type: "integer" } }, true],
    ["an allOf body (+json media type)", "merge", undefined, false],
  ])("sends %s as one value-mode parameter", async (_name, endpoint, schema, required) => {
    const found = endpointOf(await resolve(join(SPECS, "unsupported-31.yaml")), endpoint);
    expect(found.parameters.map((p) => [p.name, p.location, p.required])).toEqual([
      ["body", "body", required],
    ]);
    if (schema !== undefined) expect(found.parameters[0]?.schema).toEqual(schema);
    expect(found.execution).toMatchObject({ requestBody: { mode: "value", parameter: "body", required } });
  });
});

describe("outputs and fields", () => {
  it("derives top-level fields from an object response and `[].x` fields with `*` paths from an array of objects", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const get = endpointOf(result, "getPet");
    expect(get.outputSchema).toEqual({ $ref: "#/$defs/Pet" });
    expect(get.fields.map((f) => [f.id, f.path, f.resultPath])).toEqual(
      ["id", "name", "tag", "weight", "owner", "status"].map((id) => [id, [id], undefined]),
    );
    expect(get.fields.find((f) => f.id === "id")?.datatype).toBe("integer");
    const list = endpointOf(result, "listPets");
    expect(list.outputSchema).toEqual({ type: "array", items: { $ref: "#/$defs/Pet" } });
    expect(list.fields.map((f) => [f.id, f.path, f.resultPath])).toEqual(
      ["id", "name", "tag", "weight", "owner", "status"].map((id) => [`[].${id}`, ["*", id], ["*", id]]),
    );
  });

  it("takes the success status codes from the 2xx responses; an empty response is JSON null", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    expect(endpointOf(result, "createPet").execution).toMatchObject({ successStatus: [201] });
    const del = endpointOf(result, "deletePet");
    expect(del.execution).toMatchObject({ successStatus: [204] });
    expect(del.outputSchema).toEqual({ type: "null" });
    expect(del.fields).toEqual([]);
  });
});

describe("OAS 3.0 schemas become JSON Schema 2020-12", () => {
  it("converts nullable, nullable composition and boolean exclusive bounds", async () => {
    const { defs } = await resolve(join(SPECS, "petstore-30.yaml"));
    const pet = defs.Pet as { properties: Record<string, JsonSchema> };
    expect(pet.properties.tag).toEqual({ type: ["string", "null"] });
    expect(pet.properties.weight).toEqual({ type: "number", exclusiveMinimum: 0, maximum: 500 });
    expect(pet.properties.owner).toEqual({
      anyOf: [{ allOf: [{ $ref: "#/$defs/Owner" }] }, { type: "null" }],
    });
    expect(pet.properties.status).toEqual({
      anyOf: [
        { oneOf: [{ type: "string", enum: ["available", "sold"] }, { type: "integer" }] },
        { type: "null" },
      ],
    });
    expect(JSON.stringify(defs)).not.toContain("nullable");
  });

  it("validates like the OAS 3.0 document means", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const schema = effectiveSchema(endpointOf(result, "getPet").outputSchema, new DefinitionSet(result.defs));
    const validators = new ValidatorSet();
    const table: [Record<string, unknown>, boolean][] = [
      [{ id: 1, name: "rex" }, true],
      [{ id: 1, name: "rex", tag: null, owner: null, status: null }, true],
      [{ id: 1, name: "rex", owner: { name: "a", city: "b" }, status: "sold" }, true],
      [{ id: 1, name: "rex", weight: 0.5 }, true],
      [{ id: 1, name: "rex", weight: 0 }, false],
      [{ id: 1, name: "rex", weight: 500 }, true],
      [{ id: 1, name: "rex", owner: { name: 7 } }, false],
      [{ id: 1, name: "rex", status: "lost" }, false],
      [{ id: 1 }, false],
    ];
    for (const [value, valid] of table)
      expect([value, validators.validate(schema, value).length === 0]).toEqual([value, valid]);
  });

  it("converts properties whose names are schema keywords (enum, default, example, const)", async () => {
    const nullableRef = { nullable: true, allOf: [{ $ref: "#/components/schemas/Owner" }] };
    const bounded = { type: "number", minimum: 0, exclusiveMinimum: true };
    const doc = {
      openapi: "3.0.3",
      info: { title: "k", version: "1" },
      paths: {
        "/k": {
          get: {
            operationId: "k",
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: {
                        enum: nullableRef,
                        example: nullableRef,
                        default: bounded,
                        const: bounded,
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { Owner: { type: "object", properties: { name: { type: "string" } } } } },
    };
    const output = endpointOf(await resolve(writeDoc(doc)), "k").outputSchema as {
      properties: Record<string, unknown>;
    };
    const wrapped = { anyOf: [{ allOf: [{ $ref: "#/$defs/Owner" }] }, { type: "null" }] };
    expect(output.properties).toEqual({
      enum: wrapped,
      example: wrapped,
      default: { type: "number", exclusiveMinimum: 0 },
      const: { type: "number", exclusiveMinimum: 0 },
    });
  });

  it("leaves OAS 3.1 schemas as written", async () => {
    const { defs } = await resolve(join(SPECS, "petstore-31.json"));
    const source = readDoc("petstore-31.json") as {
      components: { schemas: { Pet: { properties: Record<string, unknown> } } };
    };
    const pet = defs.Pet as { properties: Record<string, JsonSchema> };
    expect(pet.properties.tag).toEqual(source.components.schemas.Pet.properties.tag);
    expect(pet.properties.weight).toEqual(source.components.schemas.Pet.properties.weight);
    expect(pet.properties.owner).toEqual({ anyOf: [{ $ref: "#/$defs/Owner" }, { type: "null" }] });
  });
});

describe("shared definitions", () => {
  it("stores each referenced schema once in $defs, shared by every endpoint, and drops unused ones", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    // NewPet is flattened into body parameters, so only what endpoint schemas still reference is stored.
    expect(Object.keys(result.defs)).toEqual(["Owner", "Pet"]);
    const users = toolOf(result).endpoints.filter((endpoint) =>
      JSON.stringify(endpoint).includes('"#/$defs/Pet"'),
    );
    expect(users.map((endpoint) => endpoint.name)).toEqual(["listPets", "createPet", "getPet", "replacePet"]);
    // The Pet body is never inlined into an endpoint.
    for (const endpoint of toolOf(result).endpoints)
      expect(JSON.stringify(endpoint)).not.toContain('"required":["id","name"]');
  });
});

describe("side effects from the HTTP method", () => {
  const table: [string, string][] = [
    ["listPets", "read"],
    ["getPet", "read"],
    ["headPet", "read"],
    ["optionsPet", "read"],
    ["createPet", "write"],
    ["replacePet", "write"],
    ["patchPet", "write"],
    ["deletePet", "destructive"],
  ];
  it.each(table)("%s is %s", async (name, effect) => {
    expect(endpointOf(await resolve(join(SPECS, "petstore-30.yaml")), name).effect).toBe(effect);
  });
});

describe("compatibility report", () => {
  const report: [string, string, "partial" | "unsupported"][] = [
    ["/components/schemas/HasExternal/properties/remote", "external-ref", "unsupported"],
    ["/paths/~1ext/get/responses/200/content/application~1json/schema", "external-ref", "unsupported"],
    ["/paths/~1ext-param/get/parameters/0", "external-ref", "unsupported"],
    ["/paths/~1ext-item", "external-ref", "unsupported"],
    ["/paths/~1composed/get/responses/200/content/application~1json/schema/oneOf", "composition", "partial"],
    [
      "/paths/~1merge/post/requestBody/content/application~1merge-patch+json/schema/allOf",
      "composition",
      "partial",
    ],
    [
      "/paths/~1composed/get/responses/200/content/application~1json/schema/discriminator",
      "discriminator",
      "partial",
    ],
    ["/paths/~1cookie-optional/get/parameters/0", "cookie-param", "unsupported"],
    ["/paths/~1cookie-required/get/parameters/0", "cookie-param", "unsupported"],
    ["/paths/~1upload/post/requestBody/content", "non-json-body", "unsupported"],
    ["/paths/~1upload-optional/post/requestBody/content", "non-json-body", "unsupported"],
    ["/paths/~1download/get/responses/200/content", "non-json-response", "unsupported"],
    ["/paths/~1subscribe/post/callbacks", "callback", "unsupported"],
    ["/webhooks/newPet", "webhook", "unsupported"],
    ["/servers/0/variables", "server-variables", "partial"],
    ["/components/schemas/Node", "recursive-ref", "partial"],
    ["/paths/~1undeclared~1{id}/get", "undeclared-path-parameter", "unsupported"],
    ["/paths/~1odd-location/get/parameters/0/in", "parameter-location", "unsupported"],
  ];

  it("reports every partial or unsupported construct exactly once, with a pointer that resolves in the document", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    const got = result.compatibility.map((issue) => [issue.pointer, issue.construct, issue.level]);
    expect([...got].sort()).toEqual([...report].sort());
    const doc = readDoc("unsupported-31.yaml");
    for (const issue of result.compatibility) {
      expect([issue.pointer, atPointer(doc, issue.pointer) !== undefined]).toEqual([issue.pointer, true]);
      expect(issue.message.length).toBeGreaterThan(10);
    }
  });

  it("leaves out operations that depend on an unsupported construct, and keeps the others", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    expect(names(result)).toEqual([
      "oddLocation",
      "composed",
      "cookieOptional",
      "uploadOptional",
      "subscribe",
      "tree",
      "bulk",
      "merge",
    ]);
    expect(endpointOf(result, "cookieOptional").parameters.map((p) => p.name)).toEqual(["q"]);
    expect(endpointOf(result, "uploadOptional").parameters).toEqual([]);
    expect(endpointOf(result, "oddLocation").parameters).toEqual([]);
    // Nothing unresolved is guessed: every $ref points into the artifact's own $defs, which hold it.
    const text = JSON.stringify(result.tools);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]*)"/g)) {
      expect(ref).toMatch(/^#\/\$defs\//);
      expect(result.defs).toHaveProperty([decodePointerToken(ref!.slice("#/$defs/".length))]);
    }
    expect(Object.keys(result.defs).sort()).toEqual(["Cat", "Dog", "Node"]);
  });

  it("keeps a recursive schema whole and derives fields only to the recursion", async () => {
    const result = await resolve(join(SPECS, "unsupported-31.yaml"));
    expect(result.defs.Node).toEqual({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    });
    expect(endpointOf(result, "tree").fields.map((f) => f.id)).toEqual(["name", "children"]);
  });
});

function fingerprints(result: SourceResult): Map<string, string> {
  return new Map(fingerprintTool(toolOf(result), new DefinitionSet(result.defs)).endpoints);
}

describe("fingerprint locality", () => {
  // [schema to edit, property added to it, endpoints whose fingerprint must change]
  const changes: [string, string, string[]][] = [
    ["Owner", "zip", ["listPets", "createPet", "getPet", "replacePet"]],
    ["NewPet", "age", ["createPet", "replacePet"]],
    ["Unused", "more", []],
  ];
  it.each(changes)(
    "a change to %s changes exactly the fingerprints of the endpoints that use it",
    async (schema, property, expected) => {
      const before = await resolve(join(SPECS, "petstore-30.yaml"));
      const doc = readDoc("petstore-30.yaml") as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      doc.components.schemas[schema]!.properties[property] = { type: "string" };
      const after = await resolve(writeDoc(doc, "openapi.yaml"));
      const a = fingerprints(before);
      const b = fingerprints(after);
      expect([...b.keys()]).toEqual([...a.keys()]);
      expect([...a.keys()].filter((name) => a.get(name) !== b.get(name))).toEqual(expected);
    },
  );
});

describe("compile: determinism and descriptive servers", () => {
  function writeProject(name: string, file: string): TempProject {
    const created = project(name);
    writeFileSync(join(created.dir, file), readFileSync(join(SPECS, file)));
    created.write({ runtimeImport: "schemarouter", sources: { pets: { kind: "openapi", location: file } } });
    return created;
  }

  it.each(["petstore-30.yaml", "petstore-31.json", "unsupported-31.yaml"])(
    "compiling %s twice gives byte-identical artifact, lockfile and bindings",
    async (file) => {
      const first = await compile({
        config: writeProject("oas-det", file).configPath,
        mode: "write",
        env: {},
      });
      const second = await compile({
        config: writeProject("oas-det", file).configPath,
        mode: "write",
        env: {},
      });
      const relative = (result: typeof first) =>
        result.files.map((f) => [f.path.slice(result.config.dir.length), f.contents]);
      expect(relative(second)).toEqual(relative(first));
      expect(first.files.length).toBeGreaterThanOrEqual(4);
      const again = await compile({ config: first.config.path, mode: "write", env: {} });
      expect(again.write.written).toEqual([]);
      expect(again.write.stale).toEqual([]);
    },
  );

  it("never binds a tool to its document's cross-origin servers: a call needs a base URL from local config", async () => {
    const compiled = await compile({
      config: writeProject("oas-servers", "petstore-31.json").configPath,
      mode: "write",
      env: {},
    });
    const artifact = compiled.sources[0]!.artifact;
    expect(artifact.tools[0]?.metadata?.servers).toEqual(["https://api.pets.example/v2"]);

    const unbound = await SchemaRouter.load({ lockfile: compiled.config.lockfile });
    const registered = unbound.registry.get("pets")!;
    const call = {
      tool: "pets",
      endpoint: "getPet",
      arguments: { petId: "7" },
      fields: ["name"],
      endpointFingerprint: registered.endpointFingerprints.get("getPet")!,
      toolFingerprint: registered.fingerprint,
    };
    const error = await unbound.call(call).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaRouterError);
    expect((error as SchemaRouterError).code).toBe("BINDING_NOT_READY");
    await unbound.close();

    const server = await startServer((_request, response) => sendJson(response, 200, { id: 7, name: "rex" }));
    try {
      const bound = await SchemaRouter.load({
        lockfile: compiled.config.lockfile,
        bindings: { pets: { baseUrl: `${server.url}/local` } },
      });
      expect((await bound.call(call)).data).toEqual({ name: "rex" });
      expect(server.requests.map((r) => r.url)).toEqual(["/local/pets/7"]);
      await bound.close();
    } finally {
      await server.close();
    }
  });
});
