/**
 * External `$ref`s of URL-located OpenAPI documents (docs/sources/openapi-external-refs.md), against
 * real node:http servers on 127.0.0.1: same-origin references are fetched with the schema-fetch
 * headers; another origin (another port, another host name), a query string or a file URL is refused
 * and reported without any request; a redirect to another origin is refused; byte and time limits
 * are typed errors naming the limit; the digest covers every document fetched.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { ExternalRefsConfig } from "../../../../compiler/config/external-refs.js";
import { openapiAdapter } from "../../../../compiler/sources/openapi/index.js";
import type { SourceResult } from "../../../../compiler/sources/types.js";
import { cleanupAfterEach } from "../../../helpers/cleanup.js";
import { type Handler, sendJson, startServer, type TestServer } from "../../../helpers/http-server.js";
import { failure } from "../../../helpers/refusal.js";
import { documentWith } from "./external-refs-fixture.js";

const cleanups = cleanupAfterEach();
const TOKEN = "schema-secret-41d2";

async function server(handler: Handler): Promise<TestServer> {
  const started = await startServer(handler);
  cleanups.push(() => started.close());
  return started;
}

/** Serves `routes` by path (a function answers itself); anything else is a 404. */
function routes(table: Record<string, unknown | ((response: ServerResponse) => void)>): Handler {
  return (request, response) => {
    const route = table[request.url ?? ""];
    if (typeof route === "function") return (route as (response: ServerResponse) => void)(response);
    if (route === undefined) return sendJson(response, 404, { error: "not found" });
    sendJson(response, 200, route);
  };
}

async function resolveUrl(location: string, externalRefs: ExternalRefsConfig = { enabled: true }) {
  return openapiAdapter.resolve(
    "pets",
    {
      kind: "openapi",
      location,
      schemaHeaders: { "x-schema-token": { env: "SR_SCHEMA_TOKEN" } },
      externalRefs,
    },
    { cwd: process.cwd(), env: { SR_SCHEMA_TOKEN: TOKEN }, allowInsecureHttp: false },
  );
}

const names = (result: SourceResult) => result.tools[0]!.endpoints.map((endpoint) => endpoint.name).sort();

describe("URL references from a fetched document", () => {
  it("follows same-origin references with the schema headers and refuses every other target unasked", async () => {
    const other = await server(routes({ "/evil.json": { type: "string" } }));
    const pet = { type: "object", properties: { tag: { $ref: "../../shared/common.json#/Tag" } } };
    const table: Record<string, unknown> = {
      "/api/schemas/pet.json": pet,
      "/shared/common.json": { Error: { type: "object" }, Tag: { type: "string" } },
    };
    const origin = await server(routes(table));
    table["/api/openapi.json"] = documentWith({
      pet: { $ref: "schemas/pet.json" },
      error: { $ref: "/shared/common.json#/Error" },
      otherPort: { $ref: `${other.url}/evil.json` },
      otherHost: { $ref: `http://localhost:${origin.port}/api/schemas/pet.json` },
      query: { $ref: "schemas/pet.json?v=2" },
      file: { $ref: "file:///etc/passwd" },
    });
    const result = await resolveUrl(`${origin.url}/api/openapi.json`);
    expect(names(result)).toEqual(["error", "pet"]);
    expect(Object.keys(result.defs).sort()).toEqual(["Error", "Tag", "pet"]);
    expect(result.tools[0]!.metadata?.externalDocuments).toEqual(["/shared/common.json", "schemas/pet.json"]);
    const messages = Object.fromEntries(
      result.compatibility.map((issue) => [issue.pointer.split("/")[2]!.slice(2), issue.message]),
    );
    expect(messages.otherPort).toContain(
      `is on another origin (${other.url}); references are followed only on ${origin.url}`,
    );
    expect(messages.otherHost).toContain(`is on another origin (http://localhost:${origin.port})`);
    expect(messages.query).toContain("carries a query string");
    expect(messages.file).toContain("is not an http(s) URL");
    // Every fetch went to the document's origin, each with the schema header; nothing else was asked.
    expect(origin.requests.map((request) => request.url)).toEqual([
      "/api/openapi.json",
      "/api/schemas/pet.json",
      "/shared/common.json",
    ]);
    for (const request of origin.requests) expect(request.headers["x-schema-token"]).toBe(TOKEN);
    expect(other.requests).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("follows a same-origin redirect and refuses one to another origin before asking it", async () => {
    const other = await server(routes({ "/pet.json": { type: "string" } }));
    const table: Record<string, unknown> = {
      "/api/pet.json": { type: "object" },
      "/api/moved.json": (response: ServerResponse) => {
        response.writeHead(302, { location: "/api/pet.json" }).end();
      },
      "/api/away.json": (response: ServerResponse) => {
        response.writeHead(302, { location: `${other.url}/pet.json` }).end();
      },
      "/api/ok.json": documentWith({ moved: { $ref: "moved.json" } }),
      "/api/bad.json": documentWith({ away: { $ref: "away.json" } }),
    };
    const origin = await server(routes(table));
    expect(names(await resolveUrl(`${origin.url}/api/ok.json`))).toEqual(["moved"]);
    const error = await failure(resolveUrl(`${origin.url}/api/bad.json`));
    expect(error.code).toBe("SOURCE_REDIRECT_REFUSED");
    expect(error.details).toMatchObject({ to: other.url });
    expect(other.requests).toEqual([]);
  });

  it("changes the document digest when only a referenced document changes", async () => {
    const table: Record<string, unknown> = {
      "/openapi.json": documentWith({ pet: { $ref: "pet.json" } }),
      "/pet.json": { type: "object" },
    };
    const origin = await server(routes(table));
    const before = await resolveUrl(`${origin.url}/openapi.json`);
    expect((await resolveUrl(`${origin.url}/openapi.json`)).documentDigest).toBe(before.documentDigest);
    table["/pet.json"] = { type: "object", required: ["id"] };
    expect((await resolveUrl(`${origin.url}/openapi.json`)).documentDigest).not.toBe(before.documentDigest);
  });
});

describe("limits on fetched documents", () => {
  const big = { type: "string", description: "x".repeat(5000) };

  it.each([
    ["with a Content-Length", (response: ServerResponse) => sendJson(response, 200, big)],
    [
      "chunked",
      (response: ServerResponse) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.write(JSON.stringify(big).slice(0, 3000));
        response.end(JSON.stringify(big).slice(3000));
      },
    ],
  ])("maxBytes, %s: EXTERNAL_REF_LIMIT", async (_, answer) => {
    const origin = await server(
      routes({ "/openapi.json": documentWith({ big: { $ref: "big.json" } }), "/big.json": answer }),
    );
    const error = await failure(resolveUrl(`${origin.url}/openapi.json`, { enabled: true, maxBytes: 1000 }));
    expect(error.code).toBe("EXTERNAL_REF_LIMIT");
    expect(error.details).toMatchObject({ limit: "maxBytes", value: 1000 });
  });

  it.each([
    ["an endless chain", "maxDepth", 10, (n: number) => ({ $ref: `${n + 1}.json` })],
    [
      "an endless fan-out",
      "maxDocuments",
      100,
      (n: number) => ({ anyOf: Array.from({ length: 50 }, (_, i) => ({ $ref: `${n * 50 + i + 1}.json` })) }),
    ],
  ] as const)("a server generating %s is stopped by %s (default %d)", async (_, limit, value, next) => {
    const origin = await server((request, response) => {
      const n = Number(/^\/d\/(\d+)\.json$/.exec(request.url ?? "")?.[1]);
      if (request.url === "/d/openapi.json")
        return sendJson(response, 200, documentWith({ x: { $ref: "0.json" } }));
      return sendJson(response, 200, next(n));
    });
    const error = await failure(resolveUrl(`${origin.url}/d/openapi.json`));
    expect(error.code).toBe("EXTERNAL_REF_LIMIT");
    expect(error.details).toMatchObject({ limit, value });
    expect(origin.requests.length).toBeLessThanOrEqual(value + 1);
  });

  it("timeoutMs: a document that never arrives is cut off, with the limit named", async () => {
    const origin = await server(
      routes({
        "/openapi.json": documentWith({ slow: { $ref: "slow.json" } }),
        "/slow.json": () => undefined,
      }),
    );
    const started = Date.now();
    const error = await failure(resolveUrl(`${origin.url}/openapi.json`, { enabled: true, timeoutMs: 300 }));
    expect(error.code).toBe("EXTERNAL_REF_LIMIT");
    expect(error.details).toMatchObject({ limit: "timeoutMs", value: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
