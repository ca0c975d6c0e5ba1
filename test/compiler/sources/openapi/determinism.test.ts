/** Fingerprint locality, byte-identical recompiles, and servers that stay descriptive (a base URL comes from local config). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { SchemaRouterError } from "../../../../runtime/errors/errors.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { sendJson, startServer } from "../../../helpers/http-server.js";
import type { TempProject } from "../../../helpers/project.js";
import { fingerprints, readDoc, resolve, SPECS, tempDocs } from "./helpers.js";

const { project, writeDoc } = tempDocs();

describe("fingerprint locality", () => {
  // [schema to edit, property added to it, endpoints whose fingerprint must change]
  const changes: [string, string, string[]][] = [
    ["Owner", "zip", ["listPets", "createPet", "getPet", "replacePet"]],
    ["NewPet", "age", ["createPet", "replacePet"]],
    ["Unused", "more", []],
  ];
  it.each(changes)(
    "a change to %s changes exactly the fingerprints of the endpoints that use it",
    async (schema, property, expected) => {
      const before = await resolve(join(SPECS, "petstore-30.yaml"));
      const doc = readDoc("petstore-30.yaml") as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      doc.components.schemas[schema]!.properties[property] = { type: "string" };
      const after = await resolve(writeDoc(doc, "openapi.yaml"));
      const a = fingerprints(before);
      const b = fingerprints(after);
      expect([...b.keys()]).toEqual([...a.keys()]);
      expect([...a.keys()].filter((name) => a.get(name) !== b.get(name))).toEqual(expected);
    },
  );
});

describe("compile: determinism and descriptive servers", () => {
  function writeProject(name: string, file: string): TempProject {
    const created = project(name);
    writeFileSync(join(created.dir, file), readFileSync(join(SPECS, file)));
    created.write({ runtimeImport: "schemarouter", sources: { pets: { kind: "openapi", location: file } } });
    return created;
  }

  it.each(["petstore-30.yaml", "petstore-31.json", "unsupported-31.yaml"])(
    "compiling %s twice gives byte-identical artifact, lockfile and bindings",
    async (file) => {
      const first = await compile({
        config: writeProject("oas-det", file).configPath,
        mode: "write",
        env: {},
      });
      const second = await compile({
        config: writeProject("oas-det", file).configPath,
        mode: "write",
        env: {},
      });
      const relative = (result: typeof first) =>
        result.files.map((f) => [f.path.slice(result.config.dir.length), f.contents]);
      expect(relative(second)).toEqual(relative(first));
      expect(first.files.length).toBeGreaterThanOrEqual(4);
      const again = await compile({ config: first.config.path, mode: "write", env: {} });
      expect(again.write.written).toEqual([]);
      expect(again.write.stale).toEqual([]);
    },
  );

  it("never binds a tool to its document's cross-origin servers: a call needs a base URL from local config", async () => {
    const compiled = await compile({
      config: writeProject("oas-servers", "petstore-31.json").configPath,
      mode: "write",
      env: {},
    });
    const artifact = compiled.sources[0]!.artifact;
    expect(artifact.tools[0]?.metadata?.servers).toEqual(["https://api.pets.example/v2"]);

    const unbound = await SchemaRouter.load({ lockfile: compiled.config.lockfile });
    const registered = unbound.registry.get("pets")!;
    const call = {
      tool: "pets",
      endpoint: "getPet",
      arguments: { petId: "7" },
      fields: ["name"],
      endpointFingerprint: registered.endpointFingerprints.get("getPet")!,
      toolFingerprint: registered.fingerprint,
    };
    const error = await unbound.call(call).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaRouterError);
    expect((error as SchemaRouterError).code).toBe("BINDING_NOT_READY");
    await unbound.close();

    const server = await startServer((_request, response) => sendJson(response, 200, { id: 7, name: "rex" }));
    try {
      const bound = await SchemaRouter.load({
        lockfile: compiled.config.lockfile,
        bindings: { pets: { baseUrl: `${server.url}/local` } },
      });
      expect((await bound.call(call)).data).toEqual({ name: "rex" });
      expect(server.requests.map((r) => r.url)).toEqual(["/local/pets/7"]);
      await bound.close();
    } finally {
      await server.close();
    }
  });
});
