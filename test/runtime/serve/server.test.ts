/**
 * createMcpServer with real SDK Clients over the SDK's in-memory transport: session budgets under
 * concurrent calls, the concurrency bound, progress and log notifications that carry no payloads,
 * trace metadata, search in top-k mode, and the swap of a reloaded registry (calls that started on
 * the old one finish on it; a refused or identical successor changes nothing).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { LoadError } from "../../../runtime/errors/errors.js";
import { ExecutionBudget } from "../../../runtime/governed/budget.js";
import type { SchemaRouter } from "../../../runtime/router/router.js";
import { createMcpServer } from "../../../runtime/serve/index.js";
import { SqliteTraceStore } from "../../../runtime/traces/sqlite.js";
import { defineLocalTool, type LocalToolDefinition } from "../../../runtime/transports/local/transport.js";
import { connectClient, gate, localRouter, refusalOf } from "../../helpers/serve-local.js";

const SECRET = "s3cr3t-argument-value";

function clock(
  handler: LocalToolDefinition["endpoints"][number]["handler"],
  description = "Tells the time.",
) {
  return defineLocalTool({
    name: "clock",
    endpoints: [
      {
        name: "now",
        description,
        effect: "read",
        input: { type: "object", properties: { zone: { type: "string" } }, additionalProperties: false },
        output: { type: "object", properties: { zone: { type: "string" }, at: { type: "string" } } },
        handler,
      },
      {
        name: "alarm",
        description: "Sets an alarm.",
        effect: "write",
        input: { type: "object", properties: {}, additionalProperties: false },
        output: { type: "object", properties: {} },
        handler: () => ({}),
      },
    ],
  });
}

const echo = clock((args) => ({ zone: String(args.zone ?? "UTC"), at: "12:00" }));

describe("createMcpServer", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const serve = async (router: SchemaRouter, options: Parameters<typeof createMcpServer>[1] = {}) => {
    const server = await createMcpServer(router, { log: () => undefined, ...options });
    cleanup.push(
      () => server.close(),
      () => router.close(),
    );
    return server;
  };

  it("admits exactly each session's budget when its calls run concurrently", async () => {
    let upstream = 0;
    const server = await serve(localRouter([clock(() => ({ zone: String(++upstream), at: "now" }))]), {
      sessionBudget: { maxCalls: 5 },
    });
    const sessions = await Promise.all([connectClient(server, "a"), connectClient(server, "b")]);
    const results = await Promise.all(
      sessions.flatMap((client) =>
        Array.from({ length: 20 }, () => client.callTool({ name: "clock.now", arguments: {} })),
      ),
    );
    const codes = results.map((result) => (refusalOf(result)?.code as string | undefined) ?? "ok");
    expect(codes.filter((code) => code === "ok")).toHaveLength(10);
    expect(codes.filter((code) => code === "BUDGET_EXCEEDED")).toHaveLength(30);
    expect(upstream).toBe(10);
    // search_capabilities is free.
    const search = await sessions[0]!.callTool({ name: "search_capabilities", arguments: { query: "time" } });
    expect(search.isError).toBeUndefined();
  });

  it("refuses calls beyond the concurrency bound's queue with SERVE_BUSY", async () => {
    const held = gate();
    const server = await serve(
      localRouter([
        clock(async () => {
          await held.promise;
          return { zone: "UTC", at: "now" };
        }),
      ]),
      { maxConcurrentCalls: 1, maxQueuedCalls: 1 },
    );
    const client = await connectClient(server);
    const running = client.callTool({ name: "clock.now", arguments: {} });
    const waiting = client.callTool({ name: "clock.now", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await client.callTool({ name: "clock.now", arguments: {} });
    expect(refusalOf(refused)).toMatchObject({ code: "SERVE_BUSY", retryable: true });
    held.open();
    expect((await running).isError).toBeUndefined();
    expect((await waiting).isError).toBeUndefined();
  });

  it("turns run events into progress and log notifications without arguments or results", async () => {
    const server = await serve(localRouter([clock((args) => ({ zone: String(args.zone), at: SECRET }))]));
    const client = await connectClient(server);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.setLoggingLevel("debug");
    const progress: { progress: number; message?: string | undefined }[] = [];
    const result = await client.request(
      {
        method: "tools/call",
        params: { name: "clock.now", arguments: { zone: SECRET }, _meta: { progressToken: 7 } },
      },
      CallToolResultSchema,
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.structuredContent).toEqual({ zone: SECRET, at: SECRET });
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.map((update) => update.message)).toEqual([
      "run.start",
      "plan.end",
      "tool.start clock.now",
      "tool.end clock.now",
      "run.end",
    ]);
    expect(logs).toHaveLength(5);
    expect(logs[2]).toMatchObject({
      level: "debug",
      logger: "schemarouter",
      data: { event: "tool.start", route: "clock.now" },
    });
    expect(JSON.stringify([logs, progress])).not.toContain(SECRET);
  });

  it("records every served call in the trace store with the session id as run metadata", async () => {
    const dir = mkdtempSync(join(tmpdir(), "schemarouter-serve-traces-"));
    const store = await SqliteTraceStore.open(join(dir, "traces.db"));
    cleanup.push(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const server = await serve(localRouter([echo]), { traceStore: store });
    const [serverSide, clientSide] = (
      await import("@modelcontextprotocol/sdk/inMemory.js")
    ).InMemoryTransport.createLinkedPair();
    const session = await server.connect(serverSide);
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const client = new Client({ name: "traced", version: "1.0.0" });
    await client.connect(clientSide);
    await client.callTool({ name: "clock.now", arguments: { zone: "KST" } });
    await client.callTool({ name: "clock.alarm", arguments: {} });
    const runs = await store.listRuns();
    expect(runs).toHaveLength(2);
    const events = (await store.readRun(runs[1]!)).map(
      (stored) => JSON.parse(stored.data) as Record<string, unknown>,
    );
    expect(events[0]).toMatchObject({
      type: "run.start",
      tags: ["mcp"],
      metadata: { mcpSessionId: session.id, mcpTransport: "stdio", mcpTool: "clock.alarm" },
    });
    expect(events.at(-1)).toMatchObject({ type: "run.error", code: "POLICY_DENIED" });
  });

  it("adds what a search found to the session's short list, and tells only that session", async () => {
    const server = await serve(localRouter([echo]), { listing: { k: 1 } });
    const [searching, other] = await Promise.all([connectClient(server, "a"), connectClient(server, "b")]);
    const changed = { searching: 0, other: 0 };
    searching.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.searching++;
    });
    other.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.other++;
    });
    expect((await searching.listTools()).tools.map((tool) => tool.name)).toEqual(["search_capabilities"]);
    const found = await searching.callTool({ name: "search_capabilities", arguments: { query: "alarm" } });
    expect(
      (found.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name),
    ).toContain("clock.alarm");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changed).toEqual({ searching: 1, other: 0 });
    expect((await searching.listTools()).tools.map((tool) => tool.name)).toContain("clock.alarm");
    expect((await other.listTools()).tools.map((tool) => tool.name)).toEqual(["search_capabilities"]);
    // Unlisted but exposed: callable by name.
    expect((await other.callTool({ name: "clock.now", arguments: {} })).isError).toBeUndefined();
  });

  it("swaps a reloaded registry in whole: running calls finish on the old one, clients are told", async () => {
    const held = gate();
    const slow = clock(async () => {
      await held.promise;
      return { zone: "old", at: "then" };
    });
    const renamed = clock(() => ({ zone: "new", at: "now" }), "Tells the time, newly.");
    const routers: SchemaRouter[] = [];
    let next: () => SchemaRouter = () => localRouter([renamed]);
    const server = await serve(localRouter([slow]), {
      reload: async () => {
        const router = next();
        routers.push(router);
        return router;
      },
    });
    const client = await connectClient(server);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const before = server.router;
    const running = client.callTool({ name: "clock.now", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await server.reload()).toEqual({ status: "swapped", tools: 2 });
    expect(server.router).not.toBe(before);
    const fresh = await client.callTool({ name: "clock.now", arguments: {} });
    expect(fresh.structuredContent).toEqual({ zone: "new", at: "now" });
    held.open();
    expect((await running).structuredContent).toEqual({ zone: "old", at: "then" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changed).toBe(1);
    expect((await client.listTools()).tools[0]!.description).toContain("newly");

    // The same definitions again: nothing is announced, and the loaded duplicate is closed.
    expect(await server.reload()).toEqual({ status: "unchanged" });
    await expect(routers[1]!.invoke({ tool: "clock", endpoint: "now" } as never)).rejects.toThrow(/closed/);
    // A successor that does not verify keeps the current registry.
    next = () => {
      throw new LoadError("LOCK_MISMATCH", "artifact tampered", {
        source: "clock",
        reason: "artifact-digest",
      });
    };
    expect(await server.reload()).toMatchObject({ status: "refused" });
    expect((await client.callTool({ name: "clock.now", arguments: {} })).structuredContent).toEqual({
      zone: "new",
      at: "now",
    });
    expect(changed).toBe(1);
  });

  it("refuses options it cannot serve", async () => {
    const router = localRouter([echo]);
    cleanup.push(() => router.close());
    for (const [options, option] of [
      [{ maxConcurrentCalls: 0 }, "maxConcurrentCalls"],
      [{ maxQueuedCalls: -1 }, "maxQueuedCalls"],
      [{ sessionBudget: { maxCalls: -1 } }, "sessionBudget.maxCalls"],
      [{ sessionBudget: { maxCall: 1 } }, "sessionBudget.maxCall"],
      [{ callBudget: { maxCalls: 1 } }, "callBudget"],
      [{ expose: ["**", "a b"] }, "expose"],
    ] as const) {
      await expect(createMcpServer(router, options as never)).rejects.toMatchObject({
        code: "SERVE_OPTIONS_INVALID",
        details: { option },
      });
    }
    await expect(
      createMcpServer(router, { callBudget: new ExecutionBudget({ maxWallClockMs: 1000 }) }),
    ).resolves.toBeDefined();
  });
});
