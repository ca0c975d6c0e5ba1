/**
 * readOnly / writeOnly (OpenAPI 3.0 and 3.1): a readOnly property is not part of a request (and not
 * required there), a writeOnly property is not part of a response; input schemas, output schemas,
 * fields and generated types follow, through shared definitions, and the definition itself is kept.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/index.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

function documentFor(openapi: "3.0.3" | "3.1.0") {
  const json = (ref: string) => ({ content: { "application/json": { schema: { $ref: ref } } } });
  return {
    openapi,
    info: { title: "users", version: "1" },
    paths: {
      "/users": {
        post: {
          operationId: "createUser",
          requestBody: { required: true, ...json("#/components/schemas/User") },
          responses: { "201": json("#/components/schemas/User") },
        },
      },
      "/teams": {
        post: {
          operationId: "createTeam",
          requestBody: { required: true, ...json("#/components/schemas/Team") },
          responses: { "200": json("#/components/schemas/Team") },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          required: ["id", "name", "password"],
          properties: {
            id: { type: "string", readOnly: true },
            name: { type: "string" },
            password: { type: "string", writeOnly: true },
          },
        },
        Team: {
          type: "object",
          required: ["members"],
          properties: { members: { type: "array", items: { $ref: "#/components/schemas/User" } } },
        },
      },
    },
  };
}

async function compiled(openapi: "3.0.3" | "3.1.0") {
  const project = tempProject("read-write-only");
  writeInto(project, "api.json", JSON.stringify(documentFor(openapi)));
  project.write({ sources: { api: { kind: "openapi", location: "api.json" } } });
  await compile({ config: project.configPath });
  const artifact = JSON.parse(readFileSync(join(project.outDir, "artifacts", "api.json"), "utf8"));
  // biome-ignore lint/suspicious/noExplicitAny: the artifact JSON read back as plain test data
  const endpoints = artifact.tools[0].endpoints as Array<Record<string, any>>;
  const types = readFileSync(join(project.outDir, "api.schemas.d.ts"), "utf8");
  return { artifact, endpoint: (name: string) => endpoints.find((e) => e.name === name)!, types };
}

describe.each(["3.0.3", "3.1.0"] as const)("readOnly / writeOnly in OpenAPI %s", (openapi) => {
  it("a create call cannot be told to supply the server's id, and is not asked for it", async () => {
    const { endpoint, artifact } = await compiled(openapi);
    const create = endpoint("createUser");
    expect(create.parameters.map((p: { name: string }) => p.name)).toEqual(["name", "password"]);
    expect(create.inputSchema.required).toEqual(["name", "password"]);
    const validate = new Ajv2020({ strict: false }).compile({ ...create.inputSchema, $defs: artifact.$defs });
    expect(validate({ name: "a", password: "p" })).toBe(true);
    expect(validate({ id: "u1", name: "a", password: "p" })).toBe(false);
  });

  it("a response carries the readOnly id and never the writeOnly password", async () => {
    const { endpoint } = await compiled(openapi);
    const create = endpoint("createUser");
    expect(create.fields.map((f: { id: string }) => f.id).sort()).toEqual(["id", "name"]);
  });

  it("nested shared definitions get request/response variants; the definition itself is unchanged", async () => {
    const { endpoint, artifact, types } = await compiled(openapi);
    const team = endpoint("createTeam");
    const members = team.parameters.find((p: { name: string }) => p.name === "members");
    expect(members.schema.items.$ref).toBe("#/$defs/User.request");
    expect(artifact.$defs["User.request"].properties).not.toHaveProperty("id");
    expect(artifact.$defs["User.request"].required).toEqual(["name", "password"]);
    expect(artifact.$defs["User.response"].properties).not.toHaveProperty("password");
    expect(artifact.$defs["User.response"].required).toEqual(["id", "name"]);
    expect(types).toMatch(/export interface UserRequest \{\n {2}name: string;\n {2}password: string;\n\}/);
    expect(types).toMatch(/export interface UserResponse \{\n {2}id: string;\n {2}name: string;\n\}/);
  });
});
