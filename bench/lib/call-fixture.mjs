/**
 * The per-call benchmark's API: an OpenAPI 3.1 document with one record endpoint and one list
 * endpoint, and the JSON bodies the loopback server returns for them (about 2 KB and 1 MB).
 */

const OWNER = {
  type: "object",
  required: ["login", "id"],
  properties: {
    login: { type: "string" },
    id: { type: "integer" },
    url: { type: "string" },
    type: { type: "string", enum: ["User", "Organization"] },
  },
};

const ITEM = {
  type: "object",
  required: ["id", "name", "full_name", "owner", "private", "created_at", "stars"],
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    full_name: { type: "string" },
    description: { type: ["string", "null"] },
    private: { type: "boolean" },
    owner: { $ref: "#/components/schemas/Owner" },
    topics: { type: "array", items: { type: "string" } },
    created_at: { type: "string" },
    updated_at: { type: "string" },
    stars: { type: "integer", minimum: 0 },
    forks: { type: "integer", minimum: 0 },
    language: { type: ["string", "null"] },
    homepage: { type: ["string", "null"] },
    html_url: { type: "string" },
    clone_url: { type: "string" },
    archive_url: { type: "string" },
    issues_url: { type: "string" },
    pulls_url: { type: "string" },
    commits_url: { type: "string" },
    default_branch: { type: "string" },
  },
};

export const FIXTURE_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Bench API", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1" }],
  paths: {
    "/items/{id}": {
      get: {
        operationId: "getItem",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          200: {
            description: "one item",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
          },
        },
      },
    },
    "/items": {
      get: {
        operationId: "listItems",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 1 } }],
        responses: {
          200: {
            description: "many items",
            content: {
              "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Item" } } },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Item: ITEM, Owner: OWNER } },
};

export function itemBody(index = 1) {
  const name = `project-${String(index).padStart(5, "0")}`;
  const base = `https://example.test/repos/octo/${name}`;
  return {
    id: index,
    name,
    full_name: `octo/${name}`,
    description:
      "A repository used by the schemarouter per-call benchmark; its body is about two kilobytes long.",
    private: false,
    owner: { login: "octo", id: 42, url: "https://example.test/users/octo", type: "Organization" },
    topics: ["benchmark", "json", "http", "schema", "typescript", "agents"],
    created_at: "2024-01-02T03:04:05Z",
    updated_at: "2025-06-07T08:09:10Z",
    stars: 1000 + index,
    forks: 10 + (index % 100),
    language: "TypeScript",
    homepage: `https://example.test/${name}`,
    html_url: `${base}/html/view/with/a/long/path/to/pad/the/record`,
    clone_url: `${base}.git/clone/with/a/long/path/to/pad/the/record/further`,
    archive_url: `${base}/{archive_format}{/ref}/with/a/long/path/to/pad/the/record`,
    issues_url: `${base}/issues{/number}/with/a/long/path/to/pad/the/record/more`,
    pulls_url: `${base}/pulls{/number}/with/a/long/path/to/pad/the/record/more/text`,
    commits_url: `${base}/commits{/sha}/with/a/long/path/to/pad/the/record/and/more/text/here`,
    default_branch: "main",
    // Undeclared members are allowed by the schema and dropped by projection.
    notes: "x".repeat(700),
  };
}

export function listBody() {
  return Array.from({ length: 512 }, (_, index) => itemBody(index + 1));
}

/** The fields each benchmark call selects (projection is part of the measured path). */
export const ITEM_FIELDS = ["id", "full_name", "stars"];
export const LIST_FIELDS = ["[].id", "[].full_name", "[].stars"];
