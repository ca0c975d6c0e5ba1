/**
 * Build-time document fetch (compiler/fetch.ts) and the OpenAPI source over URLs: URL rules, size
 * and time bounds, same-origin-only redirects, schema-fetch headers from named environment variables
 * kept apart from runtime API credentials, and sanitized locations in the artifact and lockfile.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { checkSourceUrl, fetchDocument } from "../../../compiler/sources/fetch.js";
import { SchemaRouterError } from "../../../runtime/errors/errors.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { type Handler, sendJson, startServer, type TestServer } from "../../helpers/http-server.js";

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Things", version: "1" },
  servers: [{ url: "https://api.things.example/v1" }],
  paths: {
    "/things/{id}": {
      get: {
        operationId: "getThing",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { type: "object", properties: { id: { type: "string" }, size: { type: "integer" } } },
              },
            },
          },
        },
      },
    },
  },
};
const SPEC_TEXT = JSON.stringify(SPEC);

const cleanups = cleanupAfterEach();

async function server(handler: Handler): Promise<TestServer> {
  const started = await startServer(handler);
  cleanups.push(() => started.close());
  return started;
}

const serveSpec: Handler = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(SPEC_TEXT);
};

async function tempDir(): Promise<string> {
  await mkdir(join(process.cwd(), "test", "tmp"), { recursive: true });
  const dir = await mkdtemp(join(process.cwd(), "test", "tmp", "fetch-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a config with one OpenAPI source and returns its path. */
async function project(
  source: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const dir = await tempDir();
  const config = join(dir, "schemarouter.config.json");
  await writeFile(
    config,
    JSON.stringify({
      outDir: "out",
      runtimeImport: "schemarouter",
      ...extra,
      sources: { things: { kind: "openapi", ...source } },
    }),
  );
  return config;
}

async function refusal(promise: Promise<unknown>): Promise<SchemaRouterError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaRouterError);
    return error as SchemaRouterError;
  }
  throw new Error("expected a refusal, but the promise resolved");
}

const open = { headers: {}, allowInsecureHttp: false };

describe("checkSourceUrl", () => {
  const allowed: [string, string][] = [
    ["https", "https://example.com/openapi.json"],
    ["http on 127.0.0.1", "http://127.0.0.1:8080/openapi.json"],
    ["http on another 127/8 address", "http://127.3.4.5/openapi.json"],
    ["http on localhost", "http://localhost/openapi.json"],
    ["http on [::1]", "http://[::1]:9/openapi.json"],
  ];
  it.each(allowed)("allows %s", (_name, url) => {
    expect(checkSourceUrl("s", url, false).toString()).toBe(new URL(url).toString());
  });

  const refused: [string, string, boolean][] = [
    ["http to a public host", "http://example.com/openapi.json", false],
    ["http to a host that only starts like loopback", "http://127.0.0.1.evil.example/openapi.json", false],
    ["http to localhost.<domain>", "http://localhost.evil.example/openapi.json", false],
    ["http to 0.0.0.0", "http://0.0.0.0/openapi.json", false],
    ["credentials (https)", "https://user:s3cret-pw@example.com/openapi.json", false],
    ["credentials even with allowInsecureHttp", "http://user:s3cret-pw@example.com/openapi.json", true],
    ["a username only", "https://token@example.com/openapi.json", false],
    ["file:", "file:///etc/passwd", true],
    ["ftp:", "ftp://example.com/openapi.json", true],
    ["not a URL", "not a url", false],
  ];
  it.each(refused)("refuses %s (URL_NOT_ALLOWED)", (_name, url, allowInsecureHttp) => {
    let caught: unknown;
    try {
      checkSourceUrl("s", url, allowInsecureHttp);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SchemaRouterError);
    expect((caught as SchemaRouterError).code).toBe("URL_NOT_ALLOWED");
    expect((caught as SchemaRouterError).message).not.toContain("s3cret-pw");
  });

  it("allows http to a non-loopback host only with allowInsecureHttp", () => {
    expect(checkSourceUrl("s", "http://example.com/openapi.json", true).hostname).toBe("example.com");
  });
});

describe("fetchDocument", () => {
  it("returns the document bytes", async () => {
    const s = await server(serveSpec);
    const bytes = await fetchDocument("s", `${s.url}/openapi.json`, open);
    expect(Buffer.from(bytes).toString("utf8")).toBe(SPEC_TEXT);
  });

  it("refuses a declared Content-Length over the limit without reading the body (SOURCE_TOO_LARGE)", async () => {
    // The body never arrives: waiting for it would end in a timeout, not in SOURCE_TOO_LARGE.
    const s = await server((_request, response) => {
      response.writeHead(200, { "content-length": 1_000_000 });
      response.flushHeaders();
    });
    const error = await refusal(
      fetchDocument("s", `${s.url}/big.json`, { ...open, limits: { maxBytes: 1024, timeoutMs: 5_000 } }),
    );
    expect(error.code).toBe("SOURCE_TOO_LARGE");
  });

  it("abandons a body whose declared Content-Length is over the limit without an unhandled error", async () => {
    // The whole body arrives: undici reports the destroyed body as an error event, which must be heard
    // (vitest fails the run on an unhandled error).
    const s = await server((_request, response) => sendJson(response, 200, { text: "x".repeat(5000) }));
    const error = await refusal(
      fetchDocument("s", `${s.url}/big.json`, { ...open, limits: { maxBytes: 1024, timeoutMs: 5_000 } }),
    );
    expect(error.code).toBe("SOURCE_TOO_LARGE");
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it("stops reading a chunked body at the limit (SOURCE_TOO_LARGE)", async () => {
    const s = await server((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("x".repeat(800));
      response.write("x".repeat(800)); // never ends
    });
    const error = await refusal(
      fetchDocument("s", `${s.url}/big.json`, { ...open, limits: { maxBytes: 1024, timeoutMs: 5_000 } }),
    );
    expect(error.code).toBe("SOURCE_TOO_LARGE");
  });

  it("accepts a document of exactly the limit", async () => {
    const s = await server((_request, response) => response.end("y".repeat(1024)));
    const bytes = await fetchDocument("s", `${s.url}/x`, { ...open, limits: { maxBytes: 1024 } });
    expect(bytes.byteLength).toBe(1024);
  });

  it("times out a server that never answers (SOURCE_FETCH_FAILED)", async () => {
    const s = await server(() => undefined);
    const error = await refusal(
      fetchDocument("s", `${s.url}/slow.json`, { ...open, limits: { timeoutMs: 150 } }),
    );
    expect(error.code).toBe("SOURCE_FETCH_FAILED");
  }, 10_000);

  it("fails a non-2xx answer without echoing the query string (SOURCE_FETCH_FAILED)", async () => {
    const s = await server((_request, response) => sendJson(response, 404, { error: "missing" }));
    const error = await refusal(fetchDocument("s", `${s.url}/missing.json?token=q-s3cret`, open));
    expect(error.code).toBe("SOURCE_FETCH_FAILED");
    expect(error.details.status).toBe(404);
    expect(error.message).not.toContain("q-s3cret");
  });

  it("follows same-origin redirects (absolute and relative) and sends the schema header each time", async () => {
    const s = await server((request, response) => {
      if (request.url === "/start") {
        response.writeHead(301, {
          location: `http://127.0.0.1:${(request.socket.localPort ?? 0).toString()}/middle`,
        });
        response.end();
      } else if (request.url === "/middle") {
        response.writeHead(307, { location: "/docs/openapi.json" });
        response.end();
      } else serveSpec(request, response, "");
    });
    const bytes = await fetchDocument("s", `${s.url}/start`, {
      ...open,
      headers: { "x-schema-token": "schema-secret" },
    });
    expect(Buffer.from(bytes).toString("utf8")).toBe(SPEC_TEXT);
    expect(s.requests.map((r) => r.url)).toEqual(["/start", "/middle", "/docs/openapi.json"]);
    expect(s.requests.map((r) => r.headers["x-schema-token"])).toEqual([
      "schema-secret",
      "schema-secret",
      "schema-secret",
    ]);
  });

  const crossOrigin: [string, (other: TestServer) => string][] = [
    ["another port", (other) => `${other.url}/openapi.json`],
    ["another host name for the same address", (other) => `http://localhost:${other.port}/openapi.json`],
    ["another scheme", (other) => `https://127.0.0.1:${other.port}/openapi.json`],
  ];
  it.each(crossOrigin)(
    "refuses a redirect to %s (SOURCE_REDIRECT_REFUSED); the other origin receives nothing",
    async (_name, target) => {
      const other = await server(serveSpec);
      const s = await server((_request, response) => {
        response.writeHead(302, { location: target(other) });
        response.end();
      });
      const error = await refusal(
        fetchDocument("s", `${s.url}/openapi.json`, {
          ...open,
          headers: { "x-schema-token": "schema-secret" },
        }),
      );
      expect(error.code).toBe("SOURCE_REDIRECT_REFUSED");
      expect(other.requests).toEqual([]);
    },
  );

  it("refuses a same-origin redirect that adds credentials to the URL (URL_NOT_ALLOWED)", async () => {
    const s = await server((request, response) => {
      if (request.url === "/start") {
        response.writeHead(302, {
          location: `http://user:pw@127.0.0.1:${(request.socket.localPort ?? 0).toString()}/openapi.json`,
        });
        response.end();
      } else serveSpec(request, response, "");
    });
    const error = await refusal(fetchDocument("s", `${s.url}/start`, open));
    expect(error.code).toBe("URL_NOT_ALLOWED");
    expect(s.requests).toHaveLength(1);
  });

  it("fails a redirect with an unparseable Location (SOURCE_FETCH_FAILED)", async () => {
    const s = await server((_request, response) => {
      response.writeHead(302, { location: "http://[" });
      response.end();
    });
    expect((await refusal(fetchDocument("s", `${s.url}/x`, open))).code).toBe("SOURCE_FETCH_FAILED");
  });

  it.each([
    ["a redirect loop", 5],
    ["a redirect without Location", 0],
  ])("fails %s (SOURCE_FETCH_FAILED)", async (_name, maxRedirects) => {
    const s = await server((_request, response) => {
      response.writeHead(302, maxRedirects > 0 ? { location: "/again" } : {});
      response.end();
    });
    const error = await refusal(fetchDocument("s", `${s.url}/again`, { ...open, limits: { maxRedirects } }));
    expect(error.code).toBe("SOURCE_FETCH_FAILED");
    expect(s.requests.length).toBe(maxRedirects + 1);
  });
});

describe("OpenAPI source over a URL (compile)", () => {
  const schemaHeaders = { "X-Schema-Token": { env: "SR_TEST_SCHEMA_TOKEN" } };

  it("refuses a schema header whose environment variable is unset (SCHEMA_HEADER_ENV_MISSING) before fetching", async () => {
    const s = await server(serveSpec);
    const config = await project({ location: `${s.url}/openapi.json`, schemaHeaders });
    const error = await refusal(compile({ config, mode: "write", env: {} }));
    expect(error.code).toBe("SCHEMA_HEADER_ENV_MISSING");
    expect(error.details).toMatchObject({ env: "SR_TEST_SCHEMA_TOKEN" });
    expect(s.requests).toEqual([]);
  });

  it("keeps schema headers and runtime API credentials apart", async () => {
    const schema = await server(serveSpec);
    const api = await server((request, response) =>
      sendJson(response, 200, { id: request.url ?? "", size: 3 }),
    );
    const config = await project({ location: `${schema.url}/openapi.json`, schemaHeaders });
    const result = await compile({ config, mode: "write", env: { SR_TEST_SCHEMA_TOKEN: "schema-secret" } });
    expect(schema.requests).toHaveLength(1);
    expect(schema.requests[0]?.headers["x-schema-token"]).toBe("schema-secret");

    const router = await SchemaRouter.load({
      lockfile: result.config.lockfile,
      bindings: { things: { baseUrl: `${api.url}/v1`, headers: { authorization: "Bearer api-secret" } } },
    });
    cleanups.push(() => router.close());
    const registered = router.registry.get("things")!;
    const call = await router.call({
      tool: "things",
      endpoint: "getThing",
      arguments: { id: "t1" },
      fields: ["size"],
      endpointFingerprint: registered.endpointFingerprints.get("getThing")!,
      toolFingerprint: registered.fingerprint,
    });
    expect(call.data).toEqual({ size: 3 });

    // The API server gets the binding credential and never the schema header; the schema server
    // never sees the API credential; no secret is persisted.
    expect(api.requests.map((r) => r.url)).toEqual(["/v1/things/t1"]);
    expect(api.requests[0]?.headers.authorization).toBe("Bearer api-secret");
    expect(api.requests[0]?.headers["x-schema-token"]).toBeUndefined();
    expect(schema.requests).toHaveLength(1);
    expect(JSON.stringify(schema.requests)).not.toContain("api-secret");
    for (const file of result.files) expect(file.contents).not.toContain("schema-secret");
  });

  it("refuses plain http to a non-loopback host (URL_NOT_ALLOWED) unless allowInsecureHttp is set", async () => {
    // 0.0.0.0 is not a loopback name, but on Linux and macOS a connection to it reaches this host.
    const s = await server(serveSpec);
    const location = `http://0.0.0.0:${s.port}/openapi.json`;
    const refusedConfig = await project({ location });
    expect((await refusal(compile({ config: refusedConfig, mode: "write", env: {} }))).code).toBe(
      "URL_NOT_ALLOWED",
    );
    expect(s.requests).toEqual([]);

    const allowedConfig = await project({ location }, { allowInsecureHttp: true });
    const result = await compile({ config: allowedConfig, mode: "write", env: {} });
    expect(result.lock.sources.things?.location).toBe(location);
    expect(s.requests).toHaveLength(1);
  });

  it("refuses credentials in the source URL (URL_NOT_ALLOWED) without contacting the server or echoing them", async () => {
    const s = await server(serveSpec);
    const config = await project({ location: `http://user:s3cret-pw@127.0.0.1:${s.port}/openapi.json` });
    const error = await refusal(compile({ config, mode: "write", env: {} }));
    expect(error.code).toBe("URL_NOT_ALLOWED");
    expect(error.message).not.toContain("s3cret-pw");
    expect(s.requests).toEqual([]);
  });

  it("persists a sanitized location (no query string or fragment) in the artifact and the lockfile", async () => {
    const s = await server(serveSpec);
    const config = await project({ location: `${s.url}/openapi.json?token=q-s3cret#frag-x` });
    const result = await compile({ config, mode: "write", env: {} });
    expect(s.requests[0]?.url).toBe("/openapi.json?token=q-s3cret");
    const clean = `${s.url}/openapi.json`;
    expect(result.lock.sources.things?.location).toBe(clean);
    const artifact = JSON.parse(
      await readFile(join(result.config.outDir, "artifacts", "things.json"), "utf8"),
    ) as { source: { location: string } };
    expect(artifact.source.location).toBe(clean);
    for (const file of result.files) {
      expect(file.contents).not.toContain("q-s3cret");
      expect(file.contents).not.toContain("frag-x");
    }
  });

  it("refuses a cross-origin redirect during compile (SOURCE_REDIRECT_REFUSED) and the schema header stays home", async () => {
    const other = await server(serveSpec);
    const s = await server((_request, response) => {
      response.writeHead(302, { location: `${other.url}/openapi.json` });
      response.end();
    });
    const config = await project({ location: `${s.url}/openapi.json`, schemaHeaders });
    const error = await refusal(
      compile({ config, mode: "write", env: { SR_TEST_SCHEMA_TOKEN: "schema-secret" } }),
    );
    expect(error.code).toBe("SOURCE_REDIRECT_REFUSED");
    expect(s.requests[0]?.headers["x-schema-token"]).toBe("schema-secret");
    expect(other.requests).toEqual([]);
  });
});
