/**
 * Type-level tests of fields returned under a `resultPath` (docs/runtime/field-projection.md), over
 * the bindings test/e2e/result-paths.test.ts compiles and keeps under ./result-paths/generated: the
 * type names the key the runtime returns (that test asserts the values at the same keys), never the
 * key the value was read from.
 */
import type { SchemaRouter } from "schemarouter";
import { describe, expectTypeOf, it } from "vitest";
import { createClient } from "./result-paths/generated/index.js";

declare const router: SchemaRouter;
const client = createClient(router);

describe("bindings of fields with a resultPath", () => {
  it("a unit-normalized field is typed at its resultPath", async () => {
    const pet = await client.petstore.getPetById({ petId: "rex" }, { fields: ["name", "weight"] });
    expectTypeOf(pet.data).toEqualTypeOf<{ name: string; weightGrams?: number }>();
    // @ts-expect-error the value is read from weightKg but returned as weightGrams
    void pet.data.weightKg;
  });

  it("a nested source path can be returned flat, and a flat one nested beside a kept path", async () => {
    const pet = await client.petstore.getPetById(
      { petId: "rex" },
      { fields: ["owner_name", "owner_city", "owner_email"] },
    );
    expectTypeOf(pet.data).toEqualTypeOf<{
      ownerName?: string;
      owner?: { address?: { city?: string }; contact?: string };
    }>();
    // @ts-expect-error owner.name is returned as ownerName
    void pet.data.owner?.name;
    // @ts-expect-error owner.email is returned as owner.contact
    void pet.data.owner?.email;
  });

  it("every declared field, when none are selected", async () => {
    const pet = await client.petstore.getPetById({ petId: "rex" });
    expectTypeOf(pet.data).toEqualTypeOf<{
      id: string;
      name: string;
      weightGrams?: number;
      ownerName?: string;
      owner?: { address?: { city?: string }; contact?: string };
    }>();
  });

  it("`*` paths keep records, also when items move to another array", async () => {
    const visits = await client.petstore.listVisits({ petId: "rex" });
    expectTypeOf(visits.data).toEqualTypeOf<{
      petId: string;
      visits: { day: string; notes?: string | null }[];
      vets: { name: string }[];
    }>();
    const day = await client.petstore.listVisits({ petId: "rex" }, { fields: ["visits[].day"] });
    expectTypeOf(day.data).toEqualTypeOf<{ visits: { day: string }[] }>();
    // @ts-expect-error date is returned as day
    void day.data.visits[0]?.date;
  });

  it("a root array moves item keys, with units", async () => {
    const pets = await client.petstore.listPets({});
    expectTypeOf(pets.data).toEqualTypeOf<{ name: string; grams?: number }[]>();
    const only = await client.petstore.listPets({}, { fields: ["[].grams"] });
    expectTypeOf(only.data).toEqualTypeOf<{ grams?: number }[]>();
    // @ts-expect-error weightKg is returned as grams
    void only.data[0]?.weightKg;
  });
});
