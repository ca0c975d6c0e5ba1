/** OpenAPI parameters: locations, required flags, path-level merging, sensitive headers, unsupported query serialization. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { endpointOf, resolve, SPECS, tempDocs } from "./helpers.js";

const { writeDoc } = tempDocs();

describe("parameters", () => {
  it("maps locations, keeps required flags and schemas, and forces path parameters required", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const list = endpointOf(result, "listPets");
    expect(list.parameters.map((p) => [p.name, p.location, p.required, p.schema])).toEqual([
      ["limit", "query", false, { type: "integer", minimum: 1 }],
      ["tags", "query", false, { type: "array", items: { type: "string" } }],
      ["X-Request-Id", "header", true, { type: "string" }],
    ]);
    expect(list.inputSchema).toEqual({
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1 },
        tags: { type: "array", items: { type: "string" } },
        "X-Request-Id": { type: "string" },
      },
      required: ["X-Request-Id"],
      additionalProperties: false,
    });
  });

  it("merges path-level and operation-level parameters; the operation's declaration wins", async () => {
    const result = await resolve(join(SPECS, "petstore-30.yaml"));
    const get = endpointOf(result, "getPet");
    expect(get.parameters.map((p) => [p.name, p.location, p.required, p.description, p.schema])).toEqual([
      ["petId", "path", true, undefined, { type: "string" }],
      ["fields", "query", false, "operation-level", { type: "integer" }],
      ["verbose", "query", false, undefined, { type: "boolean" }],
    ]);
    const del = endpointOf(result, "deletePet");
    expect(del.parameters.map((p) => [p.name, p.description ?? null])).toEqual([
      ["petId", null],
      ["fields", "path-level"],
    ]);
  });

  const SENSITIVE = [
    "Authorization",
    "Cookie",
    "Host",
    "Proxy-Authorization",
    "Connection",
    "Transfer-Encoding",
    "Content-Length",
    "TE",
    "Upgrade",
    "Set-Cookie",
    "X-Api-Key",
    "proxy-connection",
    "authorization",
  ];
  it.each(SENSITIVE)(
    "never makes the %s header a tool parameter and reports it with its pointer",
    async (header) => {
      const doc = {
        openapi: "3.1.0",
        info: { title: "h", version: "1" },
        paths: {
          "/h": {
            get: {
              operationId: "h",
              parameters: [
                { name: header, in: "header", required: true, schema: { type: "string" } },
                { name: "X-Fine", in: "header", schema: { type: "string" } },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      };
      const result = await resolve(writeDoc(doc));
      expect(endpointOf(result, "h").parameters.map((p) => p.name)).toEqual(["X-Fine"]);
      expect(endpointOf(result, "h").inputSchema).not.toHaveProperty("required");
      expect(result.compatibility).toEqual([
        expect.objectContaining({ pointer: "/paths/~1h/get/parameters/0", construct: "sensitive-header" }),
      ]);
    },
  );
});

describe("query serialization the transport does not perform", () => {
  it("reports explode: false arrays and form-style objects with their pointers", async () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "q", version: "1" },
      paths: {
        "/q": {
          get: {
            operationId: "q",
            parameters: [
              {
                name: "ids",
                in: "query",
                explode: false,
                schema: { type: "array", items: { type: "integer" } },
              },
              { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
              {
                name: "filter",
                in: "query",
                schema: { type: "object", properties: { a: { type: "string" } } },
              },
              { name: "deep", in: "query", style: "deepObject", schema: { type: "object" } },
              { name: "json", in: "query", content: { "application/json": { schema: { type: "object" } } } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const result = await resolve(writeDoc(doc));
    expect(endpointOf(result, "q").parameters.map((p) => p.name)).toEqual([
      "ids",
      "tags",
      "filter",
      "deep",
      "json",
    ]);
    expect(result.compatibility.map((issue) => [issue.pointer, issue.construct])).toEqual([
      ["/paths/~1q/get/parameters/0/explode", "parameter-style"],
      ["/paths/~1q/get/parameters/2/schema", "parameter-style"],
      ["/paths/~1q/get/parameters/3/style", "parameter-style"],
      ["/paths/~1q/get/parameters/4/content", "parameter-content"],
    ]);
  });
});
