/**
 * The OData v4 SourceAdapter (docs/sources/odata.md; OData CSDL XML v4.01): one ToolSpec per
 * service, a list and a get-by-key endpoint per entity set, a get endpoint per singleton, one
 * endpoint per function or action (imports, and bound operations per entity set), entity and complex
 * types stored once in `$defs`, and a trusted `$select` server projection. The document digest is
 * the digest of the CSDL bytes.
 */
import type { CompatibilityIssue, EndpointSpec, ToolSpec } from "schemarouter/internal";
import { sha256 } from "schemarouter/internal";
import type { OdataSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { sortIssues } from "../compatibility.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { readCsdl } from "./csdl.js";
import { loadCsdl } from "./document.js";
import { entitySetEndpoints, singletonEndpoint } from "./entity-sets.js";
import { boundEndpoints, importEndpoints } from "./operations.js";
import { structuredDefs } from "./structured-types.js";
import { parseCsdlXml } from "./xml.js";

/** Entity set, singleton and import names become endpoint names and URL segments. */
const RESOURCE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export const odataAdapter: SourceAdapter<OdataSourceConfig> = {
  kind: "odata",
  async resolve(name: string, config: OdataSourceConfig, context: SourceContext): Promise<SourceResult> {
    const loaded = await loadCsdl(name, config, context);
    const model = readCsdl(name, parseCsdlXml(name, loaded.bytes));
    const issues: CompatibilityIssue[] = [];
    const report = (issue: CompatibilityIssue) => issues.push(issue);
    const container = model.container;
    if (container === undefined)
      throw new SourceError(
        name,
        "SOURCE_INVALID",
        "the CSDL document has no <EntityContainer>, so it describes no service; give the service's $metadata.",
      );
    for (const { pointer, element } of model.ignored)
      report({
        pointer,
        construct: element,
        level: "partial",
        message: `<${element}> is not read by schemarouter.`,
      });
    const defs = structuredDefs(model, report);
    const named = <T extends { readonly name: string }>(kind: string, items: readonly T[]): T[] =>
      items.filter((item) => {
        if (RESOURCE_NAME.test(item.name)) return true;
        const pointer = `/EntityContainer/${kind}/${item.name}`;
        report({
          pointer,
          construct: "resource-name",
          level: "unsupported",
          message: `${kind} ${JSON.stringify(item.name)} is not a plain identifier; it is not compiled.`,
          leftOut: pointer,
        });
        return false;
      });
    const sets = named("EntitySet", container.entitySets);
    const endpoints: EndpointSpec[] = [
      ...sets.flatMap((set) => entitySetEndpoints(model, set, report)),
      ...named("Singleton", container.singletons).flatMap((singleton) =>
        singletonEndpoint(model, singleton, report),
      ),
      ...importEndpoints(model, named("Import", container.imports), report),
      ...boundEndpoints(model, sets, report),
    ];
    const notes: string[] = [];
    const effects = config.effects ?? {};
    const classified = endpoints.map((endpoint) =>
      Object.hasOwn(effects, endpoint.name) ? { ...endpoint, effect: effects[endpoint.name]! } : endpoint,
    );
    const known = new Set(endpoints.map((endpoint) => endpoint.name));
    for (const endpoint of Object.keys(effects)
      .filter((key) => !known.has(key))
      .sort())
      notes.push(`effects names ${endpoint}, which this service does not have; it classifies nothing`);
    const unique = new Map<string, EndpointSpec>();
    for (const endpoint of classified) {
      if (unique.has(endpoint.name)) {
        report({
          pointer: `/EntityContainer/${endpoint.name}`,
          construct: "endpoint-name",
          level: "unsupported",
          message: `two operations compile to the endpoint name ${endpoint.name}; only the first is kept.`,
          leftOut: `/EntityContainer/${endpoint.name}`,
        });
        continue;
      }
      unique.set(endpoint.name, endpoint);
    }
    const tool: ToolSpec = {
      name,
      namespace: name,
      description: `OData v4 service ${container.name} (${loaded.serviceRoot}). Entity sets: ${sets.map((set) => set.name).join(", ") || "(none)"}.`,
      provider: name,
      accessMode: "odata",
      remote: true,
      execution: { transport: "odata", serviceRoot: loaded.serviceRoot },
      endpoints: [...unique.values()],
      metadata: { csdlVersion: model.version, container: container.name },
    };
    return {
      tools: [tool],
      defs,
      compatibility: sortIssues(issues),
      documentDigest: sha256(loaded.bytes),
      location: loaded.location,
      ...(notes.length > 0 ? { notes } : {}),
    };
  },
};
