/**
 * Benchmark: the cost of serving. The same governed call (bench.getItem, about 2 KB, three fields
 * projected) through `schemarouter serve --http` with the MCP SDK's Client over Streamable HTTP,
 * against `router.invoke()` in-process, as calls per second and their ratio, at concurrency 1 and 32
 * (one session). Info baseline: a bare MCP SDK Server over the same transport answering a constant
 * (bench/lib/sdk-server.mjs), so the ratio splits into the cost of MCP over HTTP and the cost of the
 * governed call. The upstream (bench/lib/json-server.mjs), the served CLI and the bare server are
 * separate processes; runs alternate sides. Standalone: `npm run build && node bench/serve.mjs`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FIXTURE_DOCUMENT, ITEM_FIELDS } from "./lib/call-fixture.mjs";
import { runNode, TMP } from "./lib/child.mjs";
import { BIN, RUNTIME } from "./lib/paths.mjs";
import { environment, ratio, summarize } from "./lib/stats.mjs";

const DIR = join(TMP, "serve");
const UPSTREAM = fileURLToPath(new URL("./lib/json-server.mjs", import.meta.url));
const BARE = fileURLToPath(new URL("./lib/sdk-server.mjs", import.meta.url));

function startUpstream() {
  const child = spawn(process.execPath, [UPSTREAM], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stdout.setEncoding("utf8").once("data", (line) => {
      resolve({
        ...JSON.parse(line),
        close: () => new Promise((done) => child.on("exit", done).stdin.end()),
      });
    });
  });
}

async function compileFixture(baseUrl) {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, "openapi.json"), JSON.stringify(FIXTURE_DOCUMENT));
  writeFileSync(
    join(DIR, "schemarouter.config.json"),
    JSON.stringify({
      outDir: "generated",
      sources: { bench: { kind: "openapi", location: "openapi.json" } },
      serve: {
        expose: ["bench.getItem"],
        fields: { "bench.getItem": ITEM_FIELDS },
        bindings: { bench: { baseUrl } },
        search: false,
        maxConcurrentCalls: 64,
      },
    }),
  );
  await runNode(BIN, ["compile"], { cwd: DIR });
}

/** Starts a process that prints `tools at <url> ` on stderr (the served CLI, the bare SDK server). */
function startMcp(args) {
  const child = spawn(process.execPath, args, { cwd: DIR, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let text = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      text += chunk;
      const match = /tools at (http:\/\/\S+) /.exec(text);
      if (match !== null) {
        child.removeAllListeners("exit");
        resolve({
          url: match[1],
          close: () =>
            new Promise((done) => {
              child.once("exit", done);
              child.kill("SIGTERM");
            }),
        });
      }
    });
  });
}

/** Runs `total` calls of `fn` with `concurrency` workers; returns calls per second. */
async function throughput(fn, total, concurrency) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return (total / (performance.now() - started)) * 1000;
}

export async function benchServe({ runs = 5, calls = 1000 } = {}) {
  const upstream = await startUpstream();
  const baseUrl = `http://127.0.0.1:${upstream.port}`;
  await compileFixture(baseUrl);
  const serve = await startMcp([BIN, "serve", "--http", "127.0.0.1:0", "--no-watch"]);
  const bare = await startMcp([BARE]);
  const { SchemaRouter } = await import(pathToFileURL(RUNTIME).href);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const router = await SchemaRouter.load({ root: DIR, bindings: { bench: { baseUrl } } });
  // A fresh session per measurement: Node's fetch keeps an abort listener per request on the SDK
  // transport's signal until GC, and warns past 1,500 on one transport.
  const connect = async (url) => {
    const next = new Client({ name: "bench", version: "1.0.0" });
    await next.connect(new StreamableHTTPClientTransport(new URL(url)));
    return next;
  };
  let client = await connect(serve.url);
  let bareClient = await connect(bare.url);
  const fresh = async () => {
    await Promise.all([client.close(), bareClient.close()]);
    [client, bareClient] = await Promise.all([connect(serve.url), connect(bare.url)]);
  };
  try {
    const registered = router.registry.get("bench");
    const call = {
      tool: "bench",
      endpoint: "getItem",
      arguments: { id: "1" },
      fields: ITEM_FIELDS,
      endpointFingerprint: registered.endpointFingerprints.get("getItem"),
      toolFingerprint: registered.fingerprint,
    };
    const sides = {
      inProcess: () => router.invoke(call),
      served: async () => {
        const result = await client.callTool({ name: "bench.getItem", arguments: { id: "1" } });
        if (result.isError) throw new Error(result.content[0].text);
      },
      bare: () => bareClient.callTool({ name: "constant", arguments: { id: "1" } }),
    };
    const check = await client.callTool({ name: "bench.getItem", arguments: { id: "1" } });
    if (Object.keys(check.structuredContent).sort().join() !== [...ITEM_FIELDS].sort().join())
      throw new Error(`unexpected served result: ${JSON.stringify(check.structuredContent)}`);
    for (let i = 0; i < 200; i++) for (const side of Object.values(sides)) await side();
    await fresh();
    const results = {};
    const order = ["inProcess", "served", "bare"];
    for (const concurrency of [1, 32]) {
      const samples = { inProcess: [], served: [], bare: [] };
      for (let round = 0; round < runs; round++) {
        for (const side of round % 2 === 0 ? order : [...order].reverse()) {
          await fresh();
          samples[side].push(await throughput(sides[side], calls, concurrency));
        }
      }
      const [inProcess, served, bareSdk] = order.map((side) => summarize(samples[side]));
      results[`c${concurrency}`] = {
        inProcess,
        served,
        bare: bareSdk,
        ratio: ratio(served.median, inProcess.median),
        ofBare: ratio(served.median, bareSdk.median),
      };
    }
    return results;
  } finally {
    await client.close().catch(() => undefined);
    await bareClient.close().catch(() => undefined);
    await router.close();
    await serve.close();
    await bare.close();
    await upstream.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const runs = Number(/--runs=(\d+)/.exec(process.argv.slice(2).join(" "))?.[1] ?? 5);
  const results = await benchServe({ runs });
  const cell = (s) => `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})`;
  const line = (name, r) =>
    `| ${name} | ${cell(r.inProcess)} | ${cell(r.served)} | ${r.ratio.toFixed(3)}× | ${cell(r.bare)} | ${r.ofBare.toFixed(2)}× |`;
  process.stdout.write(
    [
      "| bench.getItem (2 KB, 3 fields), calls/s | router.invoke() in-process | serve over HTTP | serve ÷ in-process | bare SDK server (info) | serve ÷ bare SDK |",
      "| --- | --- | --- | --- | --- | --- |",
      line("concurrency 1", results.c1),
      line("concurrency 32", results.c32),
      "",
      `Environment: ${JSON.stringify(environment())}, runs ${runs}.`,
      "",
    ].join("\n"),
  );
}
