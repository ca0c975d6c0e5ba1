/**
 * The OpenRPC example: the Simple Math JSON-RPC service compiled from its OpenRPC document by the root
 * config (source `math`, its two methods classified `read` locally: JSON-RPC itself says nothing about
 * side effects). A plan for "add two integers" is made through the facade and invoked through the
 * boundary; the result arrives as `{ result }`.
 */
import { isSchemaRouterError, SchemaRouter } from "schemarouter";

/** Name of the OpenRPC source in the root config. */
export const OPENRPC_DEMO_SOURCE = "math";

export async function runOpenRpcDemo(root: string, log: (line: string) => void): Promise<void> {
  // Trusted local configuration: the locked JSON-RPC endpoint, a tighter timeout.
  const router = await SchemaRouter.load({
    root,
    bindings: { [OPENRPC_DEMO_SOURCE]: { openrpc: { timeoutMs: 5_000 } } },
  });
  try {
    const plan = router.plan({
      query: "addition of two integers",
      fields: ["result"],
      arguments: { a: 2, b: 3 },
    });
    log(`plan: ${plan.calls.map((call) => `${call.route}(${JSON.stringify(call.arguments)})`).join(", ")}`);
    const [sum] = await router.invoke(plan);
    log(`addition → ${JSON.stringify(sum?.data)}`);
    try {
      await router.invoke(
        router.plan({ query: "addition of two integers", arguments: { a: 2, b: "three" } }),
      );
      log("a string for an integer param → unexpectedly sent");
    } catch (error) {
      if (!isSchemaRouterError(error)) throw error;
      log(`a string for an integer param → refused before any request: ${error.code}`);
    }
  } finally {
    await router.close();
  }
}
