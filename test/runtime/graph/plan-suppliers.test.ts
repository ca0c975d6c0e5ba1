import { describe, expect, it } from "vitest";
import { describeSuppliers } from "../../../runtime/graph/suppliers.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { endpoint, field, param, registryOf, tool } from "../../fixtures/catalogs.js";

const petId = "petstore:pet-id";
const catalog = () =>
  registryOf([
    tool("petstore", [
      endpoint("listPets", {
        description: "List pets",
        fields: [
          field("[].id", { path: ["*", "id"], semanticId: petId, identifier: true }),
          field("[].name"),
        ],
      }),
      endpoint("getPetById", {
        description: "Find a pet's vaccination record by its ID",
        parameters: [param("petId", true, { semanticId: petId })],
        fields: [field("vaccinations", { semanticId: "vet:vaccinations" })],
      }),
      endpoint("createPet", {
        description: "Create a pet",
        effect: "write",
        parameters: [param("name", true)],
        fields: [field("id", { semanticId: petId, identifier: true })],
      }),
    ]),
    tool("shelter", [
      endpoint("adoptions", {
        description: "Recent adoptions",
        fields: [field("[].pet", { path: ["*", "pet"], semanticId: petId })],
      }),
    ]),
  ]);

describe("plan(): a missing argument lists the locked capabilities that can supply it", () => {
  it("names reads before writes, identifiers first, and never runs them", async () => {
    const router = SchemaRouter.fromRegistry(catalog());
    const planned = router.plan({ query: "vaccinations of a pet" });
    expect(planned.calls.map((call) => call.route)).toEqual(["petstore.getPetById"]);
    expect(planned.missingArguments).toEqual([
      {
        call: 0,
        route: "petstore.getPetById",
        name: "petId",
        location: "argument",
        suppliers: [
          { route: "petstore.listPets", field: "[].id", semanticId: petId, effect: "read", identifier: true },
          {
            route: "shelter.adoptions",
            field: "[].pet",
            semanticId: petId,
            effect: "read",
            identifier: false,
          },
          { route: "petstore.createPet", field: "id", semanticId: petId, effect: "write", identifier: true },
        ],
      },
    ]);
    expect(describeSuppliers("petId", planned.missingArguments[0]!.suppliers!)).toBe(
      "petId: from petstore.listPets field [].id, or shelter.adoptions field [].pet, or petstore.createPet field id (write)",
    );
    await router.close();
  });

  it("follows the registry: replacing a tool updates the suppliers", async () => {
    const router = SchemaRouter.fromRegistry(catalog());
    router.plan({ query: "vaccinations of a pet" });
    router.replaceTool({
      tool: tool("shelter", [
        endpoint("adoptions", {
          description: "Recent adoptions",
          fields: [field("[].pet", { path: ["*", "pet"] })],
        }),
      ]),
      source: "shelter",
      sourceKind: "local",
      defs: {},
    });
    const planned = router.plan({ query: "vaccinations of a pet" });
    expect(planned.missingArguments[0]!.suppliers!.map((s) => s.route)).toEqual([
      "petstore.listPets",
      "petstore.createPet",
    ]);
    await router.close();
  });

  it("a plan with every argument supplied carries no supplier lists", async () => {
    const router = SchemaRouter.fromRegistry(catalog());
    const planned = router.plan({ query: "vaccinations of a pet", arguments: { petId: "p1" } });
    expect(planned.missingArguments).toEqual([]);
    await router.close();
  });
});
