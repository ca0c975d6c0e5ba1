/** OpenAPI schemas: OAS 3.0 converted to JSON Schema 2020-12, 3.1 kept as written, shared `$defs` stored once. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
import { DefinitionSet } from "../../../../runtime/format/fingerprint.js";
import { effectiveSchema } from "../../../../runtime/load/registry.js";
import type { JsonSchema } from "../../../../runtime/model/specs.js";
import { endpointOf, readDoc, resolve, SPECS, tempDocs, toolOf } from "./helpers.js";

const { writeDoc } = tempDocs();

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
