/**
 * The governed 2 KB call over the network, layer by layer (docs/benchmarks.md "Governance overhead,
 * third pass"): the bare `dispatch()` client of bench/call.mjs, the HTTP transport's `exchange()`
 * alone (its handler, bounds and deadline; the body parsed as the transport does), the HTTP invoker
 * alone (`invoke()` with a hand-made context: URL, headers, exchange, JSON), and the governed typed
 * call. One server, one pool, interleaved rounds at concurrency 1 and 32 (the order rotates each
 * round); prints each layer's median client CPU per call, calls/s and the median of its per-round
 * throughput ratios to `dispatch()`, with the load average. The difference between two layers is what
 * the outer one adds.
 *
 *   npm run build && node bench/lib/call-layers.mjs --runs=31 --calls=500
 */
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { benchSetup, DIR, throughput } from "../call.mjs";
import { REPO, RUNTIME } from "./paths.mjs";
import { summarize } from "./stats.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const runs = Number(args.runs ?? 31);
const calls = Number(args.calls ?? 500);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const dist = new URL(".", pathToFileURL(RUNTIME));
const setup = await benchSetup();
try {
  const undici = createRequire(join(REPO, "package.json"))("undici");
  const { exchange } = await import(new URL("transports/http/exchange.js", dist).href);
  const { ExchangeDeadlines } = await import(new URL("transports/http/exchange-deadlines.js", dist).href);
  const { createHttpInvoker } = await import(new URL("transports/http/transport.js", dist).href);
  const { SchemaRouter } = await import(pathToFileURL(RUNTIME).href);
  const origin = setup.baseUrl;
  const limits = {
    route: "bench.getItem",
    deadlines: new ExchangeDeadlines(30_000),
    maxBytes: 16 * 1024 * 1024,
    errorBytes: 2048,
    successStatus: [],
    head: false,
  };
  const request = {
    origin,
    path: "/items/1",
    method: "GET",
    headers: { accept: "application/json" },
    body: undefined,
  };
  const exchanged = async () =>
    JSON.parse((await exchange(undici, undefined, request, limits, undefined)).body);
  // The invoker gets what the executor would hand it: the locked tool and endpoint, a detached call.
  const router = await SchemaRouter.load({
    root: DIR,
    bindings: { bench: { baseUrl: origin } },
  });
  const registered = router.registry.get("bench");
  const context = {
    call: Object.freeze({ tool: "bench", endpoint: "getItem", arguments: Object.freeze({ id: "1" }) }),
    tool: registered.tool,
    endpoint: registered.endpoints.get("getItem"),
    selectedFields: [],
    onStop: () => () => undefined,
  };
  const invoker = createHttpInvoker({ baseUrl: origin });
  const sides = {
    dispatch: setup.cases["2 KB"].dispatch,
    exchange: exchanged,
    invoker: () => invoker.invoke(context),
    governed: setup.cases["2 KB"].ours,
  };
  const names = Object.keys(sides);
  for (let i = 0; i < 1000; i++) for (const name of names) await sides[name]();
  process.stdout.write(`load average at start: ${load()}\n`);
  for (const concurrency of [1, 32]) {
    const cpu = Object.fromEntries(names.map((name) => [name, []]));
    const rate = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < runs; round++) {
      const order = names.map((_, at) => names[(at + round) % names.length]);
      for (const name of order) {
        const before = process.cpuUsage();
        rate[name].push(await throughput(sides[name], calls, concurrency));
        const used = process.cpuUsage(before);
        cpu[name].push((used.user + used.system) / calls);
      }
    }
    process.stdout.write(`c=${concurrency}:\n`);
    for (const name of names) {
      const paired = summarize(rate[name].map((value, round) => value / rate.dispatch[round]));
      process.stdout.write(
        `  ${name}: ${summarize(cpu[name]).median.toFixed(1)} µs CPU/call, ${Math.round(summarize(rate[name]).median)} calls/s, paired ratio to dispatch() ${paired.median.toFixed(3)}\n`,
      );
    }
  }
  process.stdout.write(`load average at end: ${load()}\n`);
  await router.close();
} finally {
  await setup.close();
}
