import { describe, expect, it } from "vitest";
import { plan } from "../../../runtime/planner/index.js";
import { endpoint, field, registryOf, tool } from "../../fixtures/catalogs.js";

const text = { schema: { type: "string" }, datatype: "string" } as const;
const registry = registryOf([
  tool("library", [
    endpoint("book", {
      description: "A book with its author.",
      fields: [
        field("id", { identifier: true, ...text }),
        field("title", text),
        field("author.name", { path: ["author", "name"], ...text }),
        field("author.books[].title", { path: ["author", "books", "*", "title"], ...text }),
      ],
    }),
  ]),
]);

describe("field selection prefers the shallowest field among equal matches", () => {
  it("selects the top-level title, not the nested one with the same last segment", () => {
    const out = plan(registry, { query: "the title" });
    expect(out.calls[0]?.fields).toEqual(["id", "title"]);
    expect(out.explanations[0]?.droppedFields).toEqual([
      { field: "author.books[].title", reason: "deeper-than:title" },
    ]);
  });

  it("keeps a nested field the request names more of", () => {
    const out = plan(registry, { query: "author books title" });
    expect(out.calls[0]?.fields).toContain("author.books[].title");
  });
});
