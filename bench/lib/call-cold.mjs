/**
 * The governed 2 KB call against the bare `dispatch()` client of bench/call.mjs on a simulated undici
 * dispatcher, in one process and without a network (docs/benchmarks.md "Governance overhead"): the
 * dispatcher answers every request from `setImmediate` with the server's 2 KB JSON record, and first
 * sweeps `--evict` MB of memory (default 8; 0 = none), as the server process and other programs do to
 * the CPU caches while a real call waits on the network. A call over loopback costs several times
 * its in-process CPU for that reason; here the cost is reproducible without the load's noise. The
 * dispatcher is an undici `Dispatcher` that does what undici's own do with a handler (`DispatcherBase`
 * wraps one of the newer protocol in its `UnwrapHandler`) and answers through the protocol undici's
 * client calls, with the raw header list a node:http server sends. Each
 * runtime build (`--build=label=path/to/runtime/dist/index.js`, repeatable; the current build is
 * `current`) binds the benchmark's tool to the product's HTTP transport with this dispatcher, and runs
 * the typed-binding call `client.getItem({ id: "1" }, { fields })`; the sides alternate each round.
 * Prints each side's median CPU time per call (the sweep's own time taken out) and its difference to `dispatch()`, at concurrency 1 and 32, with the load average.
 *
 *   npm run build && node bench/lib/call-cold.mjs --build=before=bench/.tmp/before/runtime/dist/index.js
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileFixture, DIR, throughput } from "../call.mjs";
import { buildOptions, loadAverage } from "./build-options.mjs";
import { ITEM_FIELDS, itemBody } from "./call-fixture.mjs";
import { REPO } from "./paths.mjs";
import { summarize } from "./stats.mjs";

const {
  builds,
  runs,
  calls,
  evict: evictMb,
} = buildOptions(process.argv.slice(2), { runs: 15, calls: 2000, evict: 8 });
const load = loadAverage;

const ORIGIN = "http://127.0.0.1:9";
const require = createRequire(join(REPO, "package.json"));
const { Dispatcher } = require("undici");
const UnwrapHandler = require("undici/lib/handler/unwrap-handler.js");
const body = Buffer.from(JSON.stringify(itemBody()));
/** What node:http (bench/lib/json-server.mjs) sends, as undici's parser hands it over. */
const rawHeaders = [
  ["Content-Type", "application/json"],
  ["Content-Length", String(body.length)],
  ["Date", new Date(0).toUTCString()],
  ["Connection", "keep-alive"],
  ["Keep-Alive", "timeout=60"],
].flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
const sweep = new Uint8Array(evictMb * 1024 * 1024);
const abort = () => undefined;
const resume = () => undefined;
/** CPU microseconds spent sweeping, taken out of each side's CPU time. */
let sweptUs = 0;
/** Touches one byte per cache line of the sweep buffer. */
function evict() {
  if (sweep.length === 0) return;
  const started = process.cpuUsage();
  for (let at = 0; at < sweep.length; at += 64) sweep[at]++;
  const used = process.cpuUsage(started);
  sweptUs += used.user + used.system;
}
/** An undici Dispatcher as far as `dispatch()` goes: answers 200 with the 2 KB record, asynchronously. */
class RecordDispatcher extends Dispatcher {
  dispatch(_options, handler) {
    const wrapped = UnwrapHandler.unwrap(handler);
    setImmediate(() => {
      evict();
      wrapped.onConnect(abort, {});
      wrapped.onHeaders(200, rawHeaders.slice(), resume, "OK");
      wrapped.onData(body);
      wrapped.onComplete([]);
    });
    return true;
  }
}
const dispatcher = new RecordDispatcher();
/** bench/call.mjs's bare client on this dispatcher. */
const bare = () =>
  new Promise((resolve, reject) => {
    const chunks = [];
    dispatcher.dispatch(
      { origin: ORIGIN, path: "/items/1", method: "GET", headers: { accept: "application/json" } },
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

await compileFixture();
const routers = [];
try {
  const sides = { dispatch: bare };
  for (const [label, path] of builds) {
    const { SchemaRouter, bindClient } = await import(pathToFileURL(path).href);
    const router = await SchemaRouter.load({
      root: DIR,
      bindings: { bench: { baseUrl: ORIGIN, dispatcher } },
    });
    routers.push(router);
    const registered = router.registry.get("bench");
    const client = bindClient(router, {
      getItem: {
        tool: "bench",
        endpoint: "getItem",
        endpointFingerprint: registered.endpointFingerprints.get("getItem"),
        toolFingerprint: registered.fingerprint,
      },
    });
    const fn = () => client.getItem({ id: "1" }, { fields: ITEM_FIELDS });
    const check = await fn();
    if (check.fields.length !== ITEM_FIELDS.length) throw new Error(`${label}: unexpected result`);
    sides[label] = fn;
  }
  const names = Object.keys(sides);
  for (let i = 0; i < 2000; i++) for (const name of names) await sides[name]();
  process.stdout.write(`evicting ${evictMb} MB before each response; load average at start: ${load()}\n`);
  for (const concurrency of [1, 32]) {
    const cpu = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < runs; round++) {
      const order = names.map((_, at) => names[(at + round) % names.length]);
      for (const name of order) {
        sweptUs = 0;
        const before = process.cpuUsage();
        await throughput(sides[name], calls, concurrency);
        const used = process.cpuUsage(before);
        cpu[name].push((used.user + used.system - sweptUs) / calls);
      }
    }
    const base = summarize(cpu.dispatch).median;
    process.stdout.write(`c=${concurrency}: dispatch() ${base.toFixed(1)} µs CPU/call\n`);
    for (const [label] of builds) {
      const own = summarize(cpu[label]);
      process.stdout.write(
        `  ${label}: ${own.median.toFixed(1)} µs CPU/call (+${(own.median - base).toFixed(1)}; ${own.min.toFixed(1)}–${own.max.toFixed(1)})\n`,
      );
    }
  }
  process.stdout.write(`load average at end: ${load()}\n`);
} finally {
  for (const router of routers) await router.close();
}
