/**
 * Shared availability across processes (docs/state/postgres.md, "Availability"): process A sees
 * 503s, so process B skips the route (INVOCATION_UNAVAILABLE, nothing sent) until the cooldown
 * expires; a health probe that passes in B reopens the route for A at once; probe verdicts are
 * readable by every process; a database that stops answering refuses the call before sending.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { expect, inject, it } from "vitest";
import { connectPostgres } from "../../../runtime/postgres/index.js";
import { OK_READING, pin, startFaultRouter } from "../../fixtures/fault-server.js";
import { cleanupAfterEach } from "../../helpers/cleanup.js";
import { describePostgres, freshSchema, freshState, postgresUrl } from "../../helpers/postgres.js";
import { REPO_ROOT } from "../../helpers/project.js";
import { failure } from "../../helpers/refusal.js";
import { startProxy } from "../../helpers/tcp-proxy.js";

const cleanups = cleanupAfterEach();

interface Worker {
  send(cmd: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

async function startWorker(options: Record<string, unknown>): Promise<Worker> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [`${REPO_ROOT}/test/fixtures/availability-worker.mjs`, JSON.stringify(options)],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { ready?: true; id?: number; reply?: Record<string, unknown> };
    if (message.ready) ready();
    else waiting.get(message.id!)?.(message.reply!);
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  cleanups.push(async () => {
    child.stdin.end(`${JSON.stringify({ cmd: "exit" })}\n`);
    await exited;
  });
  await Promise.race([started, exited.then(() => Promise.reject(new Error(`worker died: ${stderr}`)))]);
  let next = 0;
  return {
    send(cmd, args = {}) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
      });
    },
  };
}

describePostgres("shared availability across processes", () => {
  it("A's 503s make B skip the route until the cooldown expires; a probe in B reopens it for A", async () => {
    let status = 503;
    let hits = 0;
    const server = createServer((request, response) => {
      hits++;
      request.resume();
      const body = status === 200 ? '{"tempC":21}' : '{"error":"busy"}';
      response.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const schema = freshSchema("avail");
    const state = await freshState(cleanups, { schema });
    const options = {
      runtimeDir: inject("runtimeDir"),
      url: postgresUrl(),
      schema,
      serverUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      cooldownMs: 1_500,
    };
    const [a, b] = await Promise.all([startWorker(options), startWorker(options)]);

    // A sees a 503: the route cools down for everyone.
    const failed = performance.now();
    expect(await a.send("call")).toMatchObject({ ok: false, code: "HTTP_STATUS" });
    expect(hits).toBe(1);
    const skipped = await b.send("call");
    expect(skipped).toMatchObject({
      ok: false,
      code: "INVOCATION_UNAVAILABLE",
      details: { reason: "cooldown", cause: "http-5xx", tool: "weather" },
    });
    expect(hits).toBe(1);
    expect(await b.send("status")).toMatchObject({ available: false, reason: "http-5xx", failures: 1 });

    // Until it expires: then B goes through (and its success clears the path).
    status = 200;
    let reply = await b.send("call");
    while (reply.ok !== true) {
      expect(reply).toMatchObject({ code: "INVOCATION_UNAVAILABLE" });
      expect(hits).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await b.send("call");
    }
    expect(performance.now() - failed).toBeGreaterThanOrEqual(1_400);
    expect(hits).toBe(2);

    // A 503 again, seen by A; B is refused; a passing probe in B reopens the route for A at once.
    status = 503;
    expect(await a.send("call")).toMatchObject({ ok: false, code: "HTTP_STATUS" });
    expect(await b.send("call")).toMatchObject({ ok: false, code: "INVOCATION_UNAVAILABLE" });
    expect(await b.send("probe", { healthy: false })).toEqual([
      { tool: "weather", healthy: false, reason: "returned-false" },
    ]);
    expect(await a.send("call")).toMatchObject({
      ok: false,
      code: "INVOCATION_UNAVAILABLE",
      details: { cause: "probe-failed" },
    });
    status = 200;
    const hitsBefore = hits;
    const reopened = performance.now();
    expect(await b.send("probe", { healthy: true })).toEqual([{ tool: "weather", healthy: true }]);
    expect(await a.send("call")).toEqual({ ok: true });
    expect(performance.now() - reopened).toBeLessThan(1_000);
    expect(hits).toBe(hitsBefore + 1);
    expect(await a.send("status")).toEqual({ tool: "weather", available: true, failures: 0 });

    // The verdict itself is shared too.
    expect(await state.availability().lastProbe("weather")).toMatchObject({ tool: "weather", healthy: true });
  }, 60_000);
});

describePostgres("shared availability when the database stops answering", () => {
  it("refuses the call with STATE_UNAVAILABLE before sending, and recovers when it answers again", async () => {
    const proxy = await startProxy(Number(new URL(postgresUrl()).port));
    cleanups.push(() => proxy.close());
    const schema = freshSchema("avail");
    await (await freshState(cleanups, { schema })).close();
    const state = await connectPostgres({
      url: proxy.via(postgresUrl()),
      schema,
      connectTimeoutMs: 500,
      queryTimeoutMs: 500,
    });
    cleanups.push(() => state.close());
    const { server, router } = await startFaultRouter(cleanups, {
      state: { availability: state.availability() },
    });
    server.program("/weather/seoul", [], OK_READING);
    const call = pin(router, "weather", "current", { city: "seoul" });
    await router.call(call);
    proxy.set("blackhole");
    const started = performance.now();
    expect(await failure(router.call(call))).toMatchObject({
      code: "STATE_UNAVAILABLE",
      details: { reason: "timeout" },
    });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(server.hits("/weather/seoul")).toBe(1);
    proxy.set("forward");
    await router.call(call);
    expect(server.hits("/weather/seoul")).toBe(2);
  });
});
