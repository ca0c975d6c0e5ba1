/** Decision-trace reports over a real SQLite trace store (docs/runtime/trace-reports.md). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PetstoreServer } from "../../../examples/petstore/server.mjs";
import { startPetstoreServer } from "../../../examples/petstore/server.mjs";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { buildDecisionReport } from "../../../runtime/traces/report.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { runCli } from "../../helpers/cli.js";
import { copyInto, type TempProject, tempProject } from "../../helpers/project.js";
import { appendAll, build, failedRun, fullRun, SECRETS } from "../../runtime/traces/helpers.js";

let server: PetstoreServer;
let project: TempProject;
let database: string;

beforeAll(async () => {
  server = await startPetstoreServer();
  project = tempProject("report");
  copyInto(project, "examples/petstore/openapi.yaml", "petstore.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "petstore.yaml" } } });
  expect((await runCli(project.dir, ["compile"])).code).toBe(0);
  database = join(project.dir, "traces.db");
  // Payloads are kept in this store on purpose: the report must not show them anyway.
  const store = await SqliteTraceStore.open(database, { includePayloads: true });
  const router = await SchemaRouter.load({
    lockfile: project.lockfile,
    bindings: { petstore: { baseUrl: server.url } },
  });
  const registered = router.registry.get("petstore")!;
  const call = (endpoint: string, args: Record<string, unknown>) => ({
    tool: "petstore",
    endpoint,
    arguments: args,
    endpointFingerprint: registered.endpointFingerprints.get(endpoint)!,
    toolFingerprint: registered.fingerprint,
  });
  const run = { traceStore: store, includePayloads: true } as const;
  for (let i = 0; i < 5; i++) await router.invoke(call("getPetById", { petId: "rex" }), run);
  await router.invoke(call("listPets", { tag: "SECRET-ARG" }), run);
  await expect(router.invoke(call("getPetById", { petId: "missing" }), run)).rejects.toMatchObject({
    code: "HTTP_STATUS",
  });
  await expect(
    router.invoke(call("getPetById", { petId: "rex" }), {
      ...run,
      budget: new ExecutionBudget({ maxCalls: 0 }),
    }),
  ).rejects.toMatchObject({ code: "BUDGET_EXCEEDED" });
  await router.close();
  // Runs with a secret in every sensitive place (arguments, results, tags, metadata, messages, reasons).
  await appendAll(store, fullRun("run-secrets"));
  await appendAll(store, failedRun("run-failed"));
  // A route name that is markup: it must stay text in every rendering.
  await appendAll(
    store,
    build("run-markup", [
      { type: "run.start", tags: [], metadata: {} },
      {
        type: "tool.start",
        callIndex: 0,
        tool: "<img src=x onerror=alert(1)>",
        endpoint: "e",
        endpointFingerprint: `sha256:${"1".repeat(64)}`,
        toolFingerprint: `sha256:${"2".repeat(64)}`,
        attempt: 1,
      },
      {
        type: "tool.end",
        callIndex: 0,
        tool: "<img src=x onerror=alert(1)>",
        endpoint: "e",
        attempts: 1,
        durationMs: 3,
        fields: [],
      },
      { type: "run.end", calls: 1, durationMs: 4 },
    ]),
  );
  await store.close();
});
afterAll(() => server.close());

describe("buildDecisionReport", () => {
  it("aggregates routes, codes, fallbacks, budgets and latency from the stored runs", async () => {
    const store = await SqliteTraceStore.open(database);
    const report = await buildDecisionReport(store);
    await store.close();
    expect(report.runs).toEqual({ total: 11, completed: 8, failed: 3, open: 0 });
    const byRoute = new Map(report.routes.map((route) => [route.route, route]));
    expect(byRoute.get("petstore.getPetById")).toMatchObject({ calls: 6, succeeded: 5, failed: 2 });
    expect(byRoute.get("petstore.getPetById")!.latency!.count).toBe(5);
    expect(byRoute.get("petstore.listPets")).toMatchObject({ calls: 1, succeeded: 1, failed: 0 });
    expect(byRoute.get("github.repos/get")).toMatchObject({ calls: 2, attempts: 3, succeeded: 1, failed: 1 });
    // The budget refusal is a call error (the call never started) and the run's error.
    expect(report.callErrors).toEqual([
      { code: "HTTP_STATUS", count: 2 },
      { code: "BUDGET_EXCEEDED", count: 1 },
    ]);
    expect(report.runErrors).toEqual([
      { code: "BUDGET_EXCEEDED", count: 2 },
      { code: "HTTP_STATUS", count: 1 },
    ]);
    expect(report.budgets).toEqual([{ code: "BUDGET_EXCEEDED", count: 2 }]);
    // The stored reason is not one of the runtime's codes, so it is not repeated.
    expect(report.fallbacks).toEqual([
      { from: "github.repos/get", to: "github-mcp.get_repo", reason: "OTHER", count: 1 },
    ]);
  });

  it("refuses a store with more runs than it reads, instead of sampling", async () => {
    const store = await SqliteTraceStore.open(database);
    await expect(buildDecisionReport(store, { maxRuns: 3 })).rejects.toMatchObject({
      code: "TRACE_REPORT_TOO_LARGE",
      details: { runs: 11, maxRuns: 3 },
    });
    await store.close();
  });
});

describe("schemarouter report", () => {
  it("prints no payload, message, tag, metadata or reason in text, JSON or HTML", async () => {
    for (const format of ["text", "json", "html"]) {
      const result = await runCli(project.dir, ["report", "traces.db", "--format", format]);
      expect(result.code, result.stderr).toBe(0);
      for (const secret of [...SECRETS, "Rex", "rex", "missing"]) expect(result.stdout).not.toContain(secret);
    }
    const text = (await runCli(project.dir, ["report", "traces.db"])).stdout;
    expect(text).toContain("11 run(s): 8 completed, 3 failed\n");
    expect(text).toMatch(/ {2}petstore\.getPetById +6 +6 +5 +2 {2}\d+\.\d\/\d+\.\d\/\d+\.\d\/\d+\.\d\n/);
    expect(text).toContain("budgets hit:\n  BUDGET_EXCEEDED              2\n");
  });

  it("refuses a missing database without creating it, and an unknown format (exit 2)", async () => {
    const missing = await runCli(project.dir, ["report", "nope.db"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no trace database at");
    expect(existsSync(join(project.dir, "nope.db"))).toBe(false);
    const format = await runCli(project.dir, ["report", "traces.db", "--format", "pdf"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format must be one of text, json, html");
  });

  it("the HTML page renders in a real browser: charts drawn, markup in names stays text, nothing loaded", async () => {
    const out = await runCli(project.dir, [
      "report",
      "traces.db",
      "--format",
      "html",
      "--out",
      "report.html",
    ]);
    expect(out.stdout).toBe("Wrote report.html.\n");
    const html = readFileSync(join(project.dir, "report.html"), "utf8");
    const browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      const dialogs: string[] = [];
      page.on("dialog", async (dialog) => {
        dialogs.push(dialog.message());
        await dialog.dismiss();
      });
      await page.goto(`file://${join(project.dir, "report.html")}`);
      // Evaluated in the page (a string, so this file needs no DOM types).
      const facts = (await page.evaluate(`({
        summary: document.querySelector("#summary")?.textContent,
        charts: document.querySelectorAll("svg").length,
        bars: [...document.querySelectorAll("svg")].map((svg) => svg.querySelectorAll("rect").length),
        images: document.querySelectorAll("img").length,
        labels: [...document.querySelectorAll("svg text")].map((node) => node.textContent),
        widths: document.querySelector("svg").getBoundingClientRect().width,
      })`)) as {
        summary: string;
        charts: number;
        bars: number[];
        images: number;
        labels: string[];
        widths: number;
      };
      expect(facts.summary).toMatch(/^11 run\(s\): 8 completed, 3 failed — /);
      expect(facts.charts).toBe(6);
      // Routes chosen: petstore.getPetById, github.repos/get, petstore.listPets, and the markup name.
      expect(facts.bars[0]).toBe(4);
      expect(facts.images).toBe(0);
      expect(facts.labels).toContain("<img src=x onerror=alert(1)>.e");
      expect(facts.widths).toBeGreaterThan(400);
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([`file://${join(project.dir, "report.html")}`]);
      const png = await page.screenshot({ fullPage: true });
      // A real PNG of a real page: the signature, and a drawing, not a blank image.
      expect(Buffer.from(png).subarray(1, 4).toString()).toBe("PNG");
      expect(png.length).toBeGreaterThan(10_000);
      expect(html.length).toBeGreaterThan(1_000);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
