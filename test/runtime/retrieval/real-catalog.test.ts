/**
 * Routing on real documents, as a new user tries it (issue #21; docs/routing-benchmarks.md "Real
 * catalogs"): GitHub REST (@octokit/openapi, 1,222 operations) and Directus (@directus/specs)
 * compiled with the real compiler from node_modules. The GitHub requests are the issue's own; a
 * read request never gets a write or destructive endpoint first, and the index (pruned top k) gives
 * the same ranking as exhaustive scoring on these documents.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register, resolveSource } from "../../../compiler/compile/compile.js";
import { emitArtifact } from "../../../compiler/emit/artifact.js";
import { Registry } from "../../../runtime/load/registry.js";
import { createRetriever, type Retriever, route } from "../../../runtime/retrieval/index.js";
import { REPO_ROOT } from "../../helpers/project.js";

const DOCUMENTS = {
  github: join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"),
  directus: join(REPO_ROOT, "node_modules/@directus/specs/dist/openapi.json"),
} as const;

const dir = mkdtempSync(join(tmpdir(), "schemarouter-real-catalog-"));
const registries: Partial<Record<keyof typeof DOCUMENTS, Registry>> = {};

async function compiled(name: keyof typeof DOCUMENTS): Promise<Registry> {
  const resolved = await resolveSource(
    name,
    { kind: "openapi", location: DOCUMENTS[name] },
    { cwd: dir, env: {}, allowInsecureHttp: false },
  );
  const { artifact, defs } = emitArtifact(name, "openapi", resolved);
  return new Registry(register(name, "openapi", artifact, defs));
}

let github: Retriever;
let directus: Retriever;

beforeAll(async () => {
  registries.github = await compiled("github");
  registries.directus = await compiled("directus");
  github = createRetriever(registries.github);
  directus = createRetriever(registries.directus);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const first = (retriever: Retriever, query: string) => route(retriever, { query }, { k: 5 }).candidates[0];
const top5 = (retriever: Retriever, query: string) =>
  retriever.rankedEntries({ query }, { limit: 5 }).map((e) => e.route);

describe("GitHub REST, the issue's requests", () => {
  it("'get a repository' routes to repos/get first", () => {
    expect(first(github, "get a repository")?.route).toBe("github.repos/get");
  });

  it("'delete a repository' routes to repos/delete first, not code-scanning/delete-analysis", () => {
    expect(first(github, "delete a repository")?.route).toBe("github.repos/delete");
  });

  it.each([
    "star count of a repository",
    "get all requested reviewers for pull request",
    "get a repository",
    "list my repositories",
  ])("read request %j gets a read endpoint first", (query) => {
    const candidate = first(github, query);
    expect(candidate).toBeDefined();
    expect(candidate!.effect).toBe("read");
  });

  it("'get all requested reviewers' ranks the listing above the write that requests reviewers", () => {
    expect(first(github, "get all requested reviewers for pull request")?.route).toBe(
      "github.pulls/list-requested-reviewers",
    );
  });

  it("'list my repositories' ranks the authenticated user's repositories in the top 5", () => {
    expect(top5(github, "list my repositories")).toContain("github.repos/list-for-authenticated-user");
  });
});

describe('read requests and destructive endpoints (docs/runtime/retrieval-and-planning.md, "Read requests")', () => {
  it("'search code for a function name' is never answered by code-scanning/delete-analysis", () => {
    // Ranking puts search/code first, but only the destructive delete-analysis covers every word.
    expect(github.rankedEntries({ query: "search code for a function name" }, { limit: 1 })[0]?.route).toBe(
      "github.search/code",
    );
    const routed = route(github, { query: "search code for a function name" }, { k: 5 });
    expect(routed.candidates.map((c) => c.effect)).not.toContain("destructive");
  });

  it("a destructive endpoint still answers a request with no read verb, or one that names its effects", () => {
    expect(first(github, "delete an analysis")?.effect).toBe("destructive");
    const named = route(
      github,
      { query: "search code for a function name", effects: ["destructive"] },
      { k: 5 },
    );
    expect(named.candidates[0]?.route).toBe("github.code-scanning/delete-analysis");
  });
});

describe("Directus, first person", () => {
  it("'who am I' routes to the current user", () => {
    expect(first(directus, "who am I")?.route).toBe("directus.getMe");
  });
});

describe("index and exhaustive scoring agree on real documents", () => {
  it.each([
    "list my repositories",
    "close an issue",
    "get a single branch",
    "delete a repository",
    "search code for a function name",
  ])("%j: same top 10, same scores", (query) => {
    const exhaustive = createRetriever(registries.github!, { exhaustive: true });
    const indexed = github.rankedEntries({ query }, { limit: 10 });
    const reference = exhaustive.rankedEntries({ query }, { limit: 10 });
    expect(indexed.map((e) => [e.route, e.score])).toEqual(reference.map((e) => [e.route, e.score]));
  });
});
