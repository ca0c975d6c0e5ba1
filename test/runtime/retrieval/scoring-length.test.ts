/**
 * The scoring signals of docs/runtime/retrieval-and-planning.md "Scoring" that real catalogs need:
 * the summary component, length normalisation, and first-person requests. Each case is one a user
 * meets on a large document: many endpoints share the request's words, and only how much of an
 * endpoint the request explains tells them apart.
 */
import { describe, expect, it } from "vitest";
import { enumValues } from "../../../runtime/retrieval/enum-values.js";
import { createRetriever } from "../../../runtime/retrieval/index.js";
import { lengthNorms } from "../../../runtime/retrieval/length-norm.js";
import { buildSurface } from "../../../runtime/retrieval/surface.js";
import { BIT, summaryOf } from "../../../runtime/retrieval/surface-builder.js";
import { actionWordOf } from "../../../runtime/retrieval/vocabulary/intent.js";
import { isFirstPerson } from "../../../runtime/retrieval/vocabulary/person.js";
import { endpoint, param, registryOf, tool } from "../../fixtures/catalogs.js";

const routes = (registry: ReturnType<typeof registryOf>, query: string, exhaustive = false) =>
  createRetriever(registry, { exhaustive })
    .rankedEntries({ query }, { limit: 5 })
    .map((e) => e.route);

describe("summary: the first paragraph of a description", () => {
  it.each([
    ["Get a repository\n\nThe `parent` and `source` objects are present when…", "Get a repository"],
    ["List issues", "List issues"],
    [
      "List entities of the entity set Books. Filter with typed parameters, order, page with top and skip, and select.",
      "List entities of the entity set Books.",
    ],
    ["", undefined],
    [undefined, undefined],
    [`${"word ".repeat(30)}\n\nmore`, undefined],
  ])("%j → %j", (description, summary) => {
    expect(summaryOf(description)).toBe(summary);
  });

  it("ranks the endpoint whose summary states the request above one that mentions it in passing", () => {
    const registry = registryOf([
      tool("repo", [
        // The later prose mentions every request word; the summary says something else.
        endpoint("a_hooks", {
          description: "Manage webhooks\n\nWebhooks fire when you archive a repository or delete it.",
        }),
        endpoint("z_archive", {
          description: "Archive a repository\n\nArchived repositories are read-only.",
        }),
      ]),
    ]);
    expect(routes(registry, "archive a repository")[0]).toBe("repo.z_archive");
  });
});

describe("enumerated parameter values", () => {
  it("count as words of the endpoint: what a parameter accepts says what it does", () => {
    const registry = registryOf([
      tool("tracker", [
        endpoint("a_search", { description: "Search issues", parameters: [param("q")] }),
        endpoint("b_list", {
          description: "List issues",
          parameters: [
            param("filter", false, {
              schema: { type: "string", enum: ["assigned", "created", "mentioned"] },
            }),
          ],
        }),
      ]),
    ]);
    expect(routes(registry, "issues mentioned")[0]).toBe("tracker.b_list");
    expect(enumValues({ type: "object", properties: { s: { enum: ["open", "x".repeat(40)] } } }, 0)).toEqual([
      "open",
    ]);
  });
});

describe("length normalisation", () => {
  const registry = registryOf([
    tool("issues", [
      // Same request words on both; without normalisation they tie and the route name decides.
      endpoint("add_assignees_to_issue", { description: "Issue assignees", effect: "write" }),
      endpoint("update_issue", { description: "Issue", effect: "write" }),
    ]),
  ]);

  it("prefers the endpoint whose name the request explains best, in index and exhaustive mode", () => {
    expect(routes(registry, "update an issue")[0]).toBe("issues.update_issue");
    expect(routes(registry, "issue")).toEqual(routes(registry, "issue", true));
    expect(routes(registry, "issue")[0]).toBe("issues.update_issue");
  });

  it("gives 1 at the average length, more below it, less above, and bounds every factor", () => {
    const surface = buildSurface(registry.entries(), true);
    const norms = lengthNorms(surface, 2, [BIT.name], [0.75]);
    const [long, short] = [norms.factorsOf(0)[0]!, norms.factorsOf(1)[0]!];
    expect(short).toBeGreaterThan(1);
    expect(long).toBeLessThan(1);
    expect((long + short) / 2).toBeCloseTo(1, 1);
    expect(norms.favourable[0]).toBe(short);
    // b = 0 leaves the component as it is.
    const flat = lengthNorms(buildSurface(registry.entries(), false), 2, [BIT.name], [0]);
    expect([flat.factorsOf(0)[0], flat.factorsOf(1)[0]]).toEqual([1, 1]);
  });
});

describe("action words of a request's verb", () => {
  it.each([
    ["edit an item", "update"],
    ["close an issue", "update"],
    ["how do I publish a release", "create"],
    ["remove a member", "delete"],
    ["fetch the settings", "get"],
    ["update an item", undefined],
    ["star count of a repository", undefined],
  ])("%j → %j", (text, word) => {
    expect(actionWordOf(text)).toBe(word);
  });

  it("ranks the update endpoint first for 'edit'", () => {
    const registry = registryOf([
      tool("items", [
        endpoint("createItem", { description: "Create an item", effect: "write" }),
        endpoint("updateItem", { description: "Update an item", effect: "write" }),
      ]),
    ]);
    expect(routes(registry, "edit an item")[0]).toBe("items.updateItem");
  });
});

describe("first-person requests", () => {
  it.each([
    ["list my repositories", true],
    ["orgs I belong to", true],
    ["who am I", true],
    ["what's mine", true],
    ["list repositories of a user", false],
    // "I" as the subject of the request's verb, "me" as whom to answer: who asks, not what about.
    ["how do i get a user", false],
    ["I need to list the issues of a repository", false],
    ["show me the open issues", false],
    ["issues assigned to me", true],
    ["immigration records", false],
  ])("%j is first-person: %s", (text, expected) => {
    expect(isFirstPerson(text)).toBe(expected);
  });

  it("ranks the authenticated user's operation first for 'my'", () => {
    const registry = registryOf([
      tool("gh", [
        endpoint("public_gists", { description: "List public gists" }),
        endpoint("user_gists", { description: "List gists for the authenticated user" }),
        endpoint("starred_gists", { description: "List starred gists" }),
      ]),
    ]);
    expect(routes(registry, "list my gists")[0]).toBe("gh.user_gists");
    // Without the pronoun nothing asks for the caller: the shorter summaries explain the request better.
    expect(routes(registry, "list gists")[0]).not.toBe("gh.user_gists");
  });
});
