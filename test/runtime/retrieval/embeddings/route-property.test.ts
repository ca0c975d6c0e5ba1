/**
 * The guarantees of routing with vectors (docs/runtime/embeddings.md, "Routing with vectors"), as
 * properties over generated catalogs and requests: whatever the threshold, every candidate route()
 * returns is returned in its order; a rejection whose gaps include a unit, qualifier, semantic ID or
 * field stays a rejection; a need covered only by vectors has a field at the threshold; and every
 * candidate is a registered endpoint with its current fingerprints whose effect the request allows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EFFECTS, type Effect } from "../../../../runtime/model/specs.js";
import { routeWithEmbeddings } from "../../../../runtime/retrieval/embeddings/route.js";
import { createRetriever } from "../../../../runtime/retrieval/retriever.js";
import { route } from "../../../../runtime/retrieval/route.js";
import type { RetrievalRequest } from "../../../../runtime/retrieval/types.js";
import { ambiguousCatalog } from "../../../fixtures/catalogs.js";
import { catalogIndex, embedder } from "./catalog-index.js";

const catalog = ambiguousCatalog({ seed: 11 });

describe("routing with vectors over the high-ambiguity catalog", () => {
  const words = [
    ...new Set(
      catalog.tools.flatMap((tool) =>
        tool.endpoints.flatMap((e) => e.fields.map((f) => f.id)).flatMap((t) => t.split(/[_\W]+/)),
      ),
    ),
    "warm",
    "muggy",
    "damp",
    "moisture",
    "rainfall",
    "breezy",
    "in kelvin",
    "in mph",
    "soil",
    "how",
    "is",
  ].filter((w) => w.length > 0);
  const requestArb = fc.record(
    {
      query: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((w) => w.join(" ")),
      effects: fc.subarray<Effect>([...EFFECTS], { minLength: 1 }),
    },
    { requiredKeys: ["query"] },
  ) as fc.Arbitrary<RetrievalRequest>;

  it("never drops or reorders a lexical candidate and covers a rejected need only at the threshold", async () => {
    const index = await catalogIndex(catalog.tools);
    const retriever = createRetriever(catalog.registry);
    const registry = catalog.registry;
    // Each outcome must occur across the runs, or the property says nothing.
    const seen = { lexical: 0, rescued: 0, stillRejected: 0, attributeGap: 0 };
    await fc.assert(
      fc.asyncProperty(
        requestArb,
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: -0.2, max: 0.9, noNaN: true }),
        async (request, k, minFieldSimilarity) => {
          const lexical = route(retriever, request, { k });
          const result = await routeWithEmbeddings(retriever, index, embedder, request, {
            k,
            minFieldSimilarity,
          });
          if (!lexical.rejected) {
            seen.lexical++;
            expect(result.rejected).toBe(false);
            expect(result.candidates.map((c) => c.route)).toEqual(lexical.candidates.map((c) => c.route));
            expect(result.coveredByEmbedding).toEqual([]);
          } else if (lexical.uncovered.some((gap) => gap.kind !== "concept")) {
            seen.attributeGap++;
            expect(result).toMatchObject({ rejected: true, candidates: [] });
            expect(result.uncovered).toEqual(lexical.uncovered);
          }
          if (lexical.rejected && result.rejected) seen.stillRejected++;
          if (lexical.rejected && !result.rejected) {
            seen.rescued++;
            expect(result.coveredByEmbedding.length).toBeGreaterThan(0);
            expect(result.candidates.length).toBeGreaterThan(0);
          }
          expect(result.candidates.length).toBeLessThanOrEqual(k);
          expect(result.candidates.map((c) => c.rank)).toEqual(result.candidates.map((_, i) => i + 1));
          for (const candidate of result.candidates) {
            const registered = registry.get(candidate.tool)!;
            expect(candidate.toolFingerprint).toBe(registered.fingerprint);
            expect(candidate.endpointFingerprint).toBe(
              registered.endpointFingerprints.get(candidate.endpoint),
            );
            expect(request.effects ?? EFFECTS).toContain(candidate.effect);
            if (candidate.embedding.origin === "embedding") {
              expect(candidate.embedding.lexicalRank).toBeNull();
              expect(candidate.embedding.similarity!).toBeGreaterThanOrEqual(minFieldSimilarity);
              expect(candidate.embedding.field).toBeDefined();
            }
          }
        },
      ),
      { numRuns: 150, seed: 21 },
    );
    expect(seen.lexical).toBeGreaterThan(0);
    expect(seen.rescued).toBeGreaterThan(0);
    expect(seen.stillRejected).toBeGreaterThan(0);
    expect(seen.attributeGap).toBeGreaterThan(0);
  });
});
