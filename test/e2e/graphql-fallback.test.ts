/**
 * One logical provider over two protocols (docs/sources/graphql.md "Same provider, two protocols"):
 * a REST (OpenAPI) source and a GraphQL source that both name the provider "Library", and a REST
 * mirror of another provider. The planner ranks the GraphQL route first; when the GraphQL server is
 * unavailable, the same-provider REST route is tried first, and the other provider's mirror is never asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { RetryPolicy } from "../../runtime/governed/retry.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { type GraphqlServer, LIBRARY_SDL, startGraphqlServer } from "../fixtures/graphql/server.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { tempProject, writeInto } from "../helpers/project.js";

const project = tempProject("graphql-fallback");
let graphql: GraphqlServer;
let rest: TestServer;
let router: SchemaRouter;

function openapi(title: string, summary: string): string {
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title, version: "1.0.0" },
    paths: {
      "/books/{id}": {
        get: {
          operationId: "getBook",
          summary,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "The book.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { title: { type: "string" }, pages: { type: "integer" } },
                    required: ["title"],
                  },
                },
              },
            },
          },
        },
      },
    },
  });
}

beforeAll(async () => {
  graphql = await startGraphqlServer();
  rest = await startServer((request, response) => {
    if (request.url?.startsWith("/library/")) return sendJson(response, 200, { title: "Cosmos", pages: 365 });
    return sendJson(response, 200, { title: "Mirrored title", pages: 1 });
  });
  writeInto(project, "library.json", openapi("Library", "One book by id: its title and pages."));
  writeInto(project, "mirror.json", openapi("Mirror", "A copied record by id."));
  project.write({
    sources: {
      rest: { kind: "openapi", location: "library.json" },
      mirror: { kind: "openapi", location: "mirror.json" },
      // One object level: a nested `author.books[].title` would also answer a need for "title".
      graph: { kind: "graphql", location: LIBRARY_SDL, provider: "Library", maxDepth: 1 },
    },
  });
  await compile({ config: project.configPath, env: {} });
  router = await SchemaRouter.load({
    root: project.dir,
    bindings: {
      rest: { baseUrl: `${rest.url}/library` },
      mirror: { baseUrl: `${rest.url}/mirror` },
      graph: { graphql: { url: graphql.url } },
    },
  });
}, 120_000);

afterAll(async () => {
  await router.close();
  await rest.close();
  await graphql.close();
});

describe("a provider reachable over REST and GraphQL", () => {
  it("plans the same-provider route over the other protocol first, and takes it when GraphQL is down", async () => {
    const plan = router.plan({
      query: "library book title",
      fields: ["title"],
      arguments: { id: "b2" },
      fallbacks: true,
    });
    const primary = plan.calls[0]!;
    expect(`${primary.tool}.${primary.endpoint}`).toBe("graph.book");
    const routes = (primary.fallbacks ?? []).map(
      (route) => `${route.tool}.${route.endpoint}:${route.sameProvider}`,
    );
    expect(routes).toEqual(["rest.getBook:true", "mirror.getBook:false"]);

    graphql.respondWith((_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end('{"message":"maintenance"}');
    });
    try {
      const [result] = await router.invoke(plan, { retry: new RetryPolicy({ maxAttempts: 1 }) });
      expect(result).toMatchObject({ tool: "rest", endpoint: "getBook", data: { title: "Cosmos" } });
    } finally {
      graphql.respondWith(undefined);
    }
    expect(graphql.requests.at(-1)!.variables).toEqual({ id: "b2" });
    expect(rest.requests.map((request) => request.url)).toEqual(["/library/books/b2"]);
  });
});
