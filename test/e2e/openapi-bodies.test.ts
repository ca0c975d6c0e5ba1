/**
 * Request and response bodies beyond JSON objects, end to end (compile → artifact/lock → bindings →
 * governed call against node:http on 127.0.0.1): multipart/form-data uploads (Blockfrost's real
 * `/ipfs/add`, parsed server-side by Node's own multipart parser, `Request.formData()`), non-object
 * JSON bodies carried as one `body` parameter, and text/* responses (GitHub's real `/zen` and
 * `/markdown`) returned as a declared string. Binary responses are left out and reported.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import type { CompatibilityIssue, ToolSpec } from "../../runtime/model/specs.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { REPO_ROOT, tempProject, writeInto } from "../helpers/project.js";

const BLOCKFROST = join(REPO_ROOT, "node_modules/@blockfrost/openapi/openapi.yaml");
const GITHUB = join(REPO_ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

/** Parses a logged multipart request with Node's (undici's) own parser. */
async function formDataOf(request: { headers: IncomingMessage["headers"]; raw: Buffer }): Promise<FormData> {
  return new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": String(request.headers["content-type"]) },
    body: request.raw,
  }).formData();
}

/** GitHub's real `/zen` and `/markdown` operations (text/plain and text/html responses). */
function githubTextDocument(): string {
  const github = JSON.parse(readFileSync(GITHUB, "utf8")) as Record<string, Record<string, unknown>>;
  return JSON.stringify({
    openapi: github.openapi,
    info: github.info,
    paths: { "/zen": github.paths!["/zen"], "/markdown": github.paths!["/markdown"] },
    components: github.components,
  });
}

/** Non-object JSON bodies and multipart parts of every kind (a document of our own, table-driven below). */
const shapes = {
  openapi: "3.1.0",
  info: { title: "shapes", version: "1" },
  paths: {
    "/tags": {
      put: {
        operationId: "replaceTags",
        parameters: [{ name: "body", in: "query", schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { type: "array", items: { type: "string" }, maxItems: 3 } },
          },
        },
        responses: { "204": { description: "done" } },
      },
    },
    "/count": {
      put: {
        operationId: "setCount",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "integer", minimum: 0 } } },
        },
        responses: { "204": { description: "done" } },
      },
    },
    "/upload": {
      post: {
        operationId: "upload",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["title", "image"],
                properties: {
                  title: { type: "string" },
                  count: { type: "integer" },
                  meta: { type: "object", properties: { author: { type: "string" } } },
                  tags: { type: "array", items: { type: "string" } },
                  image: { type: "string", contentMediaType: "image/png" },
                  attachments: { type: "array", items: { type: "string", format: "binary" } },
                  notes: { type: "string" },
                },
              },
              encoding: {
                image: { contentType: "image/png", headers: { "X-Rate": { schema: { type: "integer" } } } },
                notes: { contentType: "text/csv" },
              },
            },
          },
        },
        responses: {
          "201": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/report.pdf": {
      get: {
        operationId: "report",
        responses: {
          "200": {
            description: "pdf",
            content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    "/mixed": {
      get: {
        operationId: "mixed",
        responses: {
          "200": { description: "json", content: { "application/json": { schema: { type: "object" } } } },
          "203": { description: "text", content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
    },
  },
};

const project = tempProject("openapi-bodies");
let server: TestServer;

beforeAll(async () => {
  writeInto(project, "github.json", githubTextDocument());
  writeInto(project, "shapes.json", JSON.stringify(shapes));
  project.write({
    sources: {
      blockfrost: { kind: "openapi", location: BLOCKFROST },
      github: { kind: "openapi", location: "github.json" },
      shapes: { kind: "openapi", location: "shapes.json" },
    },
  });
  await compile({ config: project.configPath });
  server = await startServer((request, response, body) => {
    if (request.url === "/zen") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      return response.end("Design for failure.");
    }
    if (request.url === "/markdown") {
      response.writeHead(200, { "content-type": "text/html" });
      return response.end("<p>Hello <strong>world</strong></p>");
    }
    if (request.url?.startsWith("/ipfs/add"))
      return sendJson(response, 200, {
        name: "notes.txt",
        ipfs_hash: "QmZ4tDuvesekSs4qM5ZBKpXiZGun7S2CYtEZRB3DYXkjGx",
        size: "11",
      });
    if (request.url === "/upload") return sendJson(response, 201, { ok: true, bytes: body.length });
    response.writeHead(204);
    response.end();
  });
}, 120_000);
afterAll(() => server.close());

async function client(options: { maxResponseBytes?: number } = {}) {
  const binding = { baseUrl: server.url, ...options };
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: {
      blockfrost: { ...binding, headers: { project_id: "test-project" } },
      github: binding,
      shapes: binding,
    },
    policy: new ExecutionPolicy({ allowMutations: true }),
  });
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return { router, api: createClient(router) };
}

describe("multipart/form-data request bodies", () => {
  it("Blockfrost's /ipfs/add takes the file as base64 and sends it as a file part the server parses", async () => {
    const { router, api } = await client();
    const bytes = Buffer.from([0x68, 0x69, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x7f, 0x80, 0x0a]);
    const result = await api.blockfrost.ipfsAdd({ file: bytes.toString("base64") });
    expect(result.data).toMatchObject({ name: "notes.txt", size: "11" });
    const sent = server.requests.at(-1)!;
    expect(sent.headers["content-type"]).toMatch(
      /^multipart\/form-data; boundary=-+schemarouter[0-9a-f]{32}$/,
    );
    expect(sent.headers.project_id).toBe("test-project");
    const form = await formDataOf({ headers: sent.headers, raw: sent.rawBody });
    const file = form.get("file") as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe("file");
    expect(file.type).toBe("application/octet-stream");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    await router.close();
  });

  it("a file argument that is not base64 is refused before anything is sent", async () => {
    const { router, api } = await client();
    const before = server.requests.length;
    const refused = await api.blockfrost.ipfsAdd({ file: "not base64!" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
    expect(String((refused as Error).message)).toContain("/file");
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("text, JSON, repeated and file parts, with each declared encoding contentType", async () => {
    const { router, api } = await client();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await api.shapes.upload({
      title: 'Quarterly "final"',
      count: 3,
      meta: { author: "Ann" },
      tags: ["a", "b"],
      image: png.toString("base64"),
      attachments: [Buffer.from("one").toString("base64"), Buffer.from("two").toString("base64")],
      notes: "x,y\n1,2",
    });
    const sent = server.requests.at(-1)!;
    const form = await formDataOf({ headers: sent.headers, raw: sent.rawBody });
    expect(form.get("title")).toBe('Quarterly "final"');
    expect(form.get("count")).toBe("3");
    expect(JSON.parse(form.get("meta") as string)).toEqual({ author: "Ann" });
    expect(form.getAll("tags")).toEqual(["a", "b"]);
    const image = form.get("image") as File;
    expect([image.name, image.type]).toEqual(["image", "image/png"]);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
    const attachments = form.getAll("attachments") as File[];
    expect(await Promise.all(attachments.map((file) => file.text()))).toEqual(["one", "two"]);
    expect(form.get("notes")).toBe("x,y\n1,2");
    // A parser keeps a part without a filename as a string: its Content-Type header is read from the wire.
    const wire = sent.rawBody.toString("latin1");
    expect(wire).toContain(
      'Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n',
    );
    expect(wire).toContain('Content-Disposition: form-data; name="notes"\r\nContent-Type: text/csv\r\n');
    expect(wire).toContain('Content-Disposition: form-data; name="title"\r\n\r\nQuarterly "final"\r\n');
    // The part headers the document declares for `image` are not sent: reported, not guessed.
    const artifact = compiledShapes();
    expect(artifact.compatibility).toContainEqual(
      expect.objectContaining({
        construct: "multipart-encoding",
        pointer: "/paths/~1upload/post/requestBody/content/multipart~1form-data/encoding/image/headers",
      }),
    );
    await router.close();
  });

  it("required parts are required arguments; a missing one is refused with its name", async () => {
    const { router, api } = await client();
    const before = server.requests.length;
    await expect(api.shapes.upload({ title: "t" })).rejects.toMatchObject({
      code: "MISSING_REQUIRED_ARGUMENT",
      message: expect.stringContaining("image"),
    });
    expect(server.requests.length).toBe(before);
    await router.close();
  });
});

describe("non-object JSON bodies", () => {
  it("an array body is one `body` parameter (a query parameter named body keeps its name), sent as JSON", async () => {
    const endpoint = compiledShapes().tools[0]!.endpoints.find((entry) => entry.name === "replaceTags")!;
    expect(endpoint.parameters.map((parameter) => [parameter.name, parameter.location])).toEqual([
      ["body", "query"],
      ["body_body", "body"],
    ]);
    const { router, api } = await client();
    await api.shapes.replaceTags({ body: "q", body_body: ["x", "y"] });
    const sent = server.requests.at(-1)!;
    expect(sent.url).toBe("/tags?body=q");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body)).toEqual(["x", "y"]);
    await router.close();
  });

  it("a primitive body is validated and sent as JSON", async () => {
    const { router, api } = await client();
    await api.shapes.setCount({ body: 0 });
    expect(server.requests.at(-1)!.body).toBe("0");
    const before = server.requests.length;
    await expect(api.shapes.setCount({ body: -1 })).rejects.toMatchObject({ code: "INPUT_SCHEMA_VIOLATION" });
    await expect(api.shapes.replaceTags({ body_body: ["a", "b", "c", "d"] })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
    });
    expect(server.requests.length).toBe(before);
    await router.close();
  });
});

describe("text responses", () => {
  it("GitHub's /zen (text/plain) returns its text as the output, asking for text/plain", async () => {
    const { router, api } = await client();
    const result = await api.github.metaGetZen({});
    expect(result.data).toBe("Design for failure.");
    expect(server.requests.at(-1)!.headers.accept).toBe("text/plain");
    await router.close();
  });

  it("GitHub's /markdown sends a JSON body and returns the text/html answer", async () => {
    const { router, api } = await client();
    const result = await api.github.markdownRender({ text: "Hello **world**" });
    expect(result.data).toBe("<p>Hello <strong>world</strong></p>");
    const sent = server.requests.at(-1)!;
    expect(sent.headers.accept).toBe("text/html");
    expect(JSON.parse(sent.body)).toEqual({ text: "Hello **world**" });
    await router.close();
  });

  it("a text answer over maxResponseBytes is refused, not cut", async () => {
    const { router, api } = await client({ maxResponseBytes: 8 });
    await expect(api.github.metaGetZen({})).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
    await router.close();
  });

  it("binary responses and JSON mixed with text are left out and reported by construct", async () => {
    const result = await compile({ config: project.configPath, mode: "check" });
    const coverage = result.coverage.find((entry) => entry.source === "shapes")!;
    expect(coverage.leftOutReasons).toEqual([
      { construct: "binary-response", count: 1, pointers: ["/paths/~1report.pdf/get"] },
      { construct: "mixed-success-responses", count: 1, pointers: ["/paths/~1mixed/get"] },
    ]);
    const github = result.coverage.find((entry) => entry.source === "github")!;
    expect([github.endpoints, github.leftOut]).toEqual([2, 0]);
  });
});

function compiledShapes(): { tools: ToolSpec[]; compatibility: CompatibilityIssue[] } {
  return JSON.parse(readFileSync(join(project.outDir, "artifacts", "shapes.json"), "utf8"));
}
