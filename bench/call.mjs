/**
 * Benchmark 5: per-call overhead. The full governed call (`router.call` through the generated-binding
 * path: pins, input validation, policy, budget, HTTP over loopback with undici, output validation,
 * projection) against a raw undici `request` + `body.json()` to the same local node:http server
 * returning the same JSON. Throughput at concurrency 1 and 32, latency percentiles at concurrency 1,
 * for a 2 KB record and a 1 MB list. Client and server are separate processes. For the 2 KB record,
 * the governance-overhead baseline too: undici's `dispatch()` with a minimal handler that collects the
 * body chunks, `Buffer.concat`s them and `JSON.parse`s the text (the layer the product's transport is
 * built on, and the least a client that returns parsed JSON can do), so the gap to it is the cost of
 * governance alone. Every side uses undici's global dispatcher (one pool: unlimited connections per
 * origin, no pipelining) against the one server; sides alternate which runs first each round, and each
 * comparison reports the ratio of medians and the median of the per-round ratios.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FIXTURE_DOCUMENT, ITEM_FIELDS, LIST_FIELDS } from "./lib/call-fixture.mjs";
import { runNode, TMP } from "./lib/child.mjs";
import { BIN, REPO, RUNTIME } from "./lib/paths.mjs";
import { percentile, ratio, summarize } from "./lib/stats.mjs";

export const DIR = join(TMP, "call");
const SERVER = fileURLToPath(new URL("./lib/json-server.mjs", import.meta.url));

export async function compileFixture() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, "openapi.json"), JSON.stringify(FIXTURE_DOCUMENT));
  writeFileSync(
    join(DIR, "schemarouter.config.json"),
    JSON.stringify({
      outDir: "generated",
      sources: { bench: { kind: "openapi", location: "openapi.json" } },
    }),
  );
  await runNode(BIN, ["compile"], { cwd: DIR });
}

function startServer() {
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stdout.setEncoding("utf8").once("data", (line) => {
      const info = JSON.parse(line);
      resolve({ ...info, close: () => new Promise((done) => child.on("exit", done).stdin.end()) });
    });
  });
}

/** Runs `total` calls of `fn` with `concurrency` workers; returns calls per second. */
export async function throughput(fn, total, concurrency) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return (total / (performance.now() - started)) * 1000;
}

/** Per-call latencies (µs) of `count` sequential calls. */
async function latencies(fn, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn();
    out.push((performance.now() - started) * 1000);
  }
  return out;
}

async function alternate(rounds, pair, measure) {
  const samples = { ours: [], raw: [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? ["raw", "ours"] : ["ours", "raw"])
      samples[side].push(await measure(pair[side]));
  }
  return samples;
}

/**
 * Compiles the fixture, starts the server, loads the router and builds each case's sides: `ours` (the
 * governed typed-binding call), `raw` (undici `request()` + `body.json()`) and, for the 2 KB record,
 * `dispatch` (undici `dispatch()` with a minimal handler). Every side uses undici's global dispatcher,
 * so all of them share one connection pool (undici's defaults: unlimited connections per origin, no
 * pipelining) to one server, and every side parses the whole JSON body.
 */
export async function benchSetup() {
  await compileFixture();
  const server = await startServer();
  try {
    const { SchemaRouter, bindClient } = await import(pathToFileURL(RUNTIME).href);
    const { getGlobalDispatcher, request } = createRequire(join(REPO, "package.json"))("undici");
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const router = await SchemaRouter.load({ root: DIR, bindings: { bench: { baseUrl } } });
    const registered = router.registry.get("bench");
    const pin = (endpoint) => ({
      tool: "bench",
      endpoint,
      endpointFingerprint: registered.endpointFingerprints.get(endpoint),
      toolFingerprint: registered.fingerprint,
    });
    const client = bindClient(router, { getItem: pin("getItem"), listItems: pin("listItems") });
    const raw = async (path) => {
      const response = await request(`${baseUrl}${path}`, { headers: { accept: "application/json" } });
      return response.body.json();
    };
    // Baseline: undici's lowest-level API (what the product's HTTP transport is built on), with the
    // least a caller can do — collect the chunks, parse JSON. The gap to it is the governance cost.
    const dispatcher = getGlobalDispatcher();
    const rawDispatch = (path) =>
      new Promise((resolve, reject) => {
        const chunks = [];
        dispatcher.dispatch(
          { origin: baseUrl, path, method: "GET", headers: { accept: "application/json" } },
          {
            onRequestStart() {},
            onResponseStart() {},
            onResponseData(_controller, chunk) {
              chunks.push(chunk);
            },
            onResponseEnd() {
              resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
            },
            onResponseError(_controller, error) {
              reject(error);
            },
          },
        );
      });
    const cases = {
      "2 KB": {
        bytes: server.item,
        ours: () => client.getItem({ id: "1" }, { fields: ITEM_FIELDS }),
        raw: () => raw("/items/1"),
        dispatch: () => rawDispatch("/items/1"),
        calls: 2000,
        latencyCalls: 1000,
      },
      "1 MB": {
        bytes: server.list,
        ours: () => client.listItems({}, { fields: LIST_FIELDS }),
        raw: () => raw("/items"),
        calls: 64,
        latencyCalls: 40,
      },
    };
    return {
      cases,
      baseUrl,
      close: async () => {
        await router.close();
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Summary of paired interleaved samples: each side's spread, the ratio of medians, the median paired ratio. */
function compare(samples) {
  const ours = summarize(samples.ours);
  const peer = summarize(samples.raw);
  const paired = summarize(samples.ours.map((value, round) => value / samples.raw[round]));
  return { ours, raw: peer, ratio: ratio(ours.median, peer.median), pairedRatio: paired };
}

export async function benchCalls({ runs }) {
  const { cases, close } = await benchSetup();
  try {
    const results = {};
    for (const [name, c] of Object.entries(cases)) {
      const check = await c.ours();
      if (typeof check.data !== "object" || check.fields.length !== 3)
        throw new Error(`${name}: unexpected result`);
      for (let i = 0; i < Math.min(200, c.calls); i++) {
        await c.ours();
        await c.raw();
        if (c.dispatch !== undefined) await c.dispatch();
      }
      const lat = await alternate(runs, c, (fn) => latencies(fn, c.latencyCalls));
      const p = (side, q) => summarize(lat[side].map((list) => percentile(list, q)));
      const result = {
        bytes: c.bytes,
        p50: { ours: p("ours", 50), raw: p("raw", 50) },
        p99: { ours: p("ours", 99), raw: p("raw", 99) },
      };
      result.addedP50Us = result.p50.ours.median - result.p50.raw.median;
      for (const concurrency of [1, 32]) {
        const tp = await alternate(runs, c, (fn) => throughput(fn, c.calls, concurrency));
        result[`c${concurrency}`] = compare(tp);
        if (c.dispatch !== undefined) {
          const vs = await alternate(runs, { ours: c.ours, raw: c.dispatch }, (fn) =>
            throughput(fn, c.calls, concurrency),
          );
          result[`c${concurrency}`].dispatch = compare(vs);
        }
      }
      results[name] = result;
    }
    return results;
  } finally {
    await close();
  }
}
