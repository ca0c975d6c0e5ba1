/**
 * OData v4 end to end against SAP CAP (`@sap/cds`, its OData adapter and URL parser) on 127.0.0.1:
 * compile the service's $metadata → lock → bindings → plan and invoke through the facade and the
 * generated typed client. CAP parses every `$filter`, `$select`, key and function literal we send,
 * so a wrongly escaped literal fails here as CAP's own 400.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { isSchemaRouterError, type SchemaRouterError } from "../../runtime/errors/errors.js";
import { type BindingConfig, SchemaRouter } from "../../runtime/router/router.js";
import { type CapServer, startCapServer } from "../fixtures/odata/cap-server.js";
import { tempProject } from "../helpers/project.js";

type Json = Record<string, unknown>;

let cap: CapServer;
const project = tempProject("odata-e2e");
const routers: SchemaRouter[] = [];

beforeAll(async () => {
  cap = await startCapServer();
  project.write({ sources: { shop: { kind: "odata", location: cap.serviceRoot } } });
  await compile({ config: project.configPath, env: {} });
}, 120_000);

afterAll(async () => {
  await Promise.all(routers.map((router) => router.close()));
  await cap.close();
});

async function load(options: { policy?: ExecutionPolicy; odata?: Json } = {}): Promise<SchemaRouter> {
  const bindings: Record<string, BindingConfig> = { shop: { odata: options.odata ?? {} } };
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings,
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
  });
  routers.push(router);
  return router;
}

function pin(router: SchemaRouter, endpoint: string, args: Json = {}, fields?: string[]) {
  const registered = router.registry.get("shop")!;
  return {
    tool: "shop",
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

const last = () => cap.requests.at(-1)!;
const sinceRequest = (count: number) => cap.requests.slice(count);

describe("entity sets", () => {
  it("sends $select for exactly the planned fields plus the key, and projects locally", async () => {
    const router = await load();
    const result = await router.call(pin(router, "Books_list", { top: 2 }, ["title", "price"]));
    expect(last().query).toEqual({ $top: "2", $select: "ID,title,price" });
    expect(result.data).toEqual({
      value: [
        { title: "Wuthering Heights", price: "11.11" },
        { title: "Jane Eyre", price: "12.34" },
      ],
    });
  });

  it("builds $filter from typed per-property comparisons; CAP parses the escaped literals", async () => {
    const router = await load();
    const quoted = await router.call(
      pin(router, "Books_list", { filter: { title: { eq: "O'Brien's Atlas" } } }, ["ID", "title"]),
    );
    expect(last().query.$filter).toBe("title eq 'O''Brien''s Atlas'");
    expect(quoted.data).toEqual({ value: [{ ID: 272, title: "O'Brien's Atlas" }] });

    const combined = await router.call(
      pin(
        router,
        "Books_list",
        {
          filter: {
            stock: { ge: 11, lt: 400 },
            published: { lt: "1900-01-01" },
            title: { contains: "e" },
          },
          orderby: ["stock desc"],
          count: true,
        },
        ["ID", "stock", "count"],
      ),
    );
    // Comparisons follow the declared property order (title, stock, …, published): deterministic URLs.
    expect(last().query.$filter).toBe(
      "contains(title,'e') and stock ge 11 and stock lt 400 and published lt 1900-01-01",
    );
    expect(last().query.$orderby).toBe("stock desc");
    expect(combined.data).toEqual({
      "@odata.count": 3,
      value: [
        { ID: 251, stock: 333 },
        { ID: 201, stock: 12 },
        { ID: 207, stock: 11 },
      ],
    });
  });

  it("keeps Edm.Int64 exact as a string (IEEE754Compatible) in filters and results", async () => {
    const router = await load();
    const result = await router.call(
      pin(router, "Books_list", { filter: { isbn13: { eq: "9223372036854775807" } } }, ["isbn13", "title"]),
    );
    expect(last().query.$filter).toBe("isbn13 eq 9223372036854775807");
    expect(result.data).toEqual({
      value: [{ isbn13: "9223372036854775807", title: 'Catweazle\'s "Guide"' }],
    });
  });

  it("refuses a free-text filter and an undeclared filter property before anything is sent", async () => {
    const router = await load();
    const before = cap.requests.length;
    const text = await refusal(router.call(pin(router, "Books_list", { filter: "stock gt 1 or 1 eq 1" })));
    expect(text.code).toBe("INPUT_SCHEMA_VIOLATION");
    const undeclared = await refusal(
      router.call(pin(router, "Books_list", { filter: { secret: { eq: 1 } } })),
    );
    expect(undeclared.code).toBe("INPUT_SCHEMA_VIOLATION");
    const wrongType = await refusal(
      router.call(pin(router, "Books_list", { filter: { stock: { eq: "1 or true" } } })),
    );
    expect(wrongType.code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(cap.requests.length).toBe(before);
  });

  it("follows @odata.nextLink on the same entity set, within the page limit", async () => {
    const router = await load();
    const before = cap.requests.length;
    const all = await router.call(pin(router, "Books_list", {}, ["ID", "more_data_available"]));
    const pages = sinceRequest(before);
    // CAP pages by 3 (@cds.query.limit) and links a last, empty page after a full one.
    expect(pages.map((request) => [request.path, request.query.$skiptoken])).toEqual([
      ["/odata/v4/catalog/Books", undefined],
      ["/odata/v4/catalog/Books", "3"],
      ["/odata/v4/catalog/Books", "6"],
    ]);
    expect((all.data as { value: Json[] }).value.map((book) => book.ID)).toEqual([
      201, 207, 251, 252, 271, 272,
    ]);
    expect(all.data).not.toHaveProperty("@schemarouter.moreDataAvailable");

    const limited = await load({ odata: { maxPages: 1 } });
    const one = await limited.call(pin(limited, "Books_list", {}, ["ID", "more_data_available"]));
    expect(one.data).toEqual({
      "@schemarouter.moreDataAvailable": true,
      value: [{ ID: 201 }, { ID: 207 }, { ID: 251 }],
    });
  });

  it("reads one entity by key, and a missing key is ODATA_ERROR 404 with the service's text", async () => {
    const router = await load();
    const book = await router.call(pin(router, "Books_get", { ID: 207 }, ["title", "updatedAt", "uuid"]));
    expect(last().path).toBe("/odata/v4/catalog/Books(207)");
    expect(last().query).toEqual({ $select: "ID,title,updatedAt,uuid" });
    expect(book.data).toEqual({
      title: "Jane Eyre",
      updatedAt: "2026-01-03T10:00:00Z",
      uuid: "7f9619ff-8b86-d011-b42d-00c04fc964ff",
    });
    const missing = await refusal(router.call(pin(router, "Books_get", { ID: 999 })));
    expect(missing.code).toBe("ODATA_ERROR");
    expect(missing.details).toMatchObject({ status: 404, route: "shop.Books_get" });
    expect(missing.message).toMatch(
      /^shop\.Books_get: the OData service answered HTTP 404 \(service text, untrusted:/,
    );
  });

  it("reads a singleton", async () => {
    const router = await load();
    const shop = await router.call(pin(router, "Shop_get", {}, ["name"]));
    expect(last().path).toBe("/odata/v4/catalog/Shop");
    expect(shop.data).toEqual({ name: "The Bookshop" });
  });
});

describe("functions and actions", () => {
  it("calls an unbound function with an escaped inline parameter, and a bound function by key", async () => {
    const router = await load();
    const stock = await router.call(pin(router, "stockOf", { title: "Jane Eyre" }));
    expect(last().path).toBe("/odata/v4/catalog/stockOf(title='Jane%20Eyre')");
    expect(stock.data).toEqual({ value: 11 });
    const related = await router.call(pin(router, "Books_related", { ID: 251 }, ["title"]));
    expect(last().path).toBe("/odata/v4/catalog/Books(251)/bookshop.CatalogService.related()");
    expect(related.data).toEqual({ value: [{ title: "Eleonora" }] });
  });

  it("classifies functions as read and actions as write: the default policy refuses actions", async () => {
    const router = await load();
    const effects = Object.fromEntries(
      [...router.registry.get("shop")!.endpoints.values()].map((endpoint) => [
        endpoint.name,
        endpoint.effect,
      ]),
    );
    expect(effects).toMatchObject({
      stockOf: "read",
      booksByGenre: "read",
      Books_related: "read",
      order: "write",
      Books_restock: "write",
    });
    const before = cap.requests.length;
    const denied = await refusal(router.call(pin(router, "order", { book: 201, quantity: 1 })));
    expect(denied.code).toBe("POLICY_DENIED");
    expect(cap.requests.length).toBe(before);
  });

  it("posts an action's parameters as JSON when mutations are allowed; its error body is ODATA_ERROR", async () => {
    const router = await load({ policy: new ExecutionPolicy({ allowMutations: true }) });
    const ordered = await router.call(pin(router, "order", { book: 201, quantity: 2 }));
    expect(last().method).toBe("POST");
    expect(cap.orders.at(-1)).toEqual({ book: 201, quantity: 2 });
    expect(ordered.data).toEqual({ value: 10 });
    const tooMany = await refusal(router.call(pin(router, "order", { book: 201, quantity: 1000 })));
    expect(tooMany.code).toBe("ODATA_ERROR");
    expect(tooMany.details).toMatchObject({
      status: 409,
      odataCode: "409",
      detail: "1000 exceeds stock for book #201",
    });
  });
});

describe("the facade and the generated client", () => {
  it("plans a field-first call through the facade and invokes it", async () => {
    const router = await load();
    const filter = { genre: { eq: "poetry" } };
    const plan = router.plan({ query: "book titles and their stock", arguments: { filter } });
    expect(plan.calls[0]).toMatchObject({
      tool: "shop",
      endpoint: "Books_list",
      arguments: { filter },
      fields: ["ID", "title", "stock"],
    });
    const [result] = await router.invoke(plan);
    expect(last().query).toEqual({ $filter: "genre eq 'poetry'", $select: "ID,title,stock" });
    expect(result!.data).toEqual({ value: [{ ID: 251, title: "The Raven", stock: 333 }] });
  });

  it("calls through the typed client, narrowed to the selected fields", async () => {
    const router = await load();
    const { createClient } = await import(join(project.outDir, "index.ts"));
    const client = createClient(router);
    const books = await client.shop.booksList(
      { filter: { genre: { eq: "poetry" } } },
      { fields: ["title", "genre"] },
    );
    expect(last().query).toEqual({ $filter: "genre eq 'poetry'", $select: "ID,title,genre" });
    expect(books.data).toEqual({ value: [{ title: "The Raven", genre: "poetry" }] });
  });

  it("names a wrong binding key, and refuses an HTTP binding for the OData tool", async () => {
    const wrongKey = await refusal(
      SchemaRouter.load({
        root: project.dir,
        bindings: { shop: { odata: {}, baseURL: cap.serviceRoot } as never },
      }),
    );
    expect(wrongKey.code).toBe("BINDING_INVALID");
    expect(wrongKey.message).toContain('bindings.shop: "baseURL" is not a key of an ODATA binding');
    const http = await refusal(
      SchemaRouter.load({ root: project.dir, bindings: { shop: { baseUrl: cap.serviceRoot } } }),
    );
    expect(http.code).toBe("BINDING_NOT_READY");
    expect(http.message).toBe("bindings.shop: an HTTP binding (baseUrl) was given for a odata tool.");
  });

  it("refuses a binding for another service root (LOCK_MISMATCH)", async () => {
    const error = await refusal(load({ odata: { serviceRoot: "http://127.0.0.1:1/odata/v4/other" } }));
    expect(error.code).toBe("LOCK_MISMATCH");
    expect(error.message).toContain("is not the one that was compiled and locked");
  });
});
