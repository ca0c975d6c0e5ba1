/** A hostile OpenAPI document compiled as the CLI would and loaded into a Registry (attack tests). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { emitArtifact } from "../../compiler/emit/artifact.js";
import { openapiAdapter } from "../../compiler/sources/openapi/index.js";
import { parseArtifact } from "../../runtime/format/artifact-read.js";
import { Registry, registerTool } from "../../runtime/load/registry.js";
import { tempProject } from "../helpers/project.js";

export async function compiledRegistry(name: string, document: unknown): Promise<Registry> {
  const project = tempProject(`attacks-${name}`);
  const location = join(project.dir, `${name}.json`);
  writeFileSync(location, JSON.stringify(document));
  const result = await openapiAdapter.resolve(
    name,
    { kind: "openapi", location },
    { cwd: project.dir, env: {}, allowInsecureHttp: false },
  );
  const artifact = parseArtifact(emitArtifact(name, "openapi", result).text, `${name}.json`);
  return new Registry(
    artifact.tools.map((tool) =>
      registerTool({ tool, source: name, sourceKind: "openapi", defs: artifact.$defs }),
    ),
  );
}
