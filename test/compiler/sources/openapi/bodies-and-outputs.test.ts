/** OpenAPI request bodies (flattened or whole) and outputs: success statuses, derived fields. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ValidatorSet } from "../../../../runtime/boundary/validation.js";
import { DefinitionSet } from "../../../../runtime/format/fingerprint.js";
import { effectiveSchema } from "../../../../runtime/load/registry.js";
import { endpointOf, resolve, SPECS } from "./helpers.js";

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
