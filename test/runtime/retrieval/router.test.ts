/**
 * The facade's routing surface over a compiled lock: retrieve (no authority), retrieveExecutable
 * (ready bindings only), plan (field-first, pinned, missing arguments listed), then invoke the plan
 * through the same fail-closed boundary.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { REPO_ROOT } from "../../helpers/project.js";

let server: Awaited<ReturnType<typeof startPetstoreServer>>;
beforeAll(async () => {
  server = await startPetstoreServer();
});
afterAll(() => server.close());

const load = () => SchemaRouter.load({ root: REPO_ROOT, bindings: { petstore: { baseUrl: server.url } } });

describe("router retrieval and planning", () => {
  it("retrieves typed candidates without executing anything", async () => {
    const router = await load();
    const before = server.requests.length;
    const candidates = router.retrieve({ query: "pet weight in grams" }, { k: 3 });
    expect(candidates[0]).toMatchObject({ tool: "petstore", endpoint: "getPetById", effect: "read" });
    expect(candidates[0]!.endpointFingerprint).toBe(
      router.registry.get("petstore")!.endpointFingerprints.get("getPetById"),
    );
    expect(candidates.length).toBeLessThanOrEqual(3);
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("retrieveExecutable keeps only tools with a ready binding", async () => {
    const router = await load();
    const all = router.retrieve({ query: "read graph entities" }, { k: 10 });
    expect(all.some((c) => c.tool === "memory")).toBe(true);
    const executable = router.retrieveExecutable({ query: "read graph entities" }, { k: 10 });
    expect(executable.every((c) => c.tool === "petstore")).toBe(true);
    await router.close();
  });

  it("plans field-first calls pinned to both fingerprints, lists missing arguments, and invokes them", async () => {
    const router = await load();
    const draft = router.plan({ query: "weight of a pet in grams" });
    expect(draft.calls[0]).toMatchObject({ tool: "petstore", endpoint: "getPetById" });
    expect(draft.missingArguments).toEqual([expect.objectContaining({ name: "petId" })]);

    const ready = router.plan({ query: "weight of a pet in grams", arguments: { petId: "rex", ignored: 1 } });
    const call = ready.calls[0]!;
    expect(call.fields).toEqual(expect.arrayContaining(["weight", "id"]));
    expect(call.fields).not.toContain("owner");
    expect(call.arguments).toEqual({ petId: "rex" });
    expect(ready.explanations[0]!.ignoredArguments).toContain("ignored");
    const [result] = await router.invoke(ready);
    expect(result!.data).toEqual({ id: "rex", weightGrams: 31_500 });
    await router.close();
  });
});
