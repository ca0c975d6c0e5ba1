/**
 * The guarantees of retrieval with vectors (docs/runtime/embeddings.md, "Guarantees"), as properties
 * over generated catalogs and requests: every lexical top-k candidate is kept, at most `add` others
 * join, each added one clears `minSimilarity` and the request's effects, every candidate is a
 * registered endpoint with its current fingerprints, and ranks are 1..n.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EFFECTS, type Effect } from "../../../../runtime/model/specs.js";
import { retrieveWithEmbeddings } from "../../../../runtime/retrieval/embeddings/retrieve.js";
import { createRetriever } from "../../../../runtime/retrieval/retriever.js";
import type { RetrievalRequest } from "../../../../runtime/retrieval/types.js";
import { ambiguousCatalog, generatedCatalog } from "../../../fixtures/catalogs.js";
import { catalogIndex, embedder } from "./catalog-index.js";

const CATALOGS = [
  ["high-ambiguity", ambiguousCatalog({ seed: 11 })],
  ["generated", generatedCatalog(300, { seed: 5 })],
] as const;

describe.each(CATALOGS)("retrieval with vectors over the %s catalog", (_name, catalog) => {
  const words = [
    ...new Set(
      catalog.tools.flatMap((tool) =>
        tool.endpoints
          .flatMap((e) => [e.name, ...e.fields.map((f) => f.id)])
          .flatMap((t) => t.split(/[_\W]+/)),
      ),
    ),
    "warm",
    "muggy",
    "rain",
    "breezy",
    "how",
    "is",
  ].filter((w) => w.length > 0);
  const requestArb = fc.record(
    {
      query: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }).map((w) => w.join(" ")),
      effects: fc.subarray<Effect>([...EFFECTS], { minLength: 1 }),
    },
    { requiredKeys: ["query"] },
  ) as fc.Arbitrary<RetrievalRequest>;

  it("never drops a lexical top-k candidate, adds at most `add`, and grants nothing", async () => {
    const index = await catalogIndex(catalog.tools);
    const retriever = createRetriever(catalog.registry);
    const registry = catalog.registry;
    // Both kinds of candidate must occur across the runs, or the property says nothing.
    const seen = { lexical: 0, embedding: 0 };
    await fc.assert(
      fc.asyncProperty(
        requestArb,
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 0.8, noNaN: true }),
        async (request, k, addShare, minSimilarity) => {
          const add = Math.floor(addShare * k);
          const lexical = retriever.retrieve(request, { k });
          const result = await retrieveWithEmbeddings(retriever, index, embedder, request, {
            k,
            add,
            minSimilarity,
          });
          const routes = result.map((c) => c.route);
          for (const candidate of lexical) expect(routes).toContain(candidate.route);
          expect(result.length).toBeLessThanOrEqual(lexical.length + add);
          expect(new Set(routes).size).toBe(routes.length);
          expect(result.map((c) => c.rank)).toEqual(result.map((_, i) => i + 1));
          for (const candidate of result) {
            seen[candidate.embedding.origin]++;
            const registered = registry.get(candidate.tool)!;
            expect(candidate.toolFingerprint).toBe(registered.fingerprint);
            expect(candidate.endpointFingerprint).toBe(
              registered.endpointFingerprints.get(candidate.endpoint),
            );
            if (candidate.embedding.origin === "embedding") {
              expect(candidate.embedding.lexicalRank).toBeNull();
              expect(candidate.embedding.similarity!).toBeGreaterThanOrEqual(minSimilarity);
              expect(request.effects ?? EFFECTS).toContain(candidate.effect);
              expect(lexical.map((c) => c.route)).not.toContain(candidate.route);
            } else {
              expect(lexical[candidate.embedding.lexicalRank! - 1]!.route).toBe(candidate.route);
            }
          }
        },
      ),
      { numRuns: 150, seed: 2112 },
    );
    expect(seen.lexical).toBeGreaterThan(0);
    expect(seen.embedding).toBeGreaterThan(0);
  });
});
