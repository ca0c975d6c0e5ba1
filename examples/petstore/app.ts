/**
 * The Petstore example: typed calls through the generated bindings, every one crossing the router's
 * fail-closed boundary. Run it with `npm run demo`.
 */
import { ExecutionPolicy, isSchemaRouterError, SchemaRouter } from "schemarouter";
import { createClient, type RouterBindings } from "../generated/index.js";
import { startPetstoreServer } from "./server.mjs";

export async function runPetstoreDemo(root: string, log: (line: string) => void): Promise<void> {
  const server = await startPetstoreServer({ token: "demo-token" });
  // RouterBindings (generated): a misspelt source or an axios-style `baseURL` does not compile.
  const router = await SchemaRouter.load<RouterBindings>({
    root,
    // Trusted local configuration: the base URL and the credential never come from the document.
    bindings: { petstore: { baseUrl: server.url, headers: { authorization: "Bearer demo-token" } } },
    policy: new ExecutionPolicy({ allowMutations: false }),
  });
  try {
    const client = createClient(router);
    const pet = await client.petstore.getPetById(
      { petId: "rex" },
      { fields: ["name", "weight", "owner_city"] },
    );
    // The result type has exactly the selected fields: `pet.data.status` would not compile.
    // The weight is read from weightKg, normalized to grams, and returned (and typed) as weightGrams.
    log(`getPetById → ${JSON.stringify(pet.data)}  (weightKg normalized to weightGrams)`);

    const visits = await client.petstore.listVisits(
      { petId: "rex" },
      { fields: ["visits[].date", "visits[].vet"] },
    );
    log(`listVisits → ${JSON.stringify(visits.data)}`);

    try {
      await client.petstore.createPet({ name: "Milo" });
      log("createPet → unexpectedly allowed");
    } catch (error) {
      if (!isSchemaRouterError(error)) throw error;
      log(`createPet → refused: ${error.code} (${error.message})`);
    }
  } finally {
    await router.close();
    await server.close();
  }
}
