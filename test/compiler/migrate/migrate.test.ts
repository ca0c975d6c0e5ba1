/** `schemarouter migrate` on the committed format-version-1 project (docs/reference/formats.md). */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson, digestJson, sha256 } from "../../../runtime/format/fingerprint.js";
import { serializeLockfile } from "../../../runtime/format/lockfile.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { runCli } from "../../helpers/cli.js";
import { REPO_ROOT, tempProject } from "../../helpers/project.js";

const ARTIFACT = join("generated", "artifacts", "petstore.json");

function v1Project() {
  const project = tempProject("migrate");
  cpSync(join(REPO_ROOT, "test", "fixtures", "format-v1"), project.dir, { recursive: true });
  return project;
}

/** Rewrites the version-1 artifact (recomputing its self-digest when asked) and re-pins it in the lock. */
function rewrite(
  dir: string,
  change: (body: Record<string, unknown>) => void,
  options: { selfDigest: boolean },
) {
  const path = join(dir, ARTIFACT);
  const value = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const { digest, ...body } = value;
  change(body);
  const text = `${canonicalJson({ ...body, digest: options.selfDigest ? digestJson(body) : digest })}\n`;
  writeFileSync(path, text);
  const lockPath = join(dir, "schemarouter.lock.json");
  const lock = JSON.parse(readFileSync(lockPath, "utf8"));
  lock.sources.petstore.artifact.digest = sha256(text);
  writeFileSync(lockPath, serializeLockfile(lock));
}

const snapshot = (dir: string) => [
  readFileSync(join(dir, ARTIFACT), "utf8"),
  readFileSync(join(dir, "schemarouter.lock.json"), "utf8"),
];

describe("schemarouter migrate", () => {
  it("the runtime refuses a version-1 artifact and names the command that upgrades it", async () => {
    const project = v1Project();
    await expect(SchemaRouter.load({ lockfile: project.lockfile })).rejects.toMatchObject({
      code: "ARTIFACT_VERSION_UNSUPPORTED",
      message: expect.stringContaining("Run `schemarouter migrate` to upgrade it"),
    });
  });

  it("--check reports what would be upgraded, exits 1, and writes nothing", async () => {
    const project = v1Project();
    const before = snapshot(project.dir);
    const result = await runCli(project.dir, ["migrate", "--check"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      "would upgrade 1 artifact(s):\n  petstore: generated/artifacts/petstore.json format 1 → 2\nRun `schemarouter migrate` to write them.\n",
    );
    expect(snapshot(project.dir)).toEqual(before);
  });

  it("upgrades to the current format with every fingerprint unchanged; a second run has nothing to do", async () => {
    const project = v1Project();
    const lockBefore = JSON.parse(readFileSync(project.lockfile, "utf8"));
    const result = await runCli(project.dir, ["migrate"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("upgraded 1 artifact(s):");
    const lockAfter = JSON.parse(readFileSync(project.lockfile, "utf8"));
    expect(lockAfter.sources.petstore.tools).toEqual(lockBefore.sources.petstore.tools);
    expect(lockAfter.sources.petstore.artifact.digest).not.toBe(lockBefore.sources.petstore.artifact.digest);
    const router = await SchemaRouter.load({ lockfile: project.lockfile, verify: "full" });
    expect(router.registry.get("petstore")!.fingerprint).toBe(
      lockBefore.sources.petstore.tools.petstore.fingerprint,
    );
    await router.close();
    const again = await runCli(project.dir, ["migrate", "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ migrations: [], current: ["petstore"], written: false });
  });

  it.each([
    [
      "an artifact whose bytes differ from the lock",
      (dir: string) => writeFileSync(join(dir, ARTIFACT), `${readFileSync(join(dir, ARTIFACT), "utf8")} `),
      "LOCK_MISMATCH",
      "differs from the digest",
    ],
    [
      "a contract changed after it was compiled (an effect widened, lock re-pinned)",
      (dir: string) =>
        rewrite(
          dir,
          (body) => {
            const tools = body.tools as { endpoints: { effect: string }[] }[];
            tools[0]!.endpoints[0]!.effect = "write";
          },
          { selfDigest: false },
        ),
      "LOCK_MISMATCH",
      "was modified after it was compiled",
    ],
    [
      "a member no version-1 artifact has (e.g. a smuggled binding)",
      (dir: string) =>
        rewrite(
          dir,
          (body) => Object.assign(body, { bindings: { petstore: { headers: { authorization: "x" } } } }),
          {
            selfDigest: true,
          },
        ),
      "ARTIFACT_INVALID",
      'member(s) "bindings" that no version-1 artifact has',
    ],
    [
      "an unknown future format",
      (dir: string) =>
        rewrite(dir, (body) => Object.assign(body, { formatVersion: 9 }), { selfDigest: true }),
      "ARTIFACT_VERSION_UNSUPPORTED",
      "written by a newer schemarouter",
    ],
  ])("refuses %s (exit 2) and writes nothing", async (_name, spoil, code, text) => {
    const project = v1Project();
    spoil(project.dir);
    const before = snapshot(project.dir);
    const result = await runCli(project.dir, ["migrate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error [${code}]:`);
    expect(result.stderr).toContain(text);
    expect(snapshot(project.dir)).toEqual(before);
  });
});
