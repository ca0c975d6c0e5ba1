/**
 * End to end against the real `@open-rpc/server-js` on 127.0.0.1 serving the `@open-rpc/examples`
 * Petstore document with real handlers: compile (the CLI's compile step) → lock → bindings → plan
 * through the facade → invoke through the boundary → projected result, through the generated typed
 * client too. JSON-RPC has no method semantics: every method is unclassified until local `effects`
 * classify it, so the default policy refuses calls until then (docs/sources/openrpc.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import {
  type OpenRpcPetstore,
  PET_NOT_FOUND,
  PETSTORE_DOCUMENT_PATH,
  startOpenRpcPetstore,
} from "../fixtures/openrpc/petstore-server.js";
import { tempProject, writeInto } from "../helpers/project.js";

let server: OpenRpcPetstore;

async function project(effects?: Record<string, "read" | "write" | "destructive">) {
  const created = tempProject("openrpc-e2e");
  writeInto(created, "petstore-openrpc.json", readFileSync(PETSTORE_DOCUMENT_PATH, "utf8"));
  created.write({
    sources: {
      petstore: {
        kind: "openrpc",
        location: "petstore-openrpc.json",
        url: server.url,
        ...(effects !== undefined ? { effects } : {}),
      },
    },
  });
  await compile({ config: created.configPath });
  return created;
}

/** The generated typed client of a compiled project, over a router. */
async function clientOf(outDir: string, router: SchemaRouter) {
  const { createClient } = await import(join(outDir, "index.ts"));
  return createClient(router);
}

async function load(dir: string, policy?: ExecutionPolicy) {
  return SchemaRouter.load({
    root: dir,
    bindings: { petstore: { openrpc: {} } },
    ...(policy !== undefined ? { policy } : {}),
  });
}

beforeAll(async () => {
  server = await startOpenRpcPetstore();
});
afterAll(() => server.close());

describe("an OpenRPC source against @open-rpc/server-js", () => {
  it("refuses every call under the default policy while methods are unclassified; nothing is sent", async () => {
    const { dir } = await project();
    const router = await load(dir);
    const before = server.requests.length;
    const plan = router.plan({ query: "list pets", fields: ["[].name"] });
    expect(plan.calls.map((call) => [call.route, call.effect])).toEqual([
      ["petstore.list_pets", "unclassified"],
    ]);
    await expect(router.invoke(plan)).rejects.toMatchObject({ code: "POLICY_DENIED" });
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("plans and invokes a read after local effects classify it, projecting the planned fields", async () => {
    const { dir } = await project({ list_pets: "read", get_pet: "read", create_pet: "write" });
    const router = await load(dir);
    const plan = router.plan({ query: "list pets", fields: ["[].name"], arguments: { limit: 2 } });
    expect(plan.calls.map((call) => call.route)).toEqual(["petstore.list_pets"]);
    const [result] = await router.invoke(plan);
    expect(result!.data).toEqual({ result: [{ name: "Rex" }, { name: "Tom" }] });
    // by position ("either" is sent by position), with a fresh id, one request (never a batch)
    expect(server.requests.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      method: "list_pets",
      params: [2],
    });
    await router.close();
  });

  it("keeps writes behind the mutation gate and runs them once allowed", async () => {
    const { dir, outDir } = await project({ list_pets: "read", get_pet: "read", create_pet: "write" });
    const strict = await load(dir);
    const call = async (router: SchemaRouter) =>
      (await clientOf(outDir, router)).petstore.createPet({ newPetName: "Milo" });
    await expect(call(strict)).rejects.toMatchObject({ code: "POLICY_DENIED" });
    await strict.close();
    const permissive = await load(dir, new ExecutionPolicy({ allowMutations: true }));
    const created = await call(permissive);
    expect(created.data).toEqual({ result: server.pets.length });
    expect(server.pets.at(-1)).toEqual({ id: server.pets.length, name: "Milo" });
    await permissive.close();
  });

  it("turns the server's error object into JSONRPC_ERROR with its code, and refuses bad arguments before sending", async () => {
    const { dir, outDir } = await project({ list_pets: "read", get_pet: "read" });
    const router = await load(dir);
    const client = await clientOf(outDir, router);
    await expect(client.petstore.getPet({ petId: 99 })).rejects.toMatchObject({
      code: "JSONRPC_ERROR",
      details: {
        route: "petstore.get_pet",
        rpcCode: PET_NOT_FOUND,
        rpcMessage: "no pet with id 99",
        data: { petId: 99 },
      },
      message: "petstore.get_pet: the server answered JSON-RPC error 4004: no pet with id 99",
    });
    const before = server.requests.length;
    // PetId is an integer ≥ 0 in the document: the boundary refuses it before any request.
    await expect(client.petstore.getPet({ petId: -1 })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
    });
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("plans and invokes through the generated typed client", async () => {
    const created = await project({ list_pets: "read", get_pet: "read" });
    const router = await load(created.dir);
    const client = await clientOf(created.outDir, router);
    const pet = await client.petstore.getPet({ petId: 2 }, { fields: ["name", "tag"] });
    expect(pet.data).toEqual({ result: { name: "Tom", tag: "cat" } });
    expect(pet.fields).toEqual(["name", "tag"]);
    await router.close();
  });

  it("refuses a binding to another endpoint than the locked one", async () => {
    const { dir } = await project({ list_pets: "read" });
    await expect(
      SchemaRouter.load({ root: dir, bindings: { petstore: { openrpc: { url: "http://127.0.0.1:9/" } } } }),
    ).rejects.toMatchObject({ code: "LOCK_MISMATCH", details: { reason: "binding-identity" } });
  });
});
