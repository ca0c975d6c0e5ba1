/**
 * Candidates verified on their own (docs/runtime/loading-and-verification.md, "Candidates"): with the
 * lock-pinned retrieval index and `verify: "first-use"`, `retrieve()` reads only each candidate's
 * bytes (its endpoint line, its tool's skeleton, the shared definitions it uses) and checks them
 * against the digests the index records and the fingerprints the lock pins. Every byte a candidate is
 * built from is checked before it is used: an edited endpoint, endpoint metadata (outside the
 * fingerprint), shared definition, tool contract or tool metadata is refused with LOCK_MISMATCH when
 * it would become a candidate, and the execution-side first use (`registry.get(tool).tool`) still
 * reads and verifies the whole artifact. The edits keep the file's length, so the load's size check
 * passes and only these checks stand between the edit and its use.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { loadCatalog } from "../../../runtime/load/load.js";
import { createRetriever } from "../../../runtime/retrieval/index.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";

async function petstore(): Promise<TempProject> {
  const project = tempProject("candidate-verification");
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  return project;
}

const artifactOf = (project: TempProject) => join(project.outDir, "artifacts", "petstore.json");

/** Replaces `from` by `to` (same length) once in the artifact, leaving every digest as it was. */
function edit(project: TempProject, from: string, to: string): void {
  expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
  const text = readFileSync(artifactOf(project), "utf8");
  expect(text.split(from)).toHaveLength(2);
  writeFileSync(artifactOf(project), text.replace(from, to));
}

const FIND = { query: "find a pet by its id" };
const REMOVE = { query: "remove a pet" };

const mismatch = (reason: string, extra: Record<string, unknown> = {}) =>
  expect.objectContaining({
    code: "LOCK_MISMATCH",
    details: expect.objectContaining({ source: "petstore", reason, ...extra }),
  });

let reference: ReturnType<ReturnType<typeof createRetriever>["retrieve"]>;
beforeAll(async () => {
  const project = await petstore();
  const full = await loadCatalog({ root: project.dir, verify: "full" });
  reference = createRetriever(full.registry).retrieve(FIND, { k: 3 });
  expect(reference[0]!.route).toBe("petstore.getPetById");
}, 120_000);

describe("candidates read and verified on their own", () => {
  it("a candidate is the same contract a full load gives, and reads no other endpoint", async () => {
    const project = await petstore();
    // An edit of another endpoint of the same source: listing getPetById never reads it.
    edit(project, '"description":"Remove a pet."', '"description":"Remove a pot."');
    const loaded = await loadCatalog({ root: project.dir });
    expect(loaded.retrievalIndex).toBe("used");
    const retriever = createRetriever(loaded.registry);
    const [first] = retriever.retrieve(FIND, { k: 1 });
    expect(JSON.parse(JSON.stringify(first))).toEqual(JSON.parse(JSON.stringify(reference[0])));
    expect(Object.isFrozen(first!.inputSchema)).toBe(true);
    // The edited endpoint is refused when it would become a candidate, with the endpoint named.
    expect(() => retriever.retrieve(REMOVE, { k: 5 })).toThrow(
      mismatch("endpoint-fingerprint", { endpoint: "deletePet" }),
    );
    // The failure is remembered.
    expect(() => retriever.retrieve(REMOVE, { k: 5 })).toThrow(mismatch("endpoint-fingerprint"));
    // Planning, calls and bindings read the tool through the registry: the whole file, refused.
    expect(() => loaded.registry.get("petstore")!.tool).toThrow(mismatch("artifact-digest"));
  }, 120_000);

  it("an edited endpoint metadata member, outside the fingerprint, is refused by the recorded digest", async () => {
    const project = await petstore();
    edit(project, '"operationId":"getPetById"', '"operationId":"getPetByIc"');
    const loaded = await loadCatalog({ root: project.dir });
    expect(() => createRetriever(loaded.registry).retrieve(FIND, { k: 1 })).toThrow(
      mismatch("endpoint-fingerprint", { endpoint: "getPetById" }),
    );
  }, 120_000);

  it("an edited shared definition is refused for the candidates that use it, not for the others", async () => {
    const project = await petstore();
    // Owner is used by Pet, which getPetById returns; deletePet uses neither.
    edit(project, '"city":{"type":"string"}', '"citz":{"type":"string"}');
    const loaded = await loadCatalog({ root: project.dir });
    const retriever = createRetriever(loaded.registry);
    expect(() => retriever.retrieve(FIND, { k: 1 })).toThrow(
      mismatch("endpoint-fingerprint", { endpoint: "getPetById" }),
    );
    const [remove] = retriever.retrieve(REMOVE, { k: 1 });
    expect(remove!.route).toBe("petstore.deletePet");
  }, 120_000);

  it("an edited tool contract or tool metadata is refused before any of its candidates is used", async () => {
    for (const [from, to] of [
      ["A small pet store used", "A small pet store usef"],
      ['"version":"1.2.0"', '"version":"1.2.1"'],
    ] as const) {
      const project = await petstore();
      edit(project, from, to);
      const loaded = await loadCatalog({ root: project.dir });
      expect(() => createRetriever(loaded.registry).retrieve(FIND, { k: 1 })).toThrow(
        mismatch("tool-fingerprint", { tool: "petstore" }),
      );
    }
  }, 240_000);

  it("an artifact truncated or removed after load is refused when a candidate is read", async () => {
    const project = await petstore();
    const loaded = await loadCatalog({ root: project.dir });
    writeFileSync(artifactOf(project), "");
    expect(() => createRetriever(loaded.registry).retrieve(FIND, { k: 1 })).toThrow(
      mismatch("endpoint-fingerprint"),
    );
    const again = await petstore();
    const reloaded = await loadCatalog({ root: again.dir });
    rmSync(artifactOf(again));
    expect(() => createRetriever(reloaded.registry).retrieve(FIND, { k: 1 })).toThrow(
      expect.objectContaining({ code: "ARTIFACT_NOT_FOUND" }),
    );
  }, 120_000);

  it("a candidate's tool lists its endpoints when read, each verified on access", async () => {
    const project = await petstore();
    edit(project, '"description":"Remove a pet."', '"description":"Remove a pot."');
    const loaded = await loadCatalog({ root: project.dir });
    const [ranked] = createRetriever(loaded.registry).rankedEntries(FIND, { limit: 1 });
    const tool = ranked!.entry.tool;
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.endpoints)).toBe(true);
    const list = tool.endpoints;
    const locked = Object.keys(loaded.lock.sources.petstore!.tools.petstore!.endpoints);
    expect(list).toHaveLength(locked.length);
    const read = [...Array(list.length).keys()].map((i) => {
      try {
        return list[i]!.name;
      } catch (error) {
        return (error as { code: string }).code;
      }
    });
    // Every endpoint but the edited one reads as itself; the edited one is refused, only it.
    expect(read.filter((name) => name === "LOCK_MISMATCH")).toHaveLength(1);
    expect([...read.filter((name) => name !== "LOCK_MISMATCH"), "deletePet"].sort()).toEqual(
      [...locked].sort(),
    );
    expect(list[read.indexOf("getPetById")]).toBe(ranked!.entry.endpoint);
    // Any serialization of the tool reads the edited endpoint, hence is refused.
    expect(() => JSON.stringify(tool)).toThrow(mismatch("endpoint-fingerprint", { endpoint: "deletePet" }));
  }, 120_000);

  it("an endpoint whose canonical member order JSON.stringify cannot keep verifies, and its edit is refused", async () => {
    // Integer-like keys: canonical order is "10" < "9"; a parsed object lists "9" first.
    const document = {
      openapi: "3.0.3",
      info: { title: "Numbered", version: "1.0.0" },
      paths: {
        "/codes": {
          get: {
            operationId: "listCodes",
            description: "List the numbered codes.",
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { "9": { type: "string" }, "10": { type: "integer" } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const build = async () => {
      const project = tempProject("candidate-order");
      writeFileSync(join(project.dir, "openapi.json"), JSON.stringify(document));
      project.write({ sources: { numbered: { kind: "openapi", location: "openapi.json" } } });
      await compile({ config: project.configPath });
      return project;
    };
    const project = await build();
    const path = join(project.outDir, "artifacts", "numbered.json");
    expect(readFileSync(path, "utf8")).toContain('"10":{"type":"integer"},"9":{"type":"string"}');
    const loaded = await loadCatalog({ root: project.dir });
    const [candidate] = createRetriever(loaded.registry).retrieve({ query: "list numbered codes" }, { k: 1 });
    expect(candidate!.route).toBe("numbered.listCodes");
    expect(Object.keys((candidate!.outputSchema as { properties: object }).properties)).toEqual(["9", "10"]);
    const tampered = await build();
    const text = readFileSync(join(tampered.outDir, "artifacts", "numbered.json"), "utf8");
    writeFileSync(
      join(tampered.outDir, "artifacts", "numbered.json"),
      text.replace('"10":{"type":"integer"}', '"10":{"type":"numeric"}'),
    );
    const forged = await loadCatalog({ root: tampered.dir });
    expect(() =>
      createRetriever(forged.registry).retrieve({ query: "list numbered codes" }, { k: 1 }),
    ).toThrow(expect.objectContaining({ code: "LOCK_MISMATCH" }));
  }, 120_000);
});
