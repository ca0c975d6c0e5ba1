/**
 * External `$ref`s of file-located OpenAPI documents (docs/sources/openapi-external-refs.md): off by
 * default (reported, operation left out); when the source enables them, a real multi-file project on
 * disk compiles into one artifact with stable `$defs` names, cycles between files included; a ref
 * leaving the document's directory tree (`..`, absolute path, file URL, symbolic link) or naming a URL
 * is refused and reported without the file ever being read; the limits are typed errors naming the
 * limit; the document digest covers every file read, so changing one referenced file recompiles.
 */
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { compile } from "../../../../compiler/compile/compile.js";
import type { ExternalRefsConfig } from "../../../../compiler/config/external-refs.js";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import { sha256 } from "../../../../runtime/format/fingerprint.js";
import { SchemaRouter } from "../../../../runtime/router/router.js";
import { REPO_ROOT, tempProject } from "../../../helpers/project.js";
import { failure } from "../../../helpers/refusal.js";
import { documentWith, MULTI_FILE_PROJECT, writeTree } from "./external-refs-fixture.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Readonly<Record<string, unknown>>): string {
  const project = tempProject("external-refs");
  dirs.push(project.dir);
  writeTree(project.dir, files);
  return project.dir;
}

async function resolveIn(
  dir: string,
  externalRefs?: ExternalRefsConfig,
  location = "api/openapi.yaml",
): Promise<SourceResult> {
  return openapiAdapter.resolve(
    "pets",
    { kind: "openapi", location, ...(externalRefs === undefined ? {} : { externalRefs }) },
    { cwd: dir, env: {}, allowInsecureHttp: false },
  );
}

const names = (result: SourceResult) => result.tools[0]!.endpoints.map((endpoint) => endpoint.name).sort();
const ON = { enabled: true } as const;

describe("external $refs off (the default)", () => {
  it.each([
    ["absent", undefined],
    ["disabled", { enabled: false }],
  ] as const)(
    "%s: reports them and leaves their operations out, digesting the root document only",
    async (_, config) => {
      const dir = tree(MULTI_FILE_PROJECT);
      const result = await resolveIn(dir, config);
      expect(names(result)).toEqual([]);
      expect(result.compatibility.map((issue) => [issue.pointer, issue.construct, issue.level])).toEqual([
        ["/paths/~1pets", "external-ref", "unsupported"],
        ["/paths/~1pets~1{petId}/get/parameters/0", "external-ref", "unsupported"],
      ]);
      expect(result.compatibility[0]!.message).toContain("external refs are off");
      expect(result.documentDigest).toBe(sha256(readFileSync(join(dir, "api/openapi.yaml"))));
    },
  );
});

describe("external $refs on, in a document without any", () => {
  it.each(["petstore-30.yaml", "petstore-31.json", "names-31.yaml"])(
    "%s compiles exactly as with them off",
    async (file) => {
      const specs = join(REPO_ROOT, "test/fixtures/specs");
      expect(await resolveIn(specs, ON, file)).toEqual(await resolveIn(specs, undefined, file));
    },
  );

  it("never follows a $ref below instance data or a vendor extension", async () => {
    const doc = documentWith({ ok: { type: "string", default: { $ref: "missing-1.yaml" } } });
    const ok = (doc.paths as Record<string, Record<string, Record<string, unknown>>>)["/ok"]!.get!;
    (ok.responses as Record<string, Record<string, unknown>>)["200"]!.content = {
      "application/json": { schema: { type: "string" }, examples: { a: { $ref: "missing-2.yaml" } } },
    };
    const dir = tree({ "api/openapi.yaml": { ...doc, "x-extra": { $ref: "missing-3.yaml" } } });
    const result = await resolveIn(dir, ON);
    expect(names(result)).toEqual(["ok"]);
    expect(result.tools[0]!.metadata?.externalDocuments).toBeUndefined();
  });
});

describe("a multi-file project with external $refs enabled", () => {
  it("compiles every operation, with each external schema stored once under a stable name", async () => {
    const result = await resolveIn(tree(MULTI_FILE_PROJECT), ON);
    expect(names(result)).toEqual(["createPet", "getPet", "listPets"]);
    // The root's own Error keeps its name; common.yaml's Error is named after its file.
    expect(Object.keys(result.defs)).toEqual(["Category", "Error", "Owner", "Pet", "common_Error"]);
    expect(result.defs.Pet).toMatchObject({
      properties: { owner: { $ref: "#/$defs/Owner" }, category: { $ref: "#/$defs/Category" } },
    });
    // The cycle between Pet.yaml and Owner.yaml, and Category's self-reference inside common.yaml.
    expect(result.defs.Owner).toMatchObject({ properties: { pets: { items: { $ref: "#/$defs/Pet" } } } });
    expect(result.defs.Category).toMatchObject({ properties: { parent: { $ref: "#/$defs/Category" } } });
    expect(result.compatibility.map((issue) => [issue.pointer, issue.construct])).toEqual([
      ["common.yaml#/components/schemas/Category", "recursive-ref"],
      ["components/schemas/Owner.yaml#", "recursive-ref"],
      ["components/schemas/Pet.yaml#", "recursive-ref"],
    ]);
    const getPet = result.tools[0]!.endpoints.find((endpoint) => endpoint.name === "getPet")!;
    expect(getPet.parameters.map((parameter) => [parameter.name, parameter.location])).toEqual([
      ["petId", "path"],
    ]);
    expect(result.tools[0]!.metadata?.externalDocuments).toEqual([
      "common.yaml",
      "components/parameters.yaml",
      "components/schemas/NewPet.yaml",
      "components/schemas/Owner.yaml",
      "components/schemas/Pet.yaml",
      "paths/pets.yaml",
    ]);
  });

  it("writes byte-identical artifacts and locks on recompile and from another checkout", async () => {
    const first = tempProject("external-refs-a");
    const second = tempProject("external-refs-b");
    dirs.push(first.dir, second.dir);
    for (const project of [first, second]) {
      writeTree(project.dir, MULTI_FILE_PROJECT);
      project.write({
        sources: { pets: { kind: "openapi", location: "api/openapi.yaml", externalRefs: ON } },
      });
    }
    const artifact = (dir: string) => readFileSync(join(dir, "generated/artifacts/pets.json"));
    await compile({ config: first.configPath, mode: "write", env: {} });
    const bytes = artifact(first.dir);
    const lock = readFileSync(first.lockfile);
    await compile({ config: first.configPath, mode: "write", env: {}, incremental: false });
    await compile({ config: second.configPath, mode: "write", env: {} });
    expect(artifact(first.dir).equals(bytes)).toBe(true);
    expect(artifact(second.dir).equals(bytes)).toBe(true);
    expect(readFileSync(second.lockfile).equals(lock)).toBe(true);
    // The artifact loads and verifies like any other.
    const router = await SchemaRouter.load({ lockfile: first.lockfile });
    await router.close();
  });

  it("changes the document digest, and recompiles, when only a referenced file changes", async () => {
    const project = tempProject("external-refs-digest");
    dirs.push(project.dir);
    writeTree(project.dir, MULTI_FILE_PROJECT);
    project.write({ sources: { pets: { kind: "openapi", location: "api/openapi.yaml", externalRefs: ON } } });
    const before = await compile({ config: project.configPath, mode: "write", env: {} });
    const again = await compile({ config: project.configPath, mode: "write", env: {} });
    expect(again.lock.sources.pets?.documentDigest).toBe(before.lock.sources.pets?.documentDigest);
    const owner = join(project.dir, "api/components/schemas/Owner.yaml");
    writeFileSync(
      owner,
      stringify({ type: "object", properties: { name: { type: "string" }, email: { type: "string" } } }),
    );
    const after = await compile({ config: project.configPath, mode: "write", env: {} });
    expect(after.reused).toEqual([]);
    expect(after.lock.sources.pets?.documentDigest).not.toBe(before.lock.sources.pets?.documentDigest);
    expect(after.lock.sources.pets?.artifact.digest).not.toBe(before.lock.sources.pets?.artifact.digest);
    const artifact = readFileSync(join(project.outDir, "artifacts/pets.json"), "utf8");
    expect(artifact).toContain('"email"');
  });
});

describe("references that leave the document's directory tree", () => {
  const SECRET = "TOP-SECRET-7f3a9c";

  function escapingProject(): string {
    const dir = tree({
      // Not valid YAML: were it ever read, its text would surface in a parse error.
      "secrets.yaml": `password: ${SECRET}\n  : [unclosed\n`,
      "api/ok.yaml": { type: "string" },
    });
    const secret = join(dir, "secrets.yaml");
    symlinkSync(secret, join(dir, "api/link.yaml"));
    symlinkSync(dir, join(dir, "api/up"));
    writeTree(dir, {
      "api/openapi.yaml": documentWith({
        ok: { $ref: "ok.yaml" },
        dotdot: { $ref: "../secrets.yaml" },
        absolute: { $ref: secret },
        fileUrl: { $ref: pathToFileURL(secret).href },
        symlink: { $ref: "link.yaml" },
        linkedDir: { $ref: "up/secrets.yaml" },
        url: { $ref: "http://127.0.0.1:9/secrets.yaml" },
      }),
    });
    return dir;
  }

  it("refuses each, reports why, and never reads the file", async () => {
    const result = await resolveIn(escapingProject(), ON);
    expect(names(result)).toEqual(["ok"]);
    const refused = Object.fromEntries(
      result.compatibility.map((issue) => [
        issue.pointer.split("/")[2]!.slice(2),
        [issue.construct, issue.message],
      ]),
    );
    const outside = "is refused: resolves outside the root document's directory";
    expect(refused.dotdot?.[1]).toContain(`"../secrets.yaml" ${outside}`);
    expect(refused.absolute?.[1]).toContain(outside);
    expect(refused.fileUrl?.[1]).toContain(outside);
    const link = "is refused: resolves through a symbolic link outside the root document's directory";
    expect(refused.symlink?.[1]).toContain(`"link.yaml" ${link}`);
    expect(refused.linkedDir?.[1]).toContain(`"up/secrets.yaml" ${link}`);
    expect(refused.url?.[1]).toContain("URLs are not followed");
    for (const [construct, message] of Object.values(refused)) {
      expect(construct).toBe("external-ref");
      expect(message).toContain("the operation using it is left out");
    }
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("keeps the secret out of the artifact, the lock and the bindings", async () => {
    const dir = escapingProject();
    const project = { configPath: join(dir, "schemarouter.config.json") };
    writeFileSync(
      project.configPath,
      JSON.stringify({
        outDir: "generated",
        runtimeImport: "schemarouter",
        sources: { pets: { kind: "openapi", location: "api/openapi.yaml", externalRefs: ON } },
      }),
    );
    const result = await compile({ config: project.configPath, mode: "write", env: {} });
    expect(result.lock.sources.pets?.tools.pets?.endpoints).toHaveProperty("ok");
    const written = [join(dir, "schemarouter.lock.json"), ...filesBelow(join(dir, "generated"))];
    for (const file of written) expect(readFileSync(file, "utf8")).not.toContain(SECRET);
  });
});

describe("what cannot be resolved, and the limits", () => {
  it("reports anchors and pointers that resolve to nothing; a missing file is a typed error", async () => {
    const dir = tree({
      "api/openapi.yaml": documentWith({
        anchor: { $ref: "schemas.yaml#Pet" },
        missing: { $ref: "schemas.yaml#/Nope" },
        fine: { $ref: "schemas.yaml#/Pet" },
      }),
      "api/schemas.yaml": { Pet: { type: "object" } },
    });
    const result = await resolveIn(dir, ON);
    expect(names(result)).toEqual(["fine"]);
    expect(result.compatibility.map((issue) => [issue.pointer, issue.construct])).toEqual([
      ["/paths/~1anchor/get/responses/200/content/application~1json/schema", "external-ref"],
      ["/paths/~1missing/get/responses/200/content/application~1json/schema", "unresolved-ref"],
    ]);
    expect(result.compatibility[0]!.message).toContain("plain-name anchor");
    expect(result.compatibility[1]!.message).toContain(
      '"schemas.yaml#/Nope" does not resolve in schemas.yaml',
    );

    writeTree(dir, { "api/openapi.yaml": documentWith({ gone: { $ref: "gone.yaml" } }) });
    const error = await failure(resolveIn(dir, ON));
    expect(error.code).toBe("SOURCE_FETCH_FAILED");
    expect(error.message).toContain("external document gone.yaml cannot be read (ENOENT)");
  });

  /** root → a1 → a2 → a3 → a4, one file per link. */
  const chain = () =>
    tree({
      "api/openapi.yaml": documentWith({ deep: { $ref: "a1.yaml" } }),
      "api/a1.yaml": { type: "object", properties: { next: { $ref: "a2.yaml" } } },
      "api/a2.yaml": { type: "object", properties: { next: { $ref: "sub/a3.yaml" } } },
      "api/sub/a3.yaml": { type: "object", properties: { next: { $ref: "../a4.yaml" } } },
      "api/a4.yaml": { type: "string", description: "x".repeat(2000) },
    });

  it.each([
    ["maxDocuments", { maxDocuments: 3 }, 3, "reading a4.yaml would be external document 4"],
    ["maxDepth", { maxDepth: 3 }, 3, "external document a4.yaml is 4 documents away from the root document"],
    ["maxBytes", { maxBytes: 1500 }, 1500, "reading a4.yaml would exceed it"],
  ] as const)("%s: a typed EXTERNAL_REF_LIMIT naming the limit", async (limit, config, value, what) => {
    const dir = chain();
    expect(names(await resolveIn(dir, ON))).toEqual(["deep"]);
    const error = await failure(resolveIn(dir, { enabled: true, ...config }));
    expect(error.code).toBe("EXTERNAL_REF_LIMIT");
    expect(error.details).toMatchObject({ limit, value });
    expect(error.message).toContain(`externalRefs.${limit} (${value}): ${what}`);
  });

  it("refuses a root document that already uses the reserved bundling member", async () => {
    const dir = tree({ "api/openapi.yaml": { ...documentWith({}), "x-schemarouter-external": {} } });
    expect((await failure(resolveIn(dir, ON))).code).toBe("SOURCE_INVALID");
    expect(names(await resolveIn(dir))).toEqual([]);
  });
});

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
