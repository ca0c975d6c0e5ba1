/**
 * GraphQL end to end against a real server (graphql-js executed by graphql-http's node handler on
 * 127.0.0.1): compile by introspection → lock → load → plan through the facade → invoke through the
 * boundary → projected result; the query the server received; errors-only and partial-data answers;
 * unions; the generated typed client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { isSchemaRouterError, type SchemaRouterError } from "../../runtime/errors/errors.js";
import { type BindingConfig, SchemaRouter } from "../../runtime/router/router.js";
import { type GraphqlServer, LIBRARY_SDL, startGraphqlServer } from "../fixtures/graphql/server.js";
import { tempProject } from "../helpers/project.js";

const project = tempProject("graphql-e2e");
let server: GraphqlServer;
const routers: SchemaRouter[] = [];

beforeAll(async () => {
  server = await startGraphqlServer();
  project.write({
    sources: {
      library: { kind: "graphql", location: server.url, effects: { deleteBook: "destructive" } },
      lenient: { kind: "graphql", location: server.url, partialResults: true },
    },
  });
  await compile({ config: project.configPath, env: {} });
}, 120_000);

afterAll(async () => {
  await Promise.all(routers.map((router) => router.close()));
  await server.close();
});

async function load(policy?: ExecutionPolicy): Promise<SchemaRouter> {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { library: { graphql: {} }, lenient: { graphql: {} } },
    ...(policy !== undefined ? { policy } : {}),
  });
  routers.push(router);
  return router;
}

function pin(
  router: SchemaRouter,
  endpoint: string,
  args: Record<string, unknown>,
  fields?: string[],
  tool = "library",
) {
  const registered = router.registry.get(tool)!;
  return {
    tool,
    endpoint,
    arguments: args,
    ...(fields !== undefined ? { fields } : {}),
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  };
}

async function refusal(promise: Promise<unknown>): Promise<SchemaRouterError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSchemaRouterError(error)) throw new Error(`expected a SchemaRouterError, got ${String(error)}`);
  return error;
}

const lastQuery = () => server.requests.at(-1)!;

describe("compile by introspection", () => {
  it("locks the endpoint URL and the schema digest, and reports what is left out", () => {
    const lock = JSON.parse(readFileSync(project.lockfile, "utf8"));
    const entry = lock.sources.library;
    expect(entry.kind).toBe("graphql");
    expect(entry.documentDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Both sources introspect the same schema: the same digest.
    expect(lock.sources.lenient.documentDigest).toBe(entry.documentDigest);
    const artifact = JSON.parse(readFileSync(join(project.dir, entry.artifact.path), "utf8"));
    const tool = artifact.tools[0];
    expect(tool.execution).toEqual({ transport: "graphql", url: server.url });
    expect(
      tool.endpoints.map(
        (endpoint: { name: string; effect: string }) => `${endpoint.name}:${endpoint.effect}`,
      ),
    ).toEqual([
      "book:read",
      "bookCount:read",
      "books:read",
      "node:read",
      "search:read",
      "addReview:write",
      "deleteBook:destructive",
    ]);
    const constructs = artifact.compatibility.map(
      (issue: { construct: string; level: string }) => `${issue.construct}:${issue.level}`,
    );
    expect(constructs).toContain("subscription:unsupported");
    expect(constructs).toContain("custom-scalar:partial");
  });
});

describe("calls through the boundary", () => {
  it("sends exactly the planned fields plus identifiers, arguments as variables, and projects the result", async () => {
    const router = await load();
    const [result] = await router.invoke(pin(router, "book", { id: "b1" }, ["title", "author.name"]));
    expect(lastQuery().query).toBe(
      "query SchemaRouterCall($id: ID!) { book(id: $id) { title author { name id } id } }",
    );
    expect(lastQuery().variables).toEqual({ id: "b1" });
    expect(result!.data).toEqual({
      book: { title: "The Dispossessed", author: { name: "Ursula K. Le Guin" } },
    });
  });

  it("never writes an argument value into the query text", async () => {
    const router = await load();
    const hostile = 'x") { __schema { types { name } } } #';
    const [result] = await router.invoke(pin(router, "search", { text: hostile }, ["[].id"]));
    expect(lastQuery().query).not.toContain("__schema");
    expect(lastQuery().variables).toEqual({ text: hostile });
    expect(result!.data).toEqual({ search: [] });
  });

  it("selects union members with inline fragments and __typename", async () => {
    const router = await load();
    const [result] = await router.invoke(pin(router, "search", { text: "le" }, ["[].title", "[].name"]));
    expect(lastQuery().query).toBe(
      "query SchemaRouterCall($text: String!) { search(text: $text) { __typename ... on Author { name id } ... on Book { title id } } }",
    );
    expect(result!.data).toEqual({
      search: [{ title: "The Left Hand of Darkness" }, { name: "Ursula K. Le Guin" }],
    });
  });

  it("turns errors without data into TOOL_ERROR with the server's messages as untrusted text", async () => {
    const router = await load();
    const error = await refusal(router.invoke(pin(router, "search", { text: "" }, ["[].id"])));
    expect(error.code).toBe("TOOL_ERROR");
    expect(error.details).toMatchObject({ reason: "graphql-errors", messages: ["search needs some text"] });
    expect(error.message).toContain("untrusted server text");
  });

  it("refuses partial data unless the source accepts partial results", async () => {
    const router = await load();
    const error = await refusal(router.invoke(pin(router, "book", { id: "b3" }, ["title", "rating"])));
    expect(error).toMatchObject({
      code: "TOOL_ERROR",
      details: { reason: "graphql-partial", messages: ["the rating service is down"] },
    });
    expect(error.message).toContain('"partialResults": true');
    const [result] = await router.invoke(pin(router, "book", { id: "b3" }, ["title", "rating"], "lenient"));
    expect(result!.data).toEqual({ book: { title: "The Left Hand of Darkness", rating: null } });
  });

  it("sends mutations with input objects as variables once the policy allows writes", async () => {
    const denied = await load();
    expect(
      (await refusal(denied.invoke(pin(denied, "addReview", { review: { bookId: "b1", stars: 5 } })))).code,
    ).toBe("POLICY_DENIED");
    const router = await load(new ExecutionPolicy({ allowMutations: true }));
    const [result] = await router.invoke(
      pin(router, "addReview", { review: { bookId: "b1", stars: 5 } }, ["stars"]),
    );
    expect(lastQuery().query).toBe(
      "mutation SchemaRouterCall($review: ReviewInput!) { addReview(review: $review) { stars id } }",
    );
    expect(result!.data).toEqual({ addReview: { stars: 5 } });
  });

  it("refuses arguments that do not fit the argument schema before sending", async () => {
    const router = await load();
    const before = server.requests.length;
    const error = await refusal(router.invoke(pin(router, "books", { genre: "POETRY" }, ["[].title"])));
    expect(error.code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(server.requests.length).toBe(before);
  });
});

describe("the facade and the typed client", () => {
  it("plans a call from a data need and invokes it", async () => {
    const router = await load();
    const plan = router.plan({ query: "book title by id", fields: ["title"], arguments: { id: "b2" } });
    const call = plan.calls[0]!;
    expect(`${call.tool}.${call.endpoint}`).toMatch(/^(library|lenient)\.book$/);
    expect(call.fields).toContain("title");
    const [result] = await router.invoke(plan);
    expect((result!.data as { book: { title: string } }).book.title).toBe("Cosmos");
    // The query asks for the planned fields (and their identifiers) only.
    const query = lastQuery().query;
    for (const field of call.fields ?? [])
      expect(query).toContain(field.split(".").at(-1)!.replace("[]", ""));
    expect(query).not.toContain("pages");
  });

  it("calls through the generated typed client", async () => {
    const router = await load();
    const { createClient } = await import(join(project.outDir, "index.ts"));
    const client = createClient(router);
    const books = await client.library.books(
      { genre: "FICTION" },
      { fields: ["[].title", "[].author.name"] },
    );
    expect(books.data).toEqual({
      books: [
        { title: "The Dispossessed", author: { name: "Ursula K. Le Guin" } },
        { title: "The Left Hand of Darkness", author: { name: "Ursula K. Le Guin" } },
      ],
    });
    const count = await client.library.bookCount({});
    expect(count.data).toEqual({ bookCount: 3 });
  });
});

describe("bindings", () => {
  it("needs the endpoint URL for an SDL source, and names a key that is not a GraphQL binding's", async () => {
    const sdl = tempProject("graphql-e2e-sdl");
    sdl.write({ sources: { library: { kind: "graphql", location: LIBRARY_SDL } } });
    await compile({ config: sdl.configPath, env: {} });
    const missing = await refusal(
      SchemaRouter.load({ root: sdl.dir, bindings: { library: { graphql: {} } } }),
    );
    expect(missing).toMatchObject({ code: "BINDING_INVALID", details: { key: "url" } });
    expect(missing.message).toContain("SDL file");
    const typo = await refusal(
      SchemaRouter.load({
        root: sdl.dir,
        bindings: { library: { graphql: { url: server.url }, timeoutMs: 5 } as unknown as BindingConfig },
      }),
    );
    expect(typo).toMatchObject({ code: "BINDING_INVALID", details: { key: "timeoutMs" } });
    const http = await refusal(
      SchemaRouter.load({ root: sdl.dir, bindings: { library: { baseUrl: server.url } } }),
    );
    expect(http.code).toBe("BINDING_NOT_READY");
    const router = await SchemaRouter.load({
      root: sdl.dir,
      bindings: { library: { graphql: { url: server.url } } },
    });
    routers.push(router);
    const [result] = await router.invoke(pin(router, "bookCount", {}));
    expect(result!.data).toEqual({ bookCount: 3 });
  });
});
