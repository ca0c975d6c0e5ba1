/**
 * The GraphQL source adapter module by module (docs/sources/graphql.md): type mapping to JSON Schema,
 * arguments to parameters, root fields to endpoints and effects, union and interface selection
 * contracts, the introspection request (schema-fetch headers from the environment), and `add graphql`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { graphqlAdapter } from "../../../../compiler/sources/graphql/index.js";
import { isSchemaRouterError, type SchemaRouterError } from "../../../../runtime/errors/errors.js";
import type { EndpointSpec } from "../../../../runtime/model/specs.js";
import { type GraphqlServer, startGraphqlServer } from "../../../fixtures/graphql/server.js";
import { runCli } from "../../../helpers/cli.js";
import { tempProject, writeInto } from "../../../helpers/project.js";

const project = tempProject("graphql-source");

async function resolveSdl(
  sdl: string,
  extra: Record<string, unknown> = {},
  env: Record<string, string> = {},
) {
  const location = writeInto(project, `s-${Math.random().toString(36).slice(2)}.graphql`, sdl);
  return graphqlAdapter.resolve(
    "api",
    { kind: "graphql", location, ...extra },
    { cwd: project.dir, env, allowInsecureHttp: false },
  );
}

const endpointOf = (result: Awaited<ReturnType<typeof resolveSdl>>, name: string): EndpointSpec =>
  result.tools[0]!.endpoints.find((endpoint) => endpoint.name === name)!;

async function refusal(promise: Promise<unknown>): Promise<SchemaRouterError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSchemaRouterError(error)) throw new Error(`expected a SchemaRouterError, got ${String(error)}`);
  return error;
}

const TYPES = `
enum Color { RED GREEN }
input Filter @oneOf { name: String, id: ID }
input Range { from: Int!, to: Int = 10, note: String }
type Thing { id: ID!, count: Int!, ratio: Float, ok: Boolean, color: Color, tags: [String], when: Date }
scalar Date
type Query { things(range: Range!, filter: Filter, limit: Int = 5, color: Color!): [Thing!] }
`;

describe("types and arguments", () => {
  it("maps scalars, enums, input objects, lists and nullability, and reports custom scalars", async () => {
    const result = await resolveSdl(TYPES);
    const things = endpointOf(result, "things");
    expect(things.parameters.map((parameter) => `${parameter.name}:${parameter.required}`)).toEqual([
      "color:true",
      "filter:false",
      "limit:false",
      "range:true",
    ]);
    expect(things.inputSchema).toMatchObject({ required: ["color", "range"], additionalProperties: false });
    expect(result.defs.Range).toEqual({
      type: "object",
      properties: {
        from: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
        note: { type: ["string", "null"] },
        to: { type: ["integer", "null"], minimum: -2147483648, maximum: 2147483647 },
      },
      required: ["from"],
      additionalProperties: false,
    });
    expect(result.defs.Filter).toMatchObject({ minProperties: 1, maxProperties: 1 });
    expect(result.defs.Color).toEqual({ enum: ["GREEN", "RED"] });
    expect(things.parameters.find((parameter) => parameter.name === "filter")!.schema).toEqual({
      anyOf: [{ $ref: "#/$defs/Filter" }, { type: "null" }],
    });
    expect(things.execution).toMatchObject({
      variables: { color: "Color!", filter: "Filter", limit: "Int", range: "Range!" },
    });
    expect(things.outputSchema).toEqual({
      type: "object",
      properties: { things: { type: ["array", "null"], items: { $ref: "#/$defs/Thing" } } },
      required: ["things"],
      additionalProperties: false,
    });
    expect(
      things.fields.map((field) => `${field.id}:${field.datatype}${field.identifier ? ":id" : ""}`),
    ).toEqual([
      "[].color:Color",
      "[].count:Int",
      "[].id:ID:id",
      "[].ok:Boolean",
      "[].ratio:Float",
      "[].tags:String",
      "[].when:Date",
    ]);
    expect(things.fields.find((field) => field.id === "[].tags")!.path).toEqual(["things", "*", "tags"]);
    expect(result.compatibility).toContainEqual(
      expect.objectContaining({ construct: "custom-scalar", pointer: "/types/Date" }),
    );
  });
});

describe("root fields", () => {
  const SDL = `
type Query { item(id: ID!): Item, remove: Int }
type Mutation { remove(id: ID!): Boolean!, rename(id: ID!, name: String!): Item }
type Subscription { changed: Item }
interface Named { name: String }
type Item implements Named { id: ID!, name: String, owner: Owner, parts(first: Int): [Item] }
type User implements Named { login: String!, name: String }
type Team implements Named { slug: String!, name: String, size: Int }
union Owner = User | Team
`;

  it("makes queries read, mutations write unless effects says otherwise, and names a clashing mutation", async () => {
    const result = await resolveSdl(SDL, { effects: { mutation_remove: "destructive" } });
    expect(result.tools[0]!.endpoints.map((endpoint) => `${endpoint.name}:${endpoint.effect}`)).toEqual([
      "item:read",
      "remove:read",
      "mutation_remove:destructive",
      "rename:write",
    ]);
    expect(endpointOf(result, "mutation_remove").execution).toMatchObject({
      operation: "mutation",
      field: "remove",
    });
    expect(result.compatibility).toContainEqual(
      expect.objectContaining({
        construct: "subscription",
        level: "unsupported",
        leftOut: "/subscription/changed",
      }),
    );
  });

  it("refuses effects for something that is not a mutation", async () => {
    const error = await refusal(resolveSdl(SDL, { effects: { item: "destructive" } }));
    expect(error).toMatchObject({
      code: "GRAPHQL_CONFIG_INVALID",
      details: { source: "api", endpoint: "item" },
    });
    expect(error.message).toContain("queries are always read");
  });

  it("records union members per child and leaves out nested fields with arguments", async () => {
    const item = endpointOf(await resolveSdl(SDL), "item");
    expect(item.execution).toMatchObject({
      selection: {
        abstract: ["owner"],
        unions: { owner: { login: ["User"], name: ["Team", "User"], size: ["Team"], slug: ["Team"] } },
      },
    });
    expect(item.fields.map((field) => field.id)).not.toContain("parts[].id");
    expect(item.fields.map((field) => field.id)).toContain("owner.login");
  });

  it("uses the configured provider and the source name otherwise", async () => {
    expect((await resolveSdl(SDL, { provider: "Items Inc" })).tools[0]!.provider).toBe("Items Inc");
    expect((await resolveSdl(SDL)).tools[0]!.provider).toBe("api");
  });
});

describe("introspection", () => {
  let server: GraphqlServer;

  it("sends schema-fetch headers from the environment, and names a missing variable", async () => {
    server = await startGraphqlServer();
    try {
      const context = { cwd: project.dir, allowInsecureHttp: false };
      const config = {
        kind: "graphql" as const,
        location: server.url,
        schemaHeaders: { authorization: { env: "LIB_TOKEN" } },
      };
      const result = await graphqlAdapter.resolve("api", config, {
        ...context,
        env: { LIB_TOKEN: "Bearer t0ken" },
      });
      expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer t0ken");
      expect(server.requests.at(-1)!.query).toContain("__schema");
      expect(result.tools[0]!.execution).toEqual({ transport: "graphql", url: server.url });
      const missing = await refusal(graphqlAdapter.resolve("api", config, { ...context, env: {} }));
      expect(missing).toMatchObject({ code: "SCHEMA_HEADER_ENV_MISSING", details: { env: "LIB_TOKEN" } });
    } finally {
      await server.close();
    }
  });

  it("refuses plain http to a host that is not loopback", async () => {
    const error = await refusal(
      graphqlAdapter.resolve(
        "api",
        { kind: "graphql", location: "http://example.org/graphql" },
        { cwd: project.dir, env: {}, allowInsecureHttp: false },
      ),
    );
    expect(error.code).toBe("URL_NOT_ALLOWED");
  });
});

describe("schemarouter add graphql", () => {
  it("appends the source to the config", async () => {
    const added = tempProject("graphql-add");
    added.write({ sources: {} });
    const run = await runCli(added.dir, ["add", "graphql", "library", "./library.graphql"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Added graphql source "library"');
    expect(JSON.parse(readFileSync(added.configPath, "utf8")).sources).toEqual({
      library: { kind: "graphql", location: "./library.graphql" },
    });
  });
});
