/**
 * The lock-pinned retrieval index at load (docs/runtime/loading-and-verification.md, "Retrieval
 * index"): an index file that is swapped, edited, missing or inconsistent with the lock is refused with
 * LOCK_MISMATCH (reason `retrieval-index`); a lockfile without one (older compilers) still loads and
 * ranks in memory, identically; an intact index of another surface version is not used.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { sha256 } from "../../../runtime/format/fingerprint.js";
import { decodeRetrievalIndex, encodeRetrievalIndex } from "../../../runtime/format/retrieval-index.js";
import { loadCatalog } from "../../../runtime/load/load.js";
import { createRetriever } from "../../../runtime/retrieval/index.js";
import { SURFACE_VERSION } from "../../../runtime/retrieval/surface-builder.js";
import { chooseDocuments } from "../../helpers/directory-project.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

const DOCUMENTS = chooseDocuments(6, 211, 256 * 1024);

async function petstoreProject(extra: Record<string, unknown> = {}): Promise<TempProject> {
  const project = tempProject("retrieval-index");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({
    sources: {
      petstore: { kind: "openapi", location: "openapi.yaml" },
      ...Object.fromEntries(DOCUMENTS.map((path, i) => [`d${i}`, { kind: "openapi", location: path }])),
      ...extra,
    },
  });
  await compile({ config: project.configPath });
  return project;
}

const indexOf = (project: TempProject): string => join(project.outDir, "retrieval-index.bin");
const readLock = (project: TempProject) => JSON.parse(readFileSync(project.lockfile, "utf8"));
const writeLock = (project: TempProject, lock: unknown): void =>
  writeFileSync(project.lockfile, `${JSON.stringify(lock, null, 2)}\n`);

/** Rewrites the index through `edit` and re-pins its digest in the lock (a forger who edits both). */
function reforge(
  project: TempProject,
  edit: (data: ReturnType<typeof decodeRetrievalIndex>) => unknown,
): void {
  const data = decodeRetrievalIndex(readFileSync(indexOf(project)));
  const bytes = encodeRetrievalIndex(edit(data) as typeof data);
  writeFileSync(indexOf(project), bytes);
  const lock = readLock(project);
  lock.retrievalIndex.digest = sha256(bytes);
  writeLock(project, lock);
}

const refused = {
  code: "LOCK_MISMATCH",
  details: expect.objectContaining({ reason: "retrieval-index" }),
};

const REQUESTS = [
  { query: "find pet by id" },
  { query: "list all users and their accounts" },
  { query: "create an order", effects: ["write" as const] },
  { query: "delete" },
];

let project: TempProject;
beforeAll(async () => {
  project = await petstoreProject();
}, 120_000);

describe("loading the retrieval index", () => {
  it("the compiler pins the index in the lockfile and the load uses it", async () => {
    const lock = readLock(project);
    expect(lock.retrievalIndex).toEqual({
      path: "generated/retrieval-index.bin",
      digest: sha256(readFileSync(indexOf(project))),
    });
    const loaded = await loadCatalog({ root: project.dir });
    expect(loaded.retrievalIndex).toBe("used");
    expect(createRetriever(loaded.registry).stats().origin).toBe("stored");
  });

  it("an edited index file is refused with LOCK_MISMATCH (retrieval-index)", async () => {
    const p = await petstoreProject();
    const bytes = readFileSync(indexOf(p));
    bytes[bytes.length - 5]! ^= 1;
    writeFileSync(indexOf(p), bytes);
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject({
      ...refused,
      details: expect.objectContaining({
        reason: "retrieval-index",
        expected: readLock(p).retrievalIndex.digest,
      }),
    });
  }, 120_000);

  it("an index swapped in from another project is refused", async () => {
    const other = await petstoreProject({ extra: { kind: "openapi", location: DOCUMENTS[0]! } });
    const p = await petstoreProject();
    copyFileSync(indexOf(other), indexOf(p));
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject(refused);
  }, 120_000);

  it("a missing index file is refused with a message that says to recompile", async () => {
    const p = await petstoreProject();
    rmSync(indexOf(p));
    const error = await loadCatalog({ root: p.dir }).catch((e: unknown) => e);
    expect(error).toMatchObject(refused);
    expect(String((error as Error).message)).toContain("schemarouter compile");
  }, 120_000);

  it("an index re-pinned by a forger that disagrees with the lock's effects or endpoints is refused", async () => {
    const p = await petstoreProject();
    reforge(p, (data) => ({ ...data, effects: data.effects.map(() => data.effectNames.indexOf("read")) }));
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject(refused);
  }, 120_000);

  it("an index re-pinned with its vocabulary out of order (lookups by binary search) is refused", async () => {
    const q = await petstoreProject();
    reforge(q, (data) => ({
      ...data,
      vocabulary: [...data.vocabulary].reverse(),
      vocabularyIds: Uint32Array.from(data.vocabularyIds).reverse(),
    }));
    await expect(loadCatalog({ root: q.dir })).rejects.toMatchObject(refused);
  }, 120_000);

  it("an index re-pinned in another endpoint order: the source's first use is refused, a full load too", async () => {
    const q = await petstoreProject();
    reforge(q, (data) => {
      // Reverse the petstore tool's endpoints, with their effects (so the lock's pins all still hold).
      const at = data.tools.findIndex((tool) => tool.name === "petstore");
      const start = data.tools.slice(0, at).reduce((n, tool) => n + tool.endpoints.length, 0);
      const length = data.tools[at]!.endpoints.length;
      const effects = Uint8Array.from(data.effects);
      effects.set(data.effects.slice(start, start + length).reverse(), start);
      return {
        ...data,
        effects,
        tools: data.tools.map((tool, i) =>
          i === at ? { ...tool, endpoints: [...tool.endpoints].reverse() } : tool,
        ),
      };
    });
    // The order is the artifact's: a first-use load checks it when the source is first read.
    const loaded = await loadCatalog({ root: q.dir });
    expect(() => loaded.registry.get("petstore")!.tool).toThrow(expect.objectContaining(refused));
    expect(() => createRetriever(loaded.registry).retrieve({ query: "find pet by id" })).toThrow(
      expect.objectContaining(refused),
    );
    await expect(loadCatalog({ root: q.dir, verify: "full" })).rejects.toMatchObject(refused);
  }, 120_000);

  it("a first-use load reads no artifact: a same-length edit is refused on the source's first use", async () => {
    const p = await petstoreProject();
    const artifact = join(p.outDir, "artifacts", "petstore.json");
    const text = readFileSync(artifact, "utf8");
    writeFileSync(artifact, text.replace('"effect":"read"', '"effect":"reaa"'));
    const loaded = await loadCatalog({ root: p.dir });
    expect(loaded.retrievalIndex).toBe("used");
    const mismatch = {
      code: "LOCK_MISMATCH",
      details: expect.objectContaining({ source: "petstore", reason: "artifact-digest" }),
    };
    expect(() => loaded.registry.get("petstore")!.endpoints.get("getPetById")).toThrow(
      expect.objectContaining(mismatch),
    );
    // The failure is remembered; another source is unaffected.
    expect(() => loaded.artifacts.get("petstore")).toThrow(expect.objectContaining(mismatch));
    const other = loaded.registry
      .toolNames()
      .find((name) => loaded.registry.get(name)!.source !== "petstore")!;
    expect(loaded.registry.get(other)!.tool.name).toBe(other);
    await expect(loadCatalog({ root: p.dir, verify: "full" })).rejects.toMatchObject(mismatch);
  }, 120_000);

  it("a first-use load refuses an artifact of another length, or a missing one, at load", async () => {
    const p = await petstoreProject();
    const artifact = join(p.outDir, "artifacts", "petstore.json");
    writeFileSync(artifact, `${readFileSync(artifact, "utf8")} `);
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: expect.objectContaining({ source: "petstore", reason: "artifact-digest" }),
    });
    rmSync(artifact);
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject({ code: "ARTIFACT_NOT_FOUND" });
  }, 120_000);

  it("a lockfile pinning a retrieval index outside the project is LOCK_INVALID", async () => {
    const p = await petstoreProject();
    const lock = readLock(p);
    lock.retrievalIndex.path = "/dev/zero";
    writeLock(p, lock);
    await expect(loadCatalog({ root: p.dir })).rejects.toMatchObject({
      code: "LOCK_INVALID",
      details: expect.objectContaining({ reason: "retrieval-index" }),
    });
  }, 120_000);

  it("a lockfile without a retrieval index (older compilers) loads and ranks identically in memory", async () => {
    const p = await petstoreProject();
    const lock = readLock(p);
    delete lock.retrievalIndex;
    writeLock(p, lock);
    rmSync(indexOf(p));
    const old = await loadCatalog({ root: p.dir });
    expect(old.retrievalIndex).toBe("absent");
    const inMemory = createRetriever(old.registry);
    expect(inMemory.stats().origin).toBe("memory");
    const stored = createRetriever((await loadCatalog({ root: project.dir })).registry);
    for (const request of REQUESTS) {
      const a = inMemory.retrieve(request, { k: 10 }).map((c) => [c.route, c.score]);
      expect(a.length).toBeGreaterThan(0);
      expect(stored.retrieve(request, { k: 10 }).map((c) => [c.route, c.score])).toEqual(a);
    }
  }, 120_000);

  it("an intact index of another surface version is not used: ranking is built in memory", async () => {
    const p = await petstoreProject();
    reforge(p, (data) => ({ ...data, surfaceVersion: SURFACE_VERSION + 1 }));
    const loaded = await loadCatalog({ root: p.dir });
    expect(loaded.retrievalIndex).toBe("other-version");
    const retriever = createRetriever(loaded.registry);
    expect(retriever.stats().origin).toBe("memory");
    expect(retriever.retrieve({ query: "find pet by id" }, { k: 1 })[0]?.route).toBe("petstore.getPetById");
  }, 120_000);

  it('verify: "full" loads with the index and verifies every endpoint', async () => {
    const loaded = await loadCatalog({ root: project.dir, verify: "full" });
    expect(loaded.retrievalIndex).toBe("used");
    expect(createRetriever(loaded.registry).retrieve({ query: "find pet by id" }, { k: 1 })[0]?.route).toBe(
      "petstore.getPetById",
    );
  });
});

describe("compiling the retrieval index", () => {
  it("is deterministic: a fresh compile and an incremental one write byte-identical index and lock", async () => {
    const p = await petstoreProject();
    const first = readFileSync(indexOf(p));
    const firstLock = readFileSync(p.lockfile, "utf8");
    await compile({ config: p.configPath });
    expect(readFileSync(indexOf(p)).equals(first)).toBe(true);
    rmSync(p.outDir, { recursive: true });
    rmSync(p.lockfile);
    await compile({ config: p.configPath, incremental: false });
    expect(readFileSync(indexOf(p)).equals(first)).toBe(true);
    expect(readFileSync(p.lockfile, "utf8")).toBe(firstLock);
  }, 120_000);

  it("--check reports a stale index and does not write it", async () => {
    const p = await petstoreProject();
    const bytes = readFileSync(indexOf(p));
    writeFileSync(indexOf(p), bytes.subarray(0, 100));
    const result = await compile({ config: p.configPath, mode: "check" });
    expect(result.write.stale).toContain(indexOf(p));
    expect(readFileSync(indexOf(p)).length).toBe(100);
  }, 120_000);
});
