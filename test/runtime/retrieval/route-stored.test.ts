/**
 * route() and plan() on a compiled project loaded with its stored retrieval index
 * (docs/runtime/retrieval-and-planning.md, "Stored index" and "Unsupported requests"): the coverage
 * rules for paraphrases — frame words, the quantity vocabulary, reference points — give the same
 * answer as on an in-memory registry, since coverage reads only the ranked endpoints.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetriever } from "../../../runtime/retrieval/retriever.js";
import { route } from "../../../runtime/retrieval/route.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import type { TempProject } from "../../helpers/project.js";
import { compileWeather, weatherProject } from "./embeddings/project.js";

let project: TempProject;
let router: SchemaRouter;
beforeAll(async () => {
  project = weatherProject();
  await compileWeather(project, false);
  router = await SchemaRouter.load({ lockfile: project.lockfile });
}, 120_000);
afterAll(() => router?.close());

describe("route() over a loaded project with its stored index", () => {
  it("was compiled with a stored retrieval index", () => {
    expect(existsSync(join(project.outDir, "retrieval-index.bin"))).toBe(true);
  });

  it("plans a paraphrase onto the declared field and names what no endpoint covers", () => {
    const plan = router.plan({ query: "how damp is it outside" });
    expect(plan.calls[0]).toMatchObject({ tool: "weather", endpoint: "getObservation" });
    expect(plan.calls[0]!.fields).toContain("humidity");
    const fromIndex = route(createRetriever(router.registry), { query: "how damp is it outside" });
    expect(fromIndex.rejected).toBe(false);
    expect(fromIndex.candidates[0]).toMatchObject({ route: "weather.getObservation", effect: "read" });
    expect(route(createRetriever(router.registry), { query: "how warm the soil is" })).toMatchObject({
      rejected: true,
      uncovered: [{ concept: "soil", kind: "concept" }],
    });
  });
});
