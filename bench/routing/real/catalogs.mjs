/**
 * The real catalogs of the real-catalog routing benchmark: large public OpenAPI documents shipped in
 * devDependencies, compiled with the built compiler (resolveSource + compileSource, as
 * `schemarouter compile` does) into a temporary project directory, registered into a Registry. Each
 * endpoint is listed with its route, locked effect, HTTP method and path, and the operation's own
 * summary as the document states it (the first paragraph of the compiled description).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSource, resolveSource } from "../../../compiler/dist/compile/compile.js";
import { Registry } from "../../../runtime/dist/load/registry.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const require = createRequire(join(ROOT, "package.json"));
const inPackage = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

/** The documents: name, npm package and the document's path inside it. */
export const REAL_CATALOGS = [
  { name: "github", pkg: "@octokit/openapi", file: "generated/api.github.com.json" },
  { name: "directus", pkg: "@directus/specs", file: "dist/openapi.json" },
  { name: "figma", pkg: "@figma/rest-api-spec", file: "openapi/openapi.yaml" },
  { name: "blockfrost", pkg: "@blockfrost/openapi", file: "openapi.yaml" },
];

/** The operation summary as compiled: the first paragraph of the endpoint description. */
function summaryOf(description) {
  return (description ?? "").split(/\n\s*\n/)[0].trim();
}

/** Compiles one catalog into a temporary project; returns the registry and its endpoint list. */
export async function realCatalog(name) {
  const spec = REAL_CATALOGS.find((c) => c.name === name);
  if (spec === undefined)
    throw new Error(`unknown real catalog ${name}; one of ${REAL_CATALOGS.map((c) => c.name).join(", ")}`);
  const dir = mkdtempSync(join(tmpdir(), `schemarouter-routing-${name}-`));
  try {
    const result = await resolveSource(
      name,
      { kind: "openapi", location: inPackage(spec.pkg, spec.file) },
      { cwd: dir, env: {}, allowInsecureHttp: false },
    );
    const compiled = compileSource(name, "openapi", result, {
      lockfile: join(dir, "schemarouter.lock.json"),
      outDir: join(dir, "generated"),
    });
    const registry = new Registry(compiled.tools);
    const endpoints = registry.entries().map(({ tool, endpoint }) => ({
      route: `${tool.name}.${endpoint.name}`,
      effect: endpoint.effect,
      method: endpoint.execution?.method,
      path: endpoint.execution?.path,
      summary: summaryOf(endpoint.description),
    }));
    return { name, registry, endpoints };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
