/**
 * Drift: artifacts and the lockfile are verified at load; `compile --check` reports stale output;
 * application code on old generated bindings is refused at call time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import { canonicalJson, digestJson, sha256 } from "../../../runtime/format/fingerprint.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { runCli } from "../../helpers/cli.js";
import { artifactPath, editEndpoint, forgeArtifact, setLockedArtifactDigest } from "../../helpers/forge.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary lockfile members to forge drift
type MutableLock = any;

let server: Awaited<ReturnType<typeof startPetstoreServer>>;
beforeAll(async () => {
  server = await startPetstoreServer();
});
afterAll(() => server.close());

async function compiledProject(): Promise<TempProject> {
  const project = tempProject("drift");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  return project;
}

function cli(project: TempProject, ...args: string[]) {
  return runCli(project.dir, args);
}

const load = (project: TempProject) =>
  SchemaRouter.load({ root: project.dir, bindings: { petstore: { baseUrl: server.url } } });

describe("artifact and lockfile verification", () => {
  it("loads a freshly compiled project and `compile --check` says it is current", async () => {
    const project = await compiledProject();
    await expect(load(project)).resolves.toBeInstanceOf(SchemaRouter);
    expect(await cli(project, "compile", "--check")).toMatchObject({ code: 0 });
  });

  it("refuses an artifact with one byte edited, and `compile --check` exits 1", async () => {
    const project = await compiledProject();
    const path = join(project.outDir, "artifacts", "petstore.json");
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.replace('"effect":"read"', '"effect":"reaa"'));
    await expect(load(project)).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { source: "petstore", reason: "artifact-digest" },
    });
    const check = await cli(project, "compile", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("generated/artifacts/petstore.json");
  });

  it("refuses an artifact whose content and lock digest were both rewritten, but not its self-digest", async () => {
    const project = await compiledProject();
    forgeArtifact(
      project,
      "petstore",
      (lines) =>
        editEndpoint(lines, "createPet", (endpoint) => {
          endpoint.effect = "read";
        }),
      { selfDigest: false },
    );
    await expect(load(project)).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { reason: "artifact-self-digest" },
    });
  });

  it("refuses a re-formatted artifact (the line layout is part of the format), even with a matching lock digest", async () => {
    const project = await compiledProject();
    const path = artifactPath(project, "petstore");
    const value = JSON.parse(readFileSync(path, "utf8"));
    for (const text of [`${JSON.stringify(value)}\n`, `${JSON.stringify(value, null, 2)}\n`]) {
      writeFileSync(path, text);
      setLockedArtifactDigest(project, "petstore", sha256(text));
      await expect(load(project)).rejects.toMatchObject({
        code: "ARTIFACT_INVALID",
        details: { reason: "layout" },
      });
    }
  });

  it("refuses a lockfile whose endpoint fingerprint was edited: the tool fingerprint at load, or the endpoint with verify full", async () => {
    const project = await compiledProject();
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    lock.sources.petstore.tools.petstore.endpoints.getPetById.fingerprint = `sha256:${"0".repeat(64)}`;
    writeFileSync(project.lockfile, JSON.stringify(lock));
    await expect(load(project)).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { reason: "tool-fingerprint", tool: "petstore" },
    });
    await expect(SchemaRouter.load({ root: project.dir, verify: "full" })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: { reason: "endpoint-fingerprint", endpoint: "getPetById" },
    });
  });

  it.each([
    [
      "a missing endpoint entry",
      (lock: MutableLock) => delete lock.sources.petstore.tools.petstore.endpoints.listPets,
      "LOCK_MISMATCH",
    ],
    [
      "a missing tool entry",
      (lock: MutableLock) => delete lock.sources.petstore.tools.petstore,
      "LOCK_MISMATCH",
    ],
    [
      "a changed effect",
      (lock: MutableLock) => (lock.sources.petstore.tools.petstore.endpoints.createPet.effect = "read"),
      "LOCK_MISMATCH",
    ],
    [
      "a future lockfileVersion",
      (lock: MutableLock) => (lock.lockfileVersion = 99),
      "LOCK_VERSION_UNSUPPORTED",
    ],
    [
      "a missing artifact",
      (lock: MutableLock) => (lock.sources.petstore.artifact.path = "generated/artifacts/gone.json"),
      "ARTIFACT_NOT_FOUND",
    ],
    ["a malformed source", (lock: MutableLock) => (lock.sources.petstore.artifact = 3), "LOCK_INVALID"],
  ])("refuses %s", async (_name, edit, code) => {
    const project = await compiledProject();
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    edit(lock);
    writeFileSync(project.lockfile, JSON.stringify(lock));
    const error = await load(project).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(/schemarouter/);
  });

  it("refuses an artifact with an unknown future format version, saying which version it reads", async () => {
    const project = await compiledProject();
    forgeArtifact(project, "petstore", (lines) => {
      const at = lines.indexOf(',"formatVersion":2');
      lines[at] = ',"formatVersion":7';
    });
    await expect(load(project)).rejects.toMatchObject({
      code: "ARTIFACT_VERSION_UNSUPPORTED",
      message: expect.stringMatching(/reads version 2/),
    });
  });

  it("refuses a version-1 artifact (before the line layout) with ARTIFACT_VERSION_UNSUPPORTED", async () => {
    const project = await compiledProject();
    const path = artifactPath(project, "petstore");
    const { digest: _digest, endpointIndex: _index, ...rest } = JSON.parse(readFileSync(path, "utf8"));
    const body = { ...rest, formatVersion: 1 };
    const text = `${canonicalJson({ ...body, digest: digestJson(body) })}\n`;
    writeFileSync(path, text);
    setLockedArtifactDigest(project, "petstore", sha256(text));
    await expect(load(project)).rejects.toMatchObject({
      code: "ARTIFACT_VERSION_UNSUPPORTED",
      details: { formatVersion: 1 },
      message: expect.stringMatching(/re-run `schemarouter compile`/),
    });
  });

  it("refuses calls from old generated bindings after the source changed and was recompiled", async () => {
    const project = await compiledProject();
    const oldClient = await import(join(project.outDir, "petstore.ts"));
    const docPath = join(project.dir, "openapi.yaml");
    writeFileSync(
      docPath,
      readFileSync(docPath, "utf8").replace(
        'schema: { type: string, pattern: "^[a-z0-9-]+$" }',
        'schema: { type: string, pattern: "^[a-z0-9-]+$", maxLength: 40 }',
      ),
    );
    expect((await cli(project, "compile", "--check")).code).toBe(1);
    await compile({ config: project.configPath });
    const router = await load(project);
    const stale = oldClient.createPetstoreClient(router);
    await expect(stale.getPetById({ petId: "rex" })).rejects.toMatchObject({ code: "STALE_FINGERPRINT" });
    // Endpoints whose contract did not change still work, but the tool pin changed too.
    await expect(stale.listPets({})).rejects.toMatchObject({ code: "STALE_TOOL_FINGERPRINT" });
    await router.close();
  });
});
