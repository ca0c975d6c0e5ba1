/**
 * Fields returned under another key than the one they are read from (`resultPath`, with units and `*`
 * paths; docs/runtime/field-projection.md): the generated bindings type each field where the runtime
 * returns it. The bindings compiled here are kept under test/types/result-paths/generated (the type
 * tests in test/types/result-paths.test-d.ts read them; accept a reviewed change with `-u`), and
 * the same bindings make real calls against the example Petstore server on 127.0.0.1.
 */
import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { SchemaRouter } from "../../runtime/router/router.js";
import { copyInto, tempProject } from "../helpers/project.js";

const KEPT = join(import.meta.dirname, "..", "types", "result-paths", "generated");
const BINDINGS = ["index.ts", "petstore.ts", "petstore.types.ts", "petstore.schemas.d.ts"];

const grams = { canonicalUnit: "g", scale: 1000 };
const RESULT_PATH_OVERLAYS = {
  endpoints: {
    getPetById: {
      replaceFields: true,
      fields: [
        { id: "id", path: ["id"], identifier: true },
        { id: "name", path: ["name"] },
        { id: "weight", path: ["weightKg"], resultPath: ["weightGrams"], unit: "kg", normalization: grams },
        { id: "owner_name", path: ["owner", "name"], resultPath: ["ownerName"] },
        { id: "owner_city", path: ["owner", "address", "city"] },
        { id: "owner_email", path: ["owner", "email"], resultPath: ["owner", "contact"] },
      ],
    },
    listVisits: {
      replaceFields: true,
      fields: [
        { id: "petId", path: ["petId"] },
        { id: "visits[].day", path: ["visits", "*", "date"], resultPath: ["visits", "*", "day"] },
        { id: "visits[].notes", path: ["visits", "*", "notes"], resultPath: ["visits", "*", "notes"] },
        { id: "vets[].name", path: ["visits", "*", "vet"], resultPath: ["vets", "*", "name"] },
      ],
    },
    listPets: {
      replaceFields: true,
      fields: [
        { id: "[].name", path: ["*", "name"], resultPath: ["*", "name"] },
        {
          id: "[].grams",
          path: ["*", "weightKg"],
          resultPath: ["*", "grams"],
          unit: "kg",
          normalization: grams,
        },
      ],
    },
  },
};

const project = tempProject("result-paths");
let server: Awaited<ReturnType<typeof startPetstoreServer>>;
let router: SchemaRouter;

beforeAll(async () => {
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  // The import generated bindings use in an application (vitest and tsconfig map it to runtime/).
  project.write({
    runtimeImport: "schemarouter",
    sources: { petstore: { kind: "openapi", location: "openapi.yaml", overlays: RESULT_PATH_OVERLAYS } },
  });
  await compile({ config: project.configPath, env: {} });
  server = await startPetstoreServer();
  router = await SchemaRouter.load({ root: project.dir, bindings: { petstore: { baseUrl: server.url } } });
});

afterAll(async () => {
  await server?.close();
  rmSync(project.dir, { recursive: true, force: true });
});

describe("resultPath fields, typed where they are returned", () => {
  it.each(BINDINGS)("generated/%s is the kept copy the type tests read", async (file) => {
    const text = readFileSync(join(project.outDir, file), "utf8");
    await expect(text).toMatchFileSnapshot(join(KEPT, file));
  });

  it("types a moved field with both of its paths", () => {
    const types = readFileSync(join(project.outDir, "petstore.schemas.d.ts"), "utf8");
    expect(types).toContain(
      '"weight": { readonly from: readonly ["weightKg"]; readonly to: readonly ["weightGrams"] };',
    );
    expect(types).toContain('"owner_city": readonly ["owner", "address", "city"];');
    expect(relative(project.dir, project.outDir)).toBe("generated");
  });

  it("returns each value at the key its type names", async () => {
    const { createClient } = await import(join(project.outDir, "index.ts"));
    const client = createClient(router);
    const pet = await client.petstore.getPetById({ petId: "rex" });
    expect(pet.data).toEqual({
      id: "rex",
      name: "Rex",
      weightGrams: 31_500,
      ownerName: "Ada",
      owner: { address: { city: "Seoul" }, contact: "ada@example.com" },
    });
    expect(pet.data.weightKg).toBeUndefined();
    const nemo = await client.petstore.getPetById(
      { petId: "nemo" },
      { fields: ["name", "weight", "owner_name"] },
    );
    expect(nemo.data).toEqual({ name: "Nemo" });

    const visits = await client.petstore.listVisits({ petId: "rex" });
    expect(visits.data).toEqual({
      petId: "rex",
      visits: [
        { day: "2026-01-10", notes: "vaccination" },
        { day: "2026-06-02", notes: null },
      ],
      vets: [{ name: "Dr. Kim" }, { name: "Dr. Lee" }],
    });

    const pets = await client.petstore.listPets({});
    expect(pets.data).toEqual([
      { name: "Rex", grams: 31_500 },
      { name: "Tom", grams: 4_200 },
      { name: "Nemo" },
    ]);
  });
});
