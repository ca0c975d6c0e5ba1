/**
 * Proposals end to end (docs/sources/proposals.md): a documentation page served by node:http →
 * `schemarouter propose` (deterministic test proposer) → review → `schemarouter approve` → compile →
 * lock → typed client → a call to the API on another node:http server. Approval is a separate
 * authority transition; the runtime policy stays a second gate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { SchemaRouter } from "../../runtime/router/router.js";
import { runCli } from "../helpers/cli.js";
import { sendJson, startServer, type TestServer } from "../helpers/http-server.js";
import { REPO_ROOT, tempProject, writeInto } from "../helpers/project.js";

const PAGE = readFileSync(join(REPO_ROOT, "test/fixtures/proposals/library-api.html"), "utf8");
const PROPOSER = join(REPO_ROOT, "test/fixtures/proposals/pattern-proposer.ts");
let page = PAGE;
let docs: TestServer;
let elsewhere: TestServer;
let api: TestServer;

const BOOKS = [
  { id: "b1", title: "A Wizard of Earthsea", year: 1968, author: "Le Guin" },
  { id: "b2", title: "The Dispossessed", year: 1974, author: "Le Guin" },
];

beforeAll(async () => {
  elsewhere = await startServer((_req, res) => sendJson(res, 200, {}));
  docs = await startServer((req, res) => {
    if (req.url === "/moved") {
      res.writeHead(302, { location: `${elsewhere.url}/docs.html` });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  api = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/v1/books")
      return sendJson(
        res,
        200,
        BOOKS.filter((b) => !url.searchParams.has("author") || b.author === url.searchParams.get("author")),
      );
    const one = /^\/v1\/books\/(\w+)$/.exec(url.pathname);
    if (req.method === "GET" && one) {
      const book = BOOKS.find((b) => b.id === one[1]);
      return book ? sendJson(res, 200, { title: book.title, available: true }) : sendJson(res, 404, {});
    }
    if (req.method === "POST" && url.pathname === "/v1/loans") return sendJson(res, 201, { loanId: "l1" });
    return sendJson(res, 404, {});
  });
});
afterAll(async () => {
  await Promise.all([docs.close(), elsewhere.close(), api.close()]);
});

function project() {
  const p = tempProject("proposals");
  p.write({ sources: {}, proposer: { module: PROPOSER } });
  return p;
}

describe("propose → approve → compile → call", () => {
  const p = project();
  const proposalPath = join(p.dir, "proposals", "library.proposal.json");

  it("proposes only what the page's visible text grounds and writes a non-executable proposal", async () => {
    const run = await runCli(p.dir, ["propose", `${docs.url}/docs/library.html`, "--name", "library"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("3 grounded endpoint(s); 13 of 13 proposed item(s) grounded, 0 dropped.");
    const proposal = JSON.parse(readFileSync(proposalPath, "utf8"));
    expect(proposal).toMatchObject({
      format: "schemarouter.proposal/1",
      executable: false,
      source: "library",
    });
    expect(proposal.document).toMatchObject({
      location: `${docs.url}/docs/library.html`,
      title: "Lending Library API",
    });
    expect(proposal.endpoints.map((e: { name: string }) => e.name)).toEqual([
      "get_books",
      "get_books_id",
      "post_loans",
    ]);
    // The page's <script> and CSS mention endpoints a proposer never sees.
    expect(JSON.stringify(proposal)).not.toContain("/admin/export");
    expect(JSON.stringify(proposal)).not.toContain("/internal/stats");
    // The same page and proposer give the same bytes.
    const again = await runCli(p.dir, ["propose", `${docs.url}/docs/library.html`, "--name", "library"]);
    expect(again.stdout).toContain("No change from the previous proposal.");
    expect(readFileSync(proposalPath, "utf8")).toBe(JSON.stringify(proposal, null, 2) + "\n");
  });

  it("refuses to approve without an explicit base URL", async () => {
    const run = await runCli(p.dir, ["approve", proposalPath]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error \[PROPOSAL_REFUSED\]: approving a proposal needs the API's base URL/);
    expect(JSON.parse(readFileSync(p.configPath, "utf8")).sources).toEqual({});
  });

  it("approves with a base URL, compiles reads only, and calls them through the typed client", async () => {
    const run = await runCli(p.dir, ["approve", proposalPath, "--base-url", `${api.url}/v1/`]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain('Approved proposal source "library" (2 endpoint(s)');
    expect(run.stdout).toContain("Left out 1 state-changing endpoint(s) (post_loans)");
    const source = JSON.parse(readFileSync(p.configPath, "utf8")).sources.library;
    expect(source).toEqual({
      kind: "proposal",
      proposal: "proposals/library.proposal.json",
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      baseUrl: `${api.url}/v1`,
    });
    const compiled = await runCli(p.dir, ["compile"]);
    expect(compiled.stderr).toBe("");
    expect(compiled.code).toBe(0);
    const lock = readFileSync(p.lockfile, "utf8");
    expect(await runCli(p.dir, ["compile"])).toMatchObject({ code: 0 });
    expect(readFileSync(p.lockfile, "utf8")).toBe(lock);

    const router = await SchemaRouter.load({
      root: p.dir,
      bindings: { library: { baseUrl: `${api.url}/v1` } },
    });
    const { createClient } = await import(join(p.outDir, "index.ts"));
    const client = createClient(router);
    const list = await client.library.getBooks({ author: "Le Guin" }, { fields: ["[].title"] });
    expect(list.data).toEqual([{ title: "A Wizard of Earthsea" }, { title: "The Dispossessed" }]);
    expect(api.requests.at(-1)!.url).toBe("/v1/books?author=Le+Guin");
    const one = await client.library.getBooksId({ id: "b2" });
    expect(one.data).toEqual({ title: "The Dispossessed", available: true });
    expect(client.library.postLoans).toBeUndefined();
    await router.close();
  });

  it("compiles mutations only with --allow-mutations, and the runtime policy still gates them", async () => {
    // A project of its own: the typed client of the read-only approval is already imported above.
    const m = project();
    await runCli(m.dir, ["propose", `${docs.url}/docs/library.html`, "--name", "library"]);
    const run = await runCli(m.dir, [
      "approve",
      "proposals/library.proposal.json",
      "--base-url",
      `${api.url}/v1`,
      "--allow-mutations",
    ]);
    expect(run.stdout).toContain('Approved proposal source "library" (3 endpoint(s)');
    expect(JSON.parse(readFileSync(m.configPath, "utf8")).sources.library.allowMutations).toBe(true);
    expect((await runCli(m.dir, ["compile"])).code).toBe(0);
    const load = (policy?: ExecutionPolicy) =>
      SchemaRouter.load({
        root: m.dir,
        bindings: { library: { baseUrl: `${api.url}/v1` } },
        ...(policy ? { policy } : {}),
      });
    const { createClient } = await import(join(m.outDir, "index.ts"));
    const router = await load();
    const before = api.requests.length;
    await expect(createClient(router).library.postLoans({ bookId: "b1" })).rejects.toMatchObject({
      code: "POLICY_DENIED",
    });
    expect(api.requests.length).toBe(before);
    await router.close();
    const allowed = await load(new ExecutionPolicy({ allowMutations: true }));
    const loan = await createClient(allowed).library.postLoans({ bookId: "b1" });
    expect(loan.data).toEqual({ loanId: "l1" });
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ bookId: "b1" });
    await allowed.close();
  });

  it("re-proposing a changed page shows a classified diff, and the changed proposal needs approving again", async () => {
    page = PAGE.replace(/<li><code>limit<\/code>[^\n]*\n/, "").replace(
      "</ul>\n  </section>\n\n  <section>\n    <h2>GET /books/{id}</h2>",
      "  <li><code>isbn</code> (string): the ISBN.</li>\n    </ul>\n  </section>\n\n  <section>\n    <h2>GET /books/{id}</h2>",
    );
    try {
      const run = await runCli(p.dir, ["propose", `${docs.url}/docs/library.html`, "--name", "library"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Changes from the previous proposal (breaking):");
      expect(run.stdout).toMatch(/breaking\s+get_books\.limit: parameter is no longer grounded/);
      expect(run.stdout).toMatch(/compatible\s+get_books\.isbn: new field/);
      const compiled = await runCli(p.dir, ["compile"]);
      expect(compiled.code).toBe(2);
      expect(compiled.stderr).toMatch(
        /\[PROPOSAL_NOT_APPROVED\]: source "library": proposals\/library\.proposal\.json is not the proposal that was approved/,
      );
    } finally {
      page = PAGE;
    }
  });
});

describe("refusals", () => {
  it("refuses a documentation page that redirects to another origin", async () => {
    const p = project();
    const run = await runCli(p.dir, ["propose", `${docs.url}/moved`, "--name", "library"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[SOURCE_REDIRECT_REFUSED]");
    expect(elsewhere.requests).toEqual([]);
  });

  it("a lying proposer's inventions are dropped, and approval refuses a proposal below the grounding threshold", async () => {
    const p = project();
    writeInto(
      p,
      "liar.mjs",
      `import { defineProposer } from ${JSON.stringify(join(REPO_ROOT, "compiler/proposals/proposer.ts"))};
export default defineProposer({ name: "liar", propose: () => ({ endpoints: [
  { method: "GET", path: "/books", quote: "GET /books", fields: [{ name: "price", quote: "price (number): the price in EUR" }] },
  { method: "GET", path: "/members", quote: "GET /members lists every member" },
  { method: "DELETE", path: "/books/{id}", quote: "DELETE /books/{id}", parameters: [{ name: "id", in: "path", quote: "id (string, path, required)" }] },
] }) });
`,
    );
    const run = await runCli(p.dir, [
      "propose",
      `${docs.url}/docs/library.html`,
      "--name",
      "library",
      "--proposer",
      "liar.mjs",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 grounded endpoint(s); 1 of 5 proposed item(s) grounded, 4 dropped.");
    expect(run.stdout).toContain(
      "dropped field price at endpoints[0].fields[0]: its quote is not in the page's visible text",
    );
    expect(run.stdout).toContain(
      "dropped endpoint GET /members at endpoints[1]: its quote is not in the page's visible text",
    );
    const approve = await runCli(p.dir, [
      "approve",
      "proposals/library.proposal.json",
      "--base-url",
      api.url,
    ]);
    expect(approve.code).toBe(2);
    expect(approve.stderr).toMatch(
      /\[PROPOSAL_REFUSED\]: only 1 of 5 proposed items \(20%\) are grounded by a quote, below the 80% threshold/,
    );
  });

  it.each([
    [
      "throws",
      "() => { throw new Error('model endpoint unreachable'); }",
      /\[PROPOSER_FAILED\]: source "library": the proposer "p" threw: model endpoint unreachable/,
    ],
    [
      "hangs",
      "() => new Promise(() => {})",
      /\[PROPOSER_FAILED\]: source "library": the proposer "p" did not answer within 300 ms/,
    ],
    [
      "returns no list",
      "() => ({ endpoint: 'GET /books' })",
      /\[PROPOSER_FAILED\]: source "library": the proposer "p" returned object, not \{ endpoints: \[\.\.\.\] \}/,
    ],
  ])("refuses a proposer that %s", async (_name, body, message) => {
    const p = tempProject("proposals");
    writeInto(
      p,
      "p.mjs",
      `import { defineProposer } from ${JSON.stringify(join(REPO_ROOT, "compiler/proposals/proposer.ts"))};
export default defineProposer({ name: "p", propose: ${body} });\n`,
    );
    p.write({ sources: {}, proposer: { module: "p.mjs", timeoutMs: 300 } });
    const run = await runCli(p.dir, ["propose", `${docs.url}/docs/library.html`, "--name", "library"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it("refuses a module that is not defineProposer(...)", async () => {
    const p = tempProject("proposals");
    writeInto(p, "plain.mjs", "export default { name: 'x', propose: () => ({ endpoints: [] }) };\n");
    p.write({ sources: {} });
    const run = await runCli(p.dir, [
      "propose",
      `${docs.url}/docs/library.html`,
      "--name",
      "library",
      "--proposer",
      "plain.mjs",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[PROPOSER_INVALID]");
    expect(run.stderr).toContain("does not export a default defineProposer({ name, propose })");
  });
});
