/**
 * OPTIMADE through the whole stack: compile the fixture provider into a temp project, load the
 * lockfile, and call through the router: server-side projection of exactly the planned fields,
 * local projection, pagination within local limits, links that leave the listing, local filter
 * checks, typed provider errors, retryable 429/5xx (and retries end to end), binding identity.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../../compiler/compile/compile.js";
import { isSchemaRouterError, type SchemaRouterError } from "../../../../runtime/errors/errors.js";
import { RetryPolicy } from "../../../../runtime/governed/retry.js";
import { type BindingConfig, SchemaRouter } from "../../../../runtime/router/router.js";
import { createOptimadeInvoker } from "../../../../runtime/transports/optimade/transport.js";
import { type OptimadeServer, startOptimadeServer } from "../../../fixtures/optimade/server.js";
import { tempProject } from "../../../helpers/project.js";

type Json = Record<string, unknown>;

let server: OptimadeServer;
let proxy: RewritingProxy;
const project = tempProject("optimade-runtime");
const routers: SchemaRouter[] = [];

beforeAll(async () => {
  server = await startOptimadeServer();
  proxy = await startRewritingProxy(server);
  project.write({
    sources: {
      fixture: { kind: "optimade", location: server.baseUrl },
      proxied: { kind: "optimade", location: `${proxy.url}/v1` },
      overlaid: {
        kind: "optimade",
        location: server.versionedBaseUrl,
        overlays: {
          endpoints: {
            list_structures: {
              fields: [
                {
                  id: "band_gap",
                  path: ["data", "*", "attributes", "_fixture_band_gap"],
                  resultPath: ["data", "*", "band_gap"],
                  unit: "eV",
                },
              ],
            },
          },
        },
      },
    },
  });
  await compile({ config: project.configPath, env: {} });
}, 120_000);

afterAll(async () => {
  await Promise.all(routers.map((router) => router.close()));
  await proxy.close();
  await server.close();
});

async function load(
  bindings: Record<string, BindingConfig> = { fixture: { optimade: {} } },
): Promise<SchemaRouter> {
  const router = await SchemaRouter.load({ root: project.dir, bindings });
  routers.push(router);
  return router;
}

function pin(router: SchemaRouter, endpoint: string, args: Json = {}, fields?: string[], tool = "fixture") {
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

/** The rejection of `promise`, which must be a SchemaRouterError. */
async function refusal(promise: Promise<unknown>): Promise<SchemaRouterError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSchemaRouterError(error)) throw new Error(`expected a SchemaRouterError, got ${String(error)}`);
  return error;
}

const listing = () => server.requests.filter((request) => request.path === "/v1/structures");
const SI_BINARIES = 'elements HAS "Si" AND nelements=2';

describe("server-side and local projection", () => {
  it("sends response_fields for exactly the planned fields plus id and type", async () => {
    const router = await load();
    server.clearRequests();
    const result = await router.call(
      pin(router, "list_structures", { filter: SI_BINARIES, sort: "chemical_formula_reduced" }, [
        "chemical_formula_reduced",
        "lattice_vectors",
      ]),
    );
    expect(listing().map((request) => request.query.response_fields)).toEqual([
      "id,type,chemical_formula_reduced,lattice_vectors",
    ]);
    expect(listing()[0]?.query.filter).toBe(SI_BINARIES);
    const data = (result.data as { data: { attributes: Json }[] }).data;
    expect(data.map((entry) => entry.attributes.chemical_formula_reduced)).toEqual(["CSi", "N4Si3", "O2Si"]);
    // Local projection: no id, type or relationships unless selected.
    expect(Object.keys(data[0]!)).toEqual(["attributes"]);
    expect(Object.keys(data[0]!.attributes).sort()).toEqual(["chemical_formula_reduced", "lattice_vectors"]);
    const lattice = router.registry
      .get("fixture")!
      .endpoints.get("list_structures")!
      .fields.find((field) => field.id === "lattice_vectors");
    expect(lattice?.unit).toBe("Å");
  });

  it("still projects locally when the server returns more than the field (a nested key)", async () => {
    const router = await load();
    server.clearRequests();
    const result = await router.call(
      pin(router, "get_structures", { id: "sio2-alpha-quartz" }, ["id", "species[].name"]),
    );
    expect(server.requests.map((request) => request.query.response_fields)).toEqual(["id,type,species"]);
    expect(result.data).toEqual({
      data: { id: "sio2-alpha-quartz", attributes: { species: [{ name: "Si" }, { name: "O" }] } },
    });
  });

  it("sends only the identifiers when no attribute is planned", async () => {
    const router = await load();
    server.clearRequests();
    const result = await router.call(
      pin(router, "list_structures", { filter: SI_BINARIES }, ["meta.data_returned"]),
    );
    expect(listing()[0]?.query.response_fields).toBe("id,type");
    expect(result.data).toEqual({ meta: { data_returned: 3 } });
  });

  it("selects every declared property when the call plans no fields", async () => {
    const router = await load();
    server.clearRequests();
    await router.call(pin(router, "list_structures", { filter: SI_BINARIES }));
    const sent = listing()[0]?.query.response_fields?.split(",") ?? [];
    expect(sent.slice(0, 2)).toEqual(["id", "type"]);
    expect(sent).toContain("lattice_vectors");
    expect(sent).toContain("_fixture_band_gap");
    expect(new Set(sent).size).toBe(sent.length);
  });

  it("asks for the provider's default fields when a planned field has no selector (overlay)", async () => {
    const router = await load({ overlaid: { optimade: {} } });
    server.clearRequests();
    const result = await router.call(
      pin(router, "list_structures", { filter: "nelements=1", sort: "id" }, ["id", "band_gap"], "overlaid"),
    );
    expect(listing()[0]?.query.response_fields).toBeUndefined();
    expect((result.data as { data: Json[] }).data[0]).toEqual({ id: "al-fcc", band_gap: 0 });
  });

  it("refuses a response_fields argument: the trusted projection sets it", async () => {
    const router = await load();
    server.clearRequests();
    const error = await refusal(router.call(pin(router, "list_structures", { response_fields: "nsites" })));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(server.requests).toHaveLength(0);
  });
});

describe("pagination", () => {
  const binaries = { filter: "nelements=2", sort: "id", page_limit: 3 };

  it("follows links.next within the limits and merges data, keeping the last page's meta", async () => {
    const router = await load();
    server.clearRequests();
    const result = await router.call(
      pin(router, "list_structures", binaries, ["id", "meta.more_data_available", "meta.data_returned"]),
    );
    const body = result.data as { data: { id: string }[]; meta: Json };
    expect(body.data).toHaveLength(10);
    expect(new Set(body.data.map((entry) => entry.id)).size).toBe(10);
    expect(body.meta).toEqual({ more_data_available: false, data_returned: 10 });
    expect(listing().map((request) => request.query.page_offset)).toEqual([undefined, "3", "6", "9"]);
  });

  it.each([
    ["maxPages", { maxPages: 2 }, 6, 2],
    ["maxRecords", { maxRecords: 4 }, 4, 2],
    ["maxRecords on a page boundary", { maxRecords: 3 }, 3, 1],
  ])("stops at %s and says more data is available", async (_name, limits, records, requests) => {
    const router = await load({ fixture: { optimade: limits } });
    server.clearRequests();
    const result = await router.call(
      pin(router, "list_structures", binaries, ["id", "meta.more_data_available"]),
    );
    const body = result.data as { data: unknown[]; meta: Json };
    expect(body.data).toHaveLength(records);
    expect(body.meta.more_data_available).toBe(true);
    expect(listing()).toHaveLength(requests);
  });

  it("refuses responses beyond the byte limit of a call, counted over its pages", async () => {
    const first = await fetch(
      `${server.versionedBaseUrl}/structures?filter=nelements%3D2&sort=id&page_limit=3&response_fields=id,type`,
    );
    const pageBytes = Buffer.byteLength(await first.text());
    const router = await load({ fixture: { optimade: { maxBytes: pageBytes + 100 } } });
    server.clearRequests();
    const error = await refusal(router.call(pin(router, "list_structures", binaries, ["id"])));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(error.details).toMatchObject({ maxBytes: pageBytes + 100 });
    expect(listing()).toHaveLength(2);
  });

  it.each([
    ["another origin", "origin", "next-origin"],
    ["another endpoint of the base path", "path", "next-path"],
  ])("refuses a links.next to %s", async (_name, mode, reason) => {
    const router = await load({ proxied: { optimade: {} } });
    proxy.setMode(mode as ProxyMode);
    try {
      proxy.requests.length = 0;
      const error = await refusal(router.call(pin(router, "list_structures", binaries, ["id"], "proxied")));
      expect(error.code).toBe("TRANSPORT_REFUSED");
      expect(error.details).toMatchObject({ reason });
      expect(proxy.requests).toHaveLength(1);
    } finally {
      proxy.setMode("none");
    }
  });

  it("follows rewritten same-origin links through the proxy", async () => {
    const router = await load({ proxied: { optimade: {} } });
    const result = await router.call(pin(router, "list_structures", binaries, ["id"], "proxied"));
    expect((result.data as { data: unknown[] }).data).toHaveLength(10);
  });
});

describe("filters are checked before any request", () => {
  it.each([
    ["a syntax error", 'elements HAS "Si" AND', "INVALID_FILTER"],
    ["an unknown property", "band_gap < 2", "UNKNOWN_FILTER_PROPERTY"],
    ["an unknown nested property", "foo.bar IS KNOWN", "UNKNOWN_FILTER_PROPERTY"],
  ])("refuses %s locally", async (_name, filter, code) => {
    const router = await load();
    server.clearRequests();
    const error = await refusal(router.call(pin(router, "list_structures", { filter })));
    expect(error.code).toBe(code);
    expect(error.message).toContain("^");
    expect(server.requests).toHaveLength(0);
  });

  it("lets provider-prefixed and relationship properties through to the provider", async () => {
    const router = await load();
    const result = await router.call(
      pin(router, "list_structures", { filter: '_other_band_gap < 2 OR references.id HAS "levien1980"' }, [
        "id",
      ]),
    );
    expect((result.data as { data: { id: string }[] }).data.map((entry) => entry.id)).toEqual([
      "sio2-alpha-quartz",
    ]);
  });

  it("refuses a sort on a property that is not sortable, locally", async () => {
    const router = await load();
    server.clearRequests();
    const error = await refusal(router.call(pin(router, "list_structures", { sort: "lattice_vectors" })));
    expect(error.code).toBe("INPUT_SCHEMA_VIOLATION");
    expect(server.requests).toHaveLength(0);
  });
});

describe("provider errors are typed and carry the provider's detail", () => {
  it.each([
    [
      "400 from the provider",
      { filter: SI_BINARIES, fail: 400 },
      "OPTIMADE_BAD_REQUEST",
      400,
      "Injected 400 answer",
    ],
    [
      "403 page_limit above the maximum",
      { page_limit: 100 },
      "OPTIMADE_FORBIDDEN",
      403,
      "exceeds this provider's maximum of 50",
    ],
    [
      "501 from the provider",
      { filter: SI_BINARIES, fail: 501 },
      "OPTIMADE_NOT_IMPLEMENTED",
      501,
      "Injected 501 answer",
    ],
  ])("%s", async (_name, { fail, ...args }: Record<string, unknown>, code, status, detail) => {
    const router = await load();
    if (typeof fail === "number") server.failNext(fail);
    const error = await refusal(router.call(pin(router, "list_structures", args)));
    expect(error.code).toBe(code);
    expect(error.details).toMatchObject({ status });
    expect(String(error.details.detail)).toContain(detail);
    expect(error.message).toContain(detail);
    expect((error as { retryable?: boolean }).retryable).toBe(false);
  });

  it.each([
    ["a string for an integer property", 'nelements = "two"', "UNSUPPORTED_FILTER", 'nelements = "two"'],
    ["a timestamp that is not RFC 3339", 'last_modified > "yesterday"', "INVALID_FILTER_VALUE", "RFC 3339"],
    ["a number for a string property", "chemical_formula_reduced = 3", "UNSUPPORTED_FILTER", "string"],
  ])("refuses %s locally: no request, no cooldown for the provider", async (_name, filter, code, text) => {
    const router = await load();
    server.clearRequests();
    const error = await refusal(router.call(pin(router, "list_structures", { filter })));
    expect(error.code).toBe(code);
    expect(error.message).toContain("list_structures");
    expect(error.message).toContain(text);
    expect(listing()).toEqual([]);
    expect(router.availability("fixture")).toMatchObject({ available: true });
    // The provider is still used at once for a well-formed filter.
    await router.call(pin(router, "list_structures", { filter: SI_BINARIES }));
    expect(listing()).toHaveLength(1);
  });

  it("maps 404 of a single entry and 553 of an unsupported version", async () => {
    const router = await load();
    const missing = await refusal(router.call(pin(router, "get_structures", { id: "unobtainium" })));
    expect(missing.code).toBe("OPTIMADE_NOT_FOUND");
    expect(String(missing.details.detail)).toContain("unobtainium");
    server.failNext(553);
    const version = await refusal(router.call(pin(router, "list_structures")));
    expect(version.code).toBe("OPTIMADE_VERSION_NOT_SUPPORTED");
    expect(version.details).toMatchObject({ status: 553, detail: "Injected 553 answer (failNext)." });
  });

  it("refuses an invalid envelope and a redirect", async () => {
    const router = await load({ proxied: { optimade: {} } });
    for (const [mode, code] of [
      ["no-meta", "OUTPUT_SCHEMA_VIOLATION"],
      ["wrong-type", "OUTPUT_SCHEMA_VIOLATION"],
      ["redirect", "TRANSPORT_REFUSED"],
    ] as const) {
      proxy.setMode(mode);
      try {
        const error = await refusal(router.call(pin(router, "list_structures", {}, ["id"], "proxied")));
        expect([mode, error.code]).toEqual([mode, code]);
      } finally {
        proxy.setMode("none");
      }
    }
  });

  it.each([
    [429, "7"],
    [500, undefined],
    [503, "1"],
    [504, undefined],
  ])("marks %i retryable with its status and Retry-After", async (status, retryAfter) => {
    const router = await load();
    server.failNext(status, 1, retryAfter === undefined ? {} : { retryAfter: Number(retryAfter) });
    const error = await refusal(router.call(pin(router, "list_structures")));
    expect(error.code).toBe("HTTP_STATUS");
    expect((error as { retryable?: boolean }).retryable).toBe(true);
    expect(error.details).toMatchObject({ status, detail: `Injected ${status} answer (failNext).` });
    expect(error.details.retryAfter).toBe(retryAfter);
  });

  it("is retried end to end by the run's retry policy (read-only call)", async () => {
    const router = await load();
    server.clearRequests();
    server.failNext(429, 1, { retryAfter: 0 });
    server.failNext(503);
    const result = await router.call(pin(router, "list_structures", { filter: SI_BINARIES }, ["id"]), {
      retry: new RetryPolicy({ maxAttempts: 3, initialDelayMs: 0 }),
    });
    expect(result.attempts).toBe(3);
    expect((result.data as { data: unknown[] }).data).toHaveLength(3);
    expect(listing().map((request) => request.status)).toEqual([429, 503, 200]);
  });
});

describe("binding identity", () => {
  it("accepts the locked base URL (trailing slash or not) and refuses another one", async () => {
    await load({ fixture: { optimade: { baseUrl: `${server.versionedBaseUrl}/` } } });
    await load({ fixture: { optimade: { baseUrl: server.baseUrl } } });
    const error = await refusal(load({ fixture: { optimade: { baseUrl: `${proxy.url}/v1` } } }));
    expect(error.code).toBe("LOCK_MISMATCH");
    expect(error.details).toMatchObject({ reason: "binding-identity", expected: server.versionedBaseUrl });
  });

  it("refuses an invalid base URL in the binding", async () => {
    const error = await refusal(load({ fixture: { optimade: { baseUrl: "ftp://127.0.0.1/v1" } } }));
    expect(error.code).toBe("LOCK_MISMATCH");
  });

  it("refuses a call through an invoker bound by hand to another provider", async () => {
    const router = await load();
    router.bind("fixture", createOptimadeInvoker({ baseUrl: `${proxy.url}/v1` }));
    proxy.requests.length = 0;
    const error = await refusal(router.call(pin(router, "list_structures", {}, ["id"])));
    expect(error.code).toBe("TRANSPORT_REFUSED");
    expect(error.details).toMatchObject({ reason: "binding-identity" });
    expect(proxy.requests).toHaveLength(0);
  });

  it("refuses an HTTP binding for an OPTIMADE tool and an OPTIMADE binding with bad limits", async () => {
    const http = await refusal(load({ fixture: { baseUrl: server.versionedBaseUrl } }));
    expect(http.code).toBe("BINDING_NOT_READY");
    await expect(load({ fixture: { optimade: { maxPages: 0 } } })).rejects.toThrow(
      /maxPages must be a positive integer/,
    );
  });
});

type ProxyMode = "none" | "origin" | "path" | "no-meta" | "wrong-type" | "redirect";

interface RewritingProxy {
  readonly url: string;
  readonly requests: string[];
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

/**
 * A real HTTP front of the fixture on another port: it rewrites the fixture's origin to its own in
 * every body, so links stay on the proxy, and in a chosen mode it misbehaves the way a provider can.
 */
async function startRewritingProxy(upstream: OptimadeServer): Promise<RewritingProxy> {
  let mode: ProxyMode = "none";
  const requests: string[] = [];
  let own = "";
  const http: Server = createServer((request, response) => {
    const path = request.url ?? "/";
    if (/\/v1\/structures(\?|$)/.test(path)) requests.push(path);
    if (mode === "redirect") {
      response.writeHead(302, { location: `${own}${path}` }).end();
      return;
    }
    void fetch(`${upstream.url}${path}`).then(async (answer) => {
      let text = (await answer.text()).split(upstream.url).join(own);
      if (answer.headers.get("content-type")?.includes("json") && /\/v1\/structures(\?|$)/.test(path)) {
        const body = JSON.parse(text) as Json;
        const links = (body.links ?? {}) as Json;
        if (mode === "origin" && typeof links.next === "string")
          links.next = links.next.replace(own, upstream.url.replace("127.0.0.1", "localhost"));
        if (mode === "path" && typeof links.next === "string")
          links.next = links.next.replace("/v1/structures", "/v1/references");
        if (mode === "no-meta") delete body.meta;
        if (mode === "wrong-type") for (const entry of body.data as Json[]) entry.type = "references";
        text = JSON.stringify(body);
      }
      response
        .writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" })
        .end(text);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  own = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: own,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error === undefined ? resolve() : reject(error)));
        http.closeAllConnections();
      }),
  };
}
