/**
 * Type-level tests over the generated Petstore bindings (examples/generated): typed arguments, field ID
 * unions, and results narrowed to exactly the selected fields. Checked by `vitest --typecheck` (tsc).
 */
import type { SchemaRouter } from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";
import { createClient } from "../../examples/generated/index.js";
import type { GetPetByIdField } from "../../examples/generated/petstore.js";

declare const router: SchemaRouter;
const client = createClient(router);

describe("generated bindings", () => {
  it("types arguments from the input schema", () => {
    expectTypeOf(client.petstore.getPetById).parameter(0).toEqualTypeOf<{ petId: string }>();
    // @ts-expect-error petId must be a string
    void client.petstore.getPetById({ petId: 7 });
    // @ts-expect-error petId is required
    void client.petstore.getPetById({});
    // @ts-expect-error undeclared argument
    void client.petstore.getPetById({ petId: "rex", extra: true });
    // @ts-expect-error the Authorization header is not a tool parameter
    void client.petstore.listPets({ Authorization: "Bearer x" });
  });

  it("has a union of the declared field IDs", () => {
    expectTypeOf<GetPetByIdField>().toEqualTypeOf<
      "id" | "name" | "tag" | "status" | "weight" | "owner" | "owner_name" | "owner_city"
    >();
    // @ts-expect-error unknown field ID
    void client.petstore.getPetById({ petId: "rex" }, { fields: ["name", "colour"] });
  });

  it("narrows the result to exactly the selected fields, keeping nested shape", async () => {
    const pet = await client.petstore.getPetById(
      { petId: "rex" },
      { fields: ["name", "weight", "owner_city"] },
    );
    expectTypeOf(pet.data.name).toEqualTypeOf<string>();
    // The weight is normalized to grams and returned under its resultPath, weightGrams.
    expectTypeOf(pet.data.weightGrams).toEqualTypeOf<number | undefined>();
    // @ts-expect-error the source key is not where the runtime returns the value
    void pet.data.weightKg;
    expectTypeOf(pet.data.owner).toEqualTypeOf<{ address?: { city?: string } } | undefined>();
    // @ts-expect-error status was not selected
    void pet.data.status;
    // @ts-expect-error owner.name was not selected
    void pet.data.owner?.name;
  });

  it("keeps records for `*` array paths", async () => {
    const visits = await client.petstore.listVisits(
      { petId: "rex" },
      { fields: ["visits[].date", "visits[].notes"] },
    );
    expectTypeOf(visits.data.visits).toEqualTypeOf<{ date: string; notes?: string | null }[]>();
    // @ts-expect-error vet was not selected
    void visits.data.visits[0]?.vet;
    const list = await client.petstore.listPets({}, { fields: ["[].name"] });
    expectTypeOf(list.data).toEqualTypeOf<{ name: string }[]>();
  });

  it("returns every declared field when no fields are given", async () => {
    const pet = await client.petstore.getPetById({ petId: "rex" });
    expectTypeOf(pet.data.status).toEqualTypeOf<"available" | "pending" | "sold">();
    expectTypeOf(pet.data.owner).toMatchTypeOf<{ name: string } | undefined>();
  });
});
