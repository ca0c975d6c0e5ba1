/**
 * Endpoints verified on first use: a load checks the file, the entries and every tool fingerprint;
 * each endpoint's contract is checked against its locked fingerprint when first used. A forger who
 * rewrites an endpoint or a shared definition and fixes both the self-digest and the lockfile's
 * artifact digest gets a load, but never a use of what they changed: call, plan and retrieve fail
 * with LOCK_MISMATCH (endpoint-fingerprint), untouched endpoints keep working, and
 * `verify: "full"` refuses the load itself.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import type { EndpointSpec } from "../../../runtime/model/specs.js";
import { SchemaRouter, type SchemaRouterOptions } from "../../../runtime/router/router.js";
import { editDefinition, editEndpoint, forgeArtifact } from "../../helpers/forge.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

let server: Awaited<ReturnType<typeof startPetstoreServer>>;
beforeAll(async () => {
  server = await startPetstoreServer();
});
afterAll(() => server.close());

async function compiledProject(): Promise<TempProject> {
  const project = tempProject("first-use");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  return project;
}

async function load(project: TempProject, options: SchemaRouterOptions = {}): Promise<SchemaRouter> {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { petstore: { baseUrl: server.url, headers: { authorization: "Bearer secret" } } },
    ...options,
  });
  onTestFinished(() => router.close());
  return router;
}

async function client(project: TempProject, router: SchemaRouter) {
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return createClient(router).petstore;
}

const drifted = (endpoint: string) => ({
  code: "LOCK_MISMATCH",
  details: expect.objectContaining({ reason: "endpoint-fingerprint", tool: "petstore", endpoint }),
});

describe("first-use verification of endpoint contracts", () => {
  it("a forged endpoint loads, fails every use with LOCK_MISMATCH, and leaves the others usable", async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) =>
      editEndpoint(lines, "getPetById", (endpoint) => {
        endpoint.description = "Find a pet by its ID (and mail its owner).";
      }),
    );
    const router = await load(project);
    const petstore = await client(project, router);
    await expect(petstore.getPetById({ petId: "rex" })).rejects.toMatchObject(drifted("getPetById"));
    // The failure is remembered: the next use fails the same way, without a half-built contract.
    await expect(petstore.getPetById({ petId: "rex" })).rejects.toMatchObject(drifted("getPetById"));
    const registered = router.registry.get("petstore")!;
    expect(() => registered.endpoints.get("getPetById")).toThrow(
      expect.objectContaining(drifted("getPetById")),
    );
    const fingerprints = {
      endpointFingerprint: registered.endpointFingerprints.get("getPetById")!,
      toolFingerprint: registered.fingerprint,
    };
    await expect(
      router.call({ tool: "petstore", endpoint: "getPetById", arguments: { petId: "rex" }, ...fingerprints }),
    ).rejects.toMatchObject(drifted("getPetById"));
    // Retrieval and planning rank every endpoint, so they fail closed too.
    expect(() => router.retrieve({ query: "find a pet" })).toThrow(
      expect.objectContaining(drifted("getPetById")),
    );
    expect(() => router.plan({ query: "pet visits" })).toThrow(
      expect.objectContaining(drifted("getPetById")),
    );
    // Untouched endpoints (this one uses no shared definition) still work.
    const visits = await petstore.listVisits({ petId: "rex" });
    expect(visits.data.visits.length).toBeGreaterThan(0);
  });

  it("an effect relabelled in the lock and the endpoint index is refused (first use, and at load when full)", async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) => {
      const at = lines.findIndex((line) => line.includes('["deletePet","destructive"]'));
      lines[at] = lines[at]!.replace('["deletePet","destructive"]', '["deletePet","read"]');
    });
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    lock.sources.petstore.tools.petstore.endpoints.deletePet.effect = "read";
    writeFileSync(project.lockfile, `${JSON.stringify(lock, null, 2)}\n`);
    const lazy = await load(project);
    expect(() => lazy.registry.get("petstore")!.endpoints.get("deletePet")).toThrow(
      expect.objectContaining({
        code: "LOCK_MISMATCH",
        details: expect.objectContaining({ endpoint: "deletePet", expected: "read", actual: "destructive" }),
      }),
    );
    await expect(load(project, { verify: "full" })).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
  });

  it('`verify: "full"` refuses the same forged artifact at load', async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) =>
      editEndpoint(lines, "listVisits", (endpoint) => {
        (endpoint.execution as { path: string }).path = "/admin/visits";
      }),
    );
    await expect(load(project, { verify: "full" })).rejects.toMatchObject(drifted("listVisits"));
    const lazy = await load(project);
    await expect((await client(project, lazy)).listVisits({ petId: "rex" })).rejects.toMatchObject(
      drifted("listVisits"),
    );
  });

  it("a forged shared definition fails exactly the endpoints whose closure uses it", async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) =>
      editDefinition(lines, "Owner", (def) => {
        (def.properties as Record<string, unknown>).ssn = { type: "string" };
      }),
    );
    const router = await load(project);
    const registered = router.registry.get("petstore")!;
    const uses = ["listPets", "createPet", "getPetById"];
    for (const name of uses)
      expect(() => registered.endpoints.get(name)).toThrow(expect.objectContaining(drifted(name)));
    for (const name of ["deletePet", "listVisits"]) expect(registered.endpoints.get(name)?.name).toBe(name);
    await expect(load(project, { verify: "full" })).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
  });

  it("descriptive metadata is not fingerprinted: editing it alone passes, in both modes", async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) =>
      editEndpoint(lines, "getPetById", (endpoint) => {
        endpoint.metadata = { ...(endpoint.metadata as object), note: '"metadata":{} and } ] , \\"' };
      }),
    );
    for (const verify of ["first-use", "full"] as const) {
      const router = await load(project, { verify });
      const endpoint = router.registry.get("petstore")!.endpoints.get("getPetById")!;
      expect(endpoint.metadata?.note).toBe('"metadata":{} and } ] , \\"');
      const pet = await (await client(project, router)).getPetById({ petId: "rex" });
      expect(pet.data.name).toBe("Rex");
    }
  });

  it("an edit without updating the lockfile still fails at load (artifact digest)", async () => {
    const project = await compiledProject();
    forgeArtifact(
      project,
      "petstore",
      (lines) =>
        editEndpoint(lines, "listVisits", (endpoint) => {
          endpoint.description = "x";
        }),
      { lockDigest: false },
    );
    await expect(load(project)).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { source: "petstore", reason: "artifact-digest" },
    });
  });

  it("nothing is reachable before verification, and contracts are deep-frozen after it", async () => {
    const project = await compiledProject();
    const router = await load(project);
    const registered = router.registry.get("petstore")!;
    const list = registered.tool.endpoints as EndpointSpec[];
    // Before first use: the slots are frozen accessors; no endpoint object exists to mutate.
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(registered.tool)).toBe(true);
    const slot = Object.getOwnPropertyDescriptor(list, 2)!;
    expect(slot).toMatchObject({ configurable: false, enumerable: true, set: undefined });
    expect(() => {
      list[2] = { ...list[0]!, name: "getPetById" };
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(list, 2, { value: {} })).toThrow(TypeError);
    expect((registered.endpoints as unknown as { set?: unknown }).set).toBeUndefined();
    const defs = registered.defs.defs as Record<string, unknown>;
    expect(Object.isFrozen(defs)).toBe(true);
    expect(() => {
      defs.Pet = {};
    }).toThrow(TypeError);
    // After first use: the same frozen object everywhere.
    const endpoint = registered.endpoints.get("getPetById")!;
    expect(list[2]).toBe(endpoint);
    expect(router.registry.entries().find((entry) => entry.endpoint.name === "getPetById")?.endpoint).toBe(
      endpoint,
    );
    expect(Object.isFrozen(endpoint)).toBe(true);
    expect(Object.isFrozen(endpoint.parameters[0])).toBe(true);
    expect(Object.isFrozen(endpoint.outputSchema)).toBe(true);
    expect(() => {
      (endpoint.parameters as unknown[]).push({});
    }).toThrow(TypeError);
    expect(Object.isFrozen(defs.Pet)).toBe(true);
    // Spreading, JSON and key listing see the real contract.
    expect(Object.keys(endpoint)).toContain("inputSchema");
    expect(JSON.parse(JSON.stringify(registered.tool)).endpoints).toHaveLength(5);
  });
});
