/**
 * End to end over a real node:http server on 127.0.0.1: compile → lock → bindings → runtime call,
 * through the generated typed client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { copyInto, REPO_ROOT, tempProject } from "../helpers/project.js";

const rootConfig = JSON.parse(readFileSync(join(REPO_ROOT, "schemarouter.config.json"), "utf8"));
const project = tempProject("e2e");
let server: Awaited<ReturnType<typeof startPetstoreServer>>;

beforeAll(async () => {
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { ...rootConfig.sources.petstore, location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  server = await startPetstoreServer({ token: "secret" });
});
afterAll(() => server.close());

async function load(policy?: ExecutionPolicy) {
  return SchemaRouter.load({
    root: project.dir,
    bindings: { petstore: { baseUrl: server.url, headers: { authorization: "Bearer secret" } } },
    ...(policy ? { policy } : {}),
  });
}

describe("compile → lock → bindings → call", () => {
  it("returns exactly the selected fields, with nested paths, arrays of records and unit normalization", async () => {
    const router = await load();
    const { createClient } = await import(join(project.outDir, "index.ts"));
    const client = createClient(router);
    const pet = await client.petstore.getPetById(
      { petId: "rex" },
      { fields: ["name", "weight", "owner_city"] },
    );
    expect(pet.data).toEqual({ name: "Rex", weightGrams: 31_500, owner: { address: { city: "Seoul" } } });
    expect(pet.fields).toEqual(["name", "weight", "owner_city"]);

    const visits = await client.petstore.listVisits(
      { petId: "rex" },
      { fields: ["visits[].vet", "visits[].notes"] },
    );
    expect(visits.data).toEqual({
      visits: [
        { vet: "Dr. Kim", notes: "vaccination" },
        { vet: "Dr. Lee", notes: null },
      ],
    });

    const list = await client.petstore.listPets({ tag: "cat" }, { fields: ["[].name"] });
    expect(list.data).toEqual([{ name: "Tom" }]);
    await router.close();
  });

  it("sends the trusted credential and the declared arguments only", async () => {
    const router = await load();
    const { createClient } = await import(join(project.outDir, "index.ts"));
    await createClient(router).petstore.listPets({ limit: 2, "X-Request-Id": "abc" });
    const last = server.requests.at(-1)!;
    expect(last.url).toBe("/v1/pets?limit=2");
    expect(last.headers.authorization).toBe("Bearer secret");
    expect(last.headers["x-request-id"]).toBe("abc");
    await router.close();
  });

  it("blocks writes and deletes under the default policy and allows them only with local opt-in", async () => {
    const router = await load();
    const { createClient } = await import(join(project.outDir, "index.ts"));
    const before = server.requests.length;
    await expect(createClient(router).petstore.createPet({ name: "Milo" })).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await expect(createClient(router).petstore.deletePet({ petId: "rex" })).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    expect(server.requests.length).toBe(before);
    await router.close();

    const permissive = await load(new ExecutionPolicy({ allowMutations: true }));
    const created = await createClient(permissive).petstore.createPet(
      { name: "Milo", weightKg: 3 },
      { fields: ["id", "name"] },
    );
    expect(created.data).toEqual({ id: "milo", name: "Milo" });
    await expect(createClient(permissive).petstore.deletePet({ petId: "milo" })).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    await permissive.close();
  });
});
