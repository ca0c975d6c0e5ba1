/**
 * Config mistakes name the key, the allowed keys or values, and the line (docs/common-mistakes.md).
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../compiler/config/config.js";
import { runCli } from "../../helpers/cli.js";
import { tempProject } from "../../helpers/project.js";

async function refusal(text: string) {
  const project = tempProject("config-mistake");
  writeFileSync(project.configPath, text);
  const error = await loadConfig(project.configPath).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { project, error: error as { code: string; message: string; details: Record<string, unknown> } };
}

describe("config mistakes", () => {
  it("an unknown top-level key suggests the nearest one, with its line", async () => {
    const { project, error } = await refusal(`{\n  "outputDir": "generated",\n  "sources": {}\n}\n`);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `${project.configPath}:2: "outputDir" is not a key of the config — did you mean "outDir"? Allowed keys: $schema, outDir, lockfile, runtimeImport, allowInsecureHttp, serve, proposer, plugins, providers, sources, embedder. See schemarouter.config.schema.json (point "$schema" at it for editor help).`,
    );
    expect(error.details).toMatchObject({ key: "outputDir", line: 2 });
  });

  it("an unknown source kind lists the kinds", async () => {
    const { project, error } = await refusal(
      `{\n  "sources": {\n    "api": {\n      "kind": "soap",\n      "location": "x.wsdl"\n    }\n  }\n}\n`,
    );
    expect(error.message).toContain(
      `${project.configPath}:4: "sources.api.kind" is "soap"; it must be one of "openapi", "local", "mcp", "optimade", "proposal", "plugin", "odata", "graphql", "openrpc".`,
    );
    expect(error.details).toMatchObject({ line: 4 });
  });

  it("a key of another source kind is named with the keys this kind takes", async () => {
    const { error } = await refusal(
      JSON.stringify({ sources: { pets: { kind: "openapi", location: "p.yaml", module: "x.ts" } } }, null, 2),
    );
    expect(error.message).toContain(
      '"module" is not a key of "sources.pets". Allowed keys: kind, location, schemaHeaders, externalRefs, overlays, specOverlays.',
    );
    expect(error.details).toMatchObject({ key: "module", line: 6 });
  });

  it("a misspelt overlay key suggests the right one", async () => {
    const { error } = await refusal(
      JSON.stringify({ sources: { pets: { kind: "openapi", location: "p.yaml", overlay: {} } } }),
    );
    expect(error.message).toContain('"overlay" is not a key of "sources.pets" — did you mean "overlays"?');
  });

  it("an MCP effect outside read/write/destructive lists the three", async () => {
    const { error } = await refusal(
      JSON.stringify({
        sources: { mem: { kind: "mcp", url: "https://mcp.example.com/mcp", effects: { get: "readonly" } } },
      }),
    );
    expect(error.message).toContain(
      '"sources.mem.effects.get" is "readonly"; it must be one of "read", "write", "destructive".',
    );
  });

  it("the CLI prints the same message, exit 2, no stack", async () => {
    const project = tempProject("config-mistake-cli");
    writeFileSync(project.configPath, `{\n  "outputDir": "generated",\n  "sources": {}\n}\n`);
    const result = await runCli(project.dir, ["compile"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error [CONFIG_INVALID]: ${project.configPath}:2: "outputDir" is not a key`,
    );
    expect(result.stderr).not.toContain("    at ");
  });
});
