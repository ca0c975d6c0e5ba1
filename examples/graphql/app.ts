/**
 * The GraphQL example: the library schema compiled from its SDL file by the root config (source
 * `library`) and served by graphql-http on 127.0.0.1. A data need is planned through the facade; the
 * query the server receives asks for exactly the planned fields (and identifiers), arguments travel as
 * variables; a partial answer (data with errors) is refused, and a mutation needs the policy's opt-in.
 */
import { isSchemaRouterError, SchemaRouter } from "schemarouter";

/** Name of the GraphQL source in the root config. */
export const GRAPHQL_DEMO_SOURCE = "library";

export async function runGraphqlDemo(
  root: string,
  log: (line: string) => void,
  url: string,
  lastQuery: () => string | undefined,
): Promise<void> {
  const tool = GRAPHQL_DEMO_SOURCE;
  // Trusted local configuration: the SDL source has no locked endpoint, so the binding names it.
  const router = await SchemaRouter.load({
    root,
    bindings: { [tool]: { graphql: { url, timeoutMs: 5000 } } },
  });
  try {
    const plan = router.plan(
      { query: "book title and page count by id", fields: ["title", "pages"], arguments: { id: "b2" } },
      { isReady: (name) => name === tool },
    );
    const call = plan.calls[0];
    if (call === undefined)
      throw new Error(`No plan for the library source "${tool}"; run \`schemarouter compile\`.`);
    log(`planned ${call.tool}.${call.endpoint} with fields ${(call.fields ?? []).join(", ")}`);
    const [result] = await router.invoke(plan);
    log(`query sent: ${lastQuery() ?? "(none)"}`);
    log(`result: ${JSON.stringify(result?.data)}`);

    const registered = router.registry.get(tool);
    const pin = (endpoint: string, args: Record<string, unknown>, fields: string[]) => ({
      tool,
      endpoint,
      arguments: args,
      fields,
      endpointFingerprint: registered?.endpointFingerprints.get(endpoint) ?? "",
      toolFingerprint: registered?.fingerprint ?? "",
    });
    for (const [what, call] of [
      ["partial data (book b3's rating fails)", pin("book", { id: "b3" }, ["title", "rating"])],
      ["a destructive mutation", pin("deleteBook", { id: "b1" }, ["deleteBook"])],
    ] as const) {
      try {
        await router.call(call);
        log(`${what} → unexpectedly allowed`);
      } catch (error) {
        if (!isSchemaRouterError(error)) throw error;
        log(`${what} → ${error.code}: ${error.message.split(". ")[0]}`);
      }
    }
  } finally {
    await router.close();
  }
}
