/**
 * The governed 2 KB call without the network, for measuring what one change of the governance path
 * saves (docs/benchmarks.md "Governance overhead"): each runtime build (`--build=label=path/to/
 * runtime/dist/index.js`, repeatable; the current build is `current`) loads the call benchmark's
 * fixture with a local invoker that parses the same 2 KB JSON text the server sends, and runs the
 * typed-binding call `client.getItem({ id: "1" }, { fields })` at concurrency 1 and 32. The builds
 * alternate each round; prints each build's median CPU time per call (the client process's user+system
 * time) and calls/s, with the load average. No network: the numbers are the governance cost alone.
 * `--invoker=dispatch` binds the bare `dispatch()` client of bench/call.mjs as the invoker instead (the
 * governed chain over the network without the product's HTTP transport), and runs that client alone too.
 *
 *   npm run build && node bench/lib/call-inprocess.mjs --build=before=bench/.tmp/before/runtime/dist/index.js
 */
import { pathToFileURL } from "node:url";
import { benchSetup, DIR, throughput } from "../call.mjs";
import { buildOptions, loadAverage } from "./build-options.mjs";
import { ITEM_FIELDS } from "./call-fixture.mjs";
import { summarize } from "./stats.mjs";

const {
  builds,
  runs,
  calls,
  invoker: invokerOption,
} = buildOptions(process.argv.slice(2), {
  runs: 15,
  calls: 5000,
  invoker: "local",
});
const local = invokerOption !== "dispatch";
const load = loadAverage;
const setup = await benchSetup();
const routers = [];
try {
  // The exact JSON the server answers, parsed afresh on every call as the HTTP transport does.
  const text = JSON.stringify(await setup.cases["2 KB"].dispatch());
  const bare = setup.cases["2 KB"].dispatch;
  const invoker = { invoke: local ? async () => JSON.parse(text) : () => bare() };
  const sides = {};
  for (const [label, path] of builds) {
    const { SchemaRouter, bindClient } = await import(pathToFileURL(path).href);
    const router = await SchemaRouter.load({ root: DIR, bindings: { bench: { invoker } } });
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
    const fields = ITEM_FIELDS;
    const fn = () => client.getItem({ id: "1" }, { fields });
    const check = await fn();
    if (check.fields.length !== fields.length) throw new Error(`${label}: unexpected result`);
    for (let i = 0; i < 2000; i++) await fn();
    sides[label] = fn;
  }
  if (!local) {
    builds.push(["dispatch() alone", ""]);
    sides["dispatch() alone"] = bare;
  }
  process.stdout.write(`load average at start: ${load()}\n`);
  for (const concurrency of [1, 32]) {
    const cpu = Object.fromEntries(builds.map(([label]) => [label, []]));
    const rate = Object.fromEntries(builds.map(([label]) => [label, []]));
    for (let round = 0; round < runs; round++) {
      const order = builds.map(([label]) => label);
      for (let turn = 0; turn < round % order.length; turn++) order.push(order.shift());
      for (const label of order) {
        const before = process.cpuUsage();
        rate[label].push(await throughput(sides[label], calls, concurrency));
        const used = process.cpuUsage(before);
        cpu[label].push((used.user + used.system) / calls);
      }
    }
    process.stdout.write(`c=${concurrency}:\n`);
    for (const [label] of builds) {
      const us = summarize(cpu[label]).median;
      const perSecond = summarize(rate[label]).median;
      process.stdout.write(`  ${label}: ${us.toFixed(1)} µs CPU/call, ${Math.round(perSecond)} calls/s\n`);
    }
  }
  process.stdout.write(`load average at end: ${load()}\n`);
} finally {
  await Promise.all(routers.map((router) => router.close()));
  await setup.close();
}
