/**
 * The OPTIMADE example: binary compounds containing silicon from an OPTIMADE provider compiled and
 * locked by the root config (source `materials`). Only the formula and the lattice vectors are
 * planned, so only they are asked for (response_fields) and returned, with the units the locked
 * FieldSpecs carry. A malformed filter is refused locally before any request.
 */
import { isSchemaRouterError, SchemaRouter } from "schemarouter";

/** Name of the OPTIMADE source in the root config. */
export const OPTIMADE_DEMO_SOURCE = "materials";

const FIELDS = ["chemical_formula_reduced", "lattice_vectors"];

export async function runOptimadeDemo(
  root: string,
  log: (line: string) => void,
  baseUrl: string,
): Promise<void> {
  const tool = OPTIMADE_DEMO_SOURCE;
  // Trusted local configuration: the provider is the one that was locked; local page and record limits.
  const router = await SchemaRouter.load({
    root,
    bindings: { [tool]: { optimade: { baseUrl, maxPages: 5, maxRecords: 100 } } },
  });
  try {
    const registered = router.registry.get(tool);
    const endpoint = registered?.endpoints.get("list_structures");
    if (registered === undefined || endpoint === undefined) {
      throw new Error(
        `The lockfile has no OPTIMADE source "${tool}" with list_structures; run \`schemarouter compile\`.`,
      );
    }
    const pin = (args: Record<string, unknown>) => ({
      tool,
      endpoint: endpoint.name,
      arguments: args,
      fields: FIELDS,
      endpointFingerprint: registered.endpointFingerprints.get(endpoint.name) ?? "",
      toolFingerprint: registered.fingerprint,
    });
    const units = new Map(endpoint.fields.map((field) => [field.id, field.unit]));
    log(`fields: ${FIELDS.map((id) => `${id} [${units.get(id) ?? "no unit"}]`).join(", ")}`);

    const filter = 'elements HAS "Si" AND nelements=2';
    const result = await router.call(pin({ filter, sort: "chemical_formula_reduced" }));
    const entries = (result.data as { data?: { attributes?: Record<string, unknown> }[] }).data ?? [];
    log(`${filter} → ${entries.length} structures`);
    const unit = units.get("lattice_vectors") ?? "";
    for (const entry of entries) {
      const formula = String(entry.attributes?.chemical_formula_reduced);
      const vectors = (entry.attributes?.lattice_vectors as number[][] | null) ?? [];
      const text = vectors.map((vector) => `(${vector.map((x) => x.toFixed(3)).join(", ")})`).join(" ");
      log(`  ${formula.padEnd(6)} lattice vectors ${text} ${unit}`);
    }

    try {
      await router.call(pin({ filter: 'elements HAS "Si" AND' }));
      log("malformed filter → unexpectedly allowed");
    } catch (error) {
      if (!isSchemaRouterError(error)) throw error;
      log(`malformed filter → refused before any request: ${error.code}`);
    }
  } finally {
    await router.close();
  }
}
