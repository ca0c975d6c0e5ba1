/**
 * A generated client method takes the same per-call run options as router.invoke — retry, budget,
 * trace tags and metadata, signal — next to `fields` (docs/runtime/bindings.md), over a real
 * node:http server and the compiled Petstore bindings.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../../compiler/compile/compile.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import { RetryPolicy } from "../../../runtime/governed/retry.js";
import { SchemaRouter } from "../../../runtime/router/router.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { sendJson, startServer, type TestServer } from "../../helpers/http-server.js";
import { copyInto, tempProject } from "../../helpers/project.js";
import { failure } from "../../helpers/refusal.js";

const project = tempProject("typed-call-options");
let server: TestServer;
/** Answers 503 this many times before the pet. */
let failuresLeft = 0;

beforeAll(async () => {
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({ sources: { petstore: { kind: "openapi", location: "openapi.yaml" } } });
  await compile({ config: project.configPath });
  server = await startServer((_request, response) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      response.writeHead(503, { "content-type": "text/plain" }).end("busy");
      return;
    }
    sendJson(response, 200, { id: "rex", name: "Rex", status: "available" });
  });
});
afterAll(() => server.close());

async function client() {
  const router = await SchemaRouter.load({
    root: project.dir,
    bindings: { petstore: { baseUrl: server.url } },
  });
  const { createClient } = await import(join(project.outDir, "index.ts"));
  return { router, petstore: createClient(router).petstore };
}

describe("typed client call options", () => {
  it("retry: a 503 then the pet succeeds with a RetryPolicy, and fails without one", async () => {
    const { router, petstore } = await client();
    failuresLeft = 1;
    const before = server.requests.length;
    const pet = await petstore.getPetById(
      { petId: "rex" },
      { fields: ["name"], retry: new RetryPolicy({ maxAttempts: 2, initialDelayMs: 0 }) },
    );
    expect(pet.data).toEqual({ name: "Rex" });
    expect(server.requests.length - before).toBe(2);
    failuresLeft = 1;
    await expect(petstore.getPetById({ petId: "rex" })).rejects.toMatchObject({
      code: "HTTP_STATUS",
    });
    await router.close();
  });

  it("budget: a budget of no calls refuses the call before any request", async () => {
    const { router, petstore } = await client();
    const before = server.requests.length;
    const error = await failure(
      petstore.getPetById({ petId: "rex" }, { budget: new ExecutionBudget({ maxCalls: 0 }) }),
    );
    expect(error.code).toBe("BUDGET_EXCEEDED");
    expect(server.requests.length).toBe(before);
    await router.close();
  });

  it("tags, metadata and runId reach the run's trace", async () => {
    const { router, petstore } = await client();
    const store = await SqliteTraceStore.open(join(project.dir, "trace.db"));
    await petstore.getPetById(
      { petId: "rex" },
      { runId: "typed-1", tags: ["nightly"], metadata: { ticket: "T-9" }, traceStore: store },
    );
    const [start] = await store.readRun("typed-1");
    expect(JSON.parse(start!.data)).toMatchObject({
      type: "run.start",
      tags: ["nightly"],
      metadata: { ticket: "T-9" },
    });
    await store.close();
    await router.close();
  });

  it("signal: an aborted signal refuses the call (RUN_ABORTED)", async () => {
    const { router, petstore } = await client();
    const error = await failure(petstore.getPetById({ petId: "rex" }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe("RUN_ABORTED");
    await router.close();
  });

  it("a misspelt option is refused like router.invoke's, naming the known ones", async () => {
    const { router, petstore } = await client();
    const error = await failure(petstore.getPetById({ petId: "rex" }, { retries: 3 } as never));
    expect(error.code).toBe("RUN_CONFIG_INVALID");
    expect(error.message).toContain('RunConfig: unknown option "retries". Known options: runId, tags,');
    await router.close();
  });

  it("options of `fields` alone run with the default config; any other option next to it still counts", async () => {
    const { router, petstore } = await client();
    const before = server.requests.length;
    const pet = await petstore.getPetById({ petId: "rex" }, { fields: ["name"] });
    expect(pet.data).toEqual({ name: "Rex" });
    const budget = new ExecutionBudget({ maxCalls: 0 });
    const refused = await failure(petstore.getPetById({ petId: "rex" }, { fields: ["name"], budget }));
    expect(refused.code).toBe("BUDGET_EXCEEDED");
    // An option inherited from the options' prototype is not skipped by the `fields`-only shortcut.
    const inherited = Object.assign(Object.create({ budget }) as object, { fields: ["name"] });
    expect((await failure(petstore.getPetById({ petId: "rex" }, inherited as never))).code).toBe(
      "BUDGET_EXCEEDED",
    );
    const typo = await failure(
      petstore.getPetById({ petId: "rex" }, { fields: ["name"], retries: 3 } as never),
    );
    expect(typo.code).toBe("RUN_CONFIG_INVALID");
    expect(server.requests.length - before).toBe(1);
    await router.close();
  });
});
