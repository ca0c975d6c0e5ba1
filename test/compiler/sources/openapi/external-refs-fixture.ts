/**
 * A multi-file OpenAPI project on disk for the external `$ref` tests: a root document, path items and
 * component schemas in subfolders, references between the external files (`..` included), a cycle
 * between two files and a self-reference inside one, and a name clash with a root component.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stringify } from "yaml";

const json = (schema: unknown) => ({ "application/json": { schema } });

export const MULTI_FILE_PROJECT: Readonly<Record<string, unknown>> = {
  "api/openapi.yaml": {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": { $ref: "paths/pets.yaml" },
      "/pets/{petId}": {
        get: {
          operationId: "getPet",
          parameters: [{ $ref: "components/parameters.yaml#/PetId" }],
          responses: {
            "200": { description: "ok", content: json({ $ref: "components/schemas/Pet.yaml" }) },
            "404": { $ref: "#/components/responses/Problem" },
          },
        },
      },
    },
    components: {
      schemas: { Error: { type: "object", properties: { message: { type: "string" } } } },
      responses: {
        Problem: { description: "problem", content: json({ $ref: "#/components/schemas/Error" }) },
      },
    },
  },
  "api/paths/pets.yaml": {
    get: {
      operationId: "listPets",
      responses: {
        "200": {
          description: "ok",
          content: json({ type: "array", items: { $ref: "../components/schemas/Pet.yaml" } }),
        },
      },
    },
    post: {
      operationId: "createPet",
      requestBody: { required: true, content: json({ $ref: "../components/schemas/NewPet.yaml" }) },
      responses: {
        "201": {
          description: "created",
          content: json({
            type: "object",
            properties: {
              pet: { $ref: "../components/schemas/Pet.yaml" },
              error: { $ref: "../common.yaml#/components/schemas/Error" },
              // Back into the root document: a local reference again.
              rootError: { $ref: "../openapi.yaml#/components/schemas/Error" },
            },
          }),
        },
      },
    },
  },
  "api/components/parameters.yaml": {
    PetId: { name: "petId", in: "path", required: true, schema: { type: "string", minLength: 1 } },
  },
  "api/components/schemas/Pet.yaml": {
    type: "object",
    required: ["id", "name"],
    properties: {
      id: { type: "string" },
      name: { type: "string" },
      owner: { $ref: "./Owner.yaml" },
      category: { $ref: "../../common.yaml#/components/schemas/Category" },
    },
  },
  "api/components/schemas/Owner.yaml": {
    type: "object",
    properties: { name: { type: "string" }, pets: { type: "array", items: { $ref: "Pet.yaml" } } },
  },
  "api/components/schemas/NewPet.yaml": {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, tag: { type: "string" } },
  },
  "api/common.yaml": {
    components: {
      schemas: {
        Category: {
          type: "object",
          properties: { name: { type: "string" }, parent: { $ref: "#/components/schemas/Category" } },
        },
        Error: { type: "object", properties: { code: { type: "integer" } } },
      },
    },
  },
};

/** Writes `files` (objects as YAML, strings as they are) below `dir`. */
export function writeTree(dir: string, files: Readonly<Record<string, unknown>>): void {
  for (const [path, contents] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof contents === "string" ? contents : stringify(contents));
  }
}

/** A minimal OpenAPI 3.1 document whose operations answer with the given schemas (one per path). */
export function documentWith(schemas: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas))
    paths[`/${name}`] = {
      get: { operationId: name, responses: { "200": { description: "ok", content: json(schema) } } },
    };
  return { openapi: "3.1.0", info: { title: "Refs", version: "1" }, paths };
}
