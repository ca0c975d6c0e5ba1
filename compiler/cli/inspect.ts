/**
 * `schemarouter inspect`: the locked capabilities as a table (verified against the lockfile), or one
 * endpoint's full contract; or one source's compatibility report (`--report`).
 */
import { CapabilityGraph, loadCatalog, nearestNames } from "schemarouter/internal";
import { coverageOf, formatReport } from "../compile/coverage.js";

/** `inspect --report <source>`: every compatibility finding of one locked source (exit 2 if unknown). */
export async function inspectReport(
  lockfile: string,
  source: string,
  json: boolean,
): Promise<{ text: string; exitCode: number }> {
  const { artifacts } = await loadCatalog({ lockfile, verify: "full" });
  const artifact = artifacts.get(source);
  if (artifact === undefined)
    return {
      text: `No source "${source}" in the lockfile (sources: ${[...artifacts.keys()].join(", ") || "none"}).\n`,
      exitCode: 2,
    };
  if (!json) return { text: formatReport(artifact), exitCode: 0 };
  const report = { ...coverageOf(artifact), issues: artifact.compatibility };
  return { text: `${JSON.stringify(report, null, 2)}\n`, exitCode: 0 };
}

export interface InspectOutput {
  readonly text: string;
  /** 0, or 1 when the route asked for does not exist. */
  readonly exitCode: 0 | 1;
}

export async function inspectLock(
  lockfile: string,
  route: string | undefined,
  json: boolean,
): Promise<InspectOutput> {
  const { registry } = await loadCatalog({ lockfile, verify: "full" });
  if (route !== undefined) {
    const dot = route.indexOf(".");
    const registered = dot < 0 ? undefined : registry.get(route.slice(0, dot));
    const endpoint = registered?.endpoints.get(route.slice(dot + 1));
    if (registered === undefined || endpoint === undefined) {
      const routes = registry.entries().map((entry) => `${entry.tool.name}.${entry.endpoint.name}`);
      const nearest = nearestNames(route, routes);
      const hint =
        nearest.length > 0
          ? `Did you mean ${nearest.map((name) => `"${name}"`).join(", ")}?`
          : "Run `schemarouter inspect` to list them.";
      const message = `No endpoint "${route}" in ${lockfile}. ${hint}`;
      const text = json
        ? `${JSON.stringify({ error: { code: "UNKNOWN_ENDPOINT", message, details: { route, nearest } } }, null, 2)}\n`
        : `error [UNKNOWN_ENDPOINT]: ${message}\n`;
      return { text, exitCode: 1 };
    }
    // The route's neighbours in the capability graph (docs/runtime/capability-graph.md).
    const graph = CapabilityGraph.build([...registry.registeredTools()].map((tool) => tool.tool));
    const neighbours = { incoming: graph.incoming(route), outgoing: graph.outgoing(route) };
    const text = `${JSON.stringify({ tool: registered.tool.name, toolFingerprint: registered.fingerprint, endpointFingerprint: registered.endpointFingerprints.get(endpoint.name), endpoint, neighbours }, null, 2)}\n`;
    return { text, exitCode: 0 };
  }
  const rows = registry.entries().map((entry) => ({
    route: `${entry.tool.name}.${entry.endpoint.name}`,
    effect: entry.endpoint.effect,
    remote: entry.tool.remote,
    fields: entry.endpoint.fields.map((field) => field.id),
    fingerprint: entry.endpointFingerprint,
  }));
  if (json) return { text: `${JSON.stringify(rows, null, 2)}\n`, exitCode: 0 };
  const width = Math.max(5, ...rows.map((row) => row.route.length));
  const lines = rows.map(
    (row) =>
      `${row.route.padEnd(width)}  ${row.effect.padEnd(12)}  ${row.fingerprint.slice(0, 19)}  ${row.fields.slice(0, 6).join(", ")}${row.fields.length > 6 ? ", …" : ""}`,
  );
  return {
    text: `${"route".padEnd(width)}  ${"effect".padEnd(12)}  fingerprint          fields\n${lines.join("\n")}\n`,
    exitCode: 0,
  };
}
