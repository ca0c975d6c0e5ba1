/**
 * The OData example: books from an OData v4 service (SAP CAP) compiled from its committed CSDL and
 * locked by the root config (source `bookshop`). The facade plans the fields a question needs, so only
 * they are asked for ($select) and returned; the filter is structured and typed, never free text; the
 * `order` action is a write, refused by the default policy before anything is sent.
 */
import { isSchemaRouterError, SchemaRouter } from "schemarouter";

/** Name of the OData source in the root config. */
export const ODATA_DEMO_SOURCE = "bookshop";

export async function runOdataDemo(root: string, log: (line: string) => void): Promise<void> {
  const tool = ODATA_DEMO_SOURCE;
  // Trusted local configuration: the locked service root, local page and record limits.
  const router = await SchemaRouter.load({
    root,
    bindings: { [tool]: { odata: { maxPages: 5, maxRecords: 100 } } },
  });
  try {
    const filter = { stock: { gt: 100 } };
    const plan = router.plan({ query: "book titles and their stock", arguments: { filter } });
    const call = plan.calls[0];
    if (call === undefined)
      throw new Error(`The lockfile has no OData source "${tool}"; run \`schemarouter compile\`.`);
    log(
      `plan: ${call.tool}.${call.endpoint} fields ${JSON.stringify(call.fields)} filter ${JSON.stringify(filter)}`,
    );
    const [result] = await router.invoke(plan);
    const books = (result?.data as { value?: { title?: string; stock?: number }[] } | undefined)?.value ?? [];
    for (const book of books) log(`  ${String(book.title).padEnd(20)} stock ${book.stock}`);

    const registered = router.registry.get(tool)!;
    try {
      await router.call({
        tool,
        endpoint: "order",
        arguments: { book: 251, quantity: 1 },
        endpointFingerprint: registered.endpointFingerprints.get("order") ?? "",
        toolFingerprint: registered.fingerprint,
      });
      log("order action → unexpectedly allowed");
    } catch (error) {
      if (!isSchemaRouterError(error)) throw error;
      log(`order action (write) → refused: ${error.code}`);
    }
  } finally {
    await router.close();
  }
}
