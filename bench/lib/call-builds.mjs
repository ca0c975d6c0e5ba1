/**
 * The governed 2 KB call of several runtime builds against undici `dispatch()` in one process, on one
 * server and one connection pool: `--build=label=path/to/runtime/dist/index.js` (repeatable; the
 * current build is `current`), `--runs` interleaved rounds at concurrency 1 and 32 (the order of the
 * sides rotates each round). Prints, per build and concurrency, median calls/s and the median of the
 * per-round ratios to dispatch(), the client process's median CPU time per call (and dispatch()'s CPU
 * time over it: the throughput ratio a CPU-bound client would see), with the load average. Used to
 * measure what one change saves: build the commit before and after into separate directories and
 * compare them here.
 *
 *   npm run build && node bench/lib/call-builds.mjs --build=before=/tmp/before/index.js --runs=7
 */
import { pathToFileURL } from "node:url";
import { benchSetup, DIR, throughput } from "../call.mjs";
import { buildOptions, loadAverage } from "./build-options.mjs";
import { ITEM_FIELDS } from "./call-fixture.mjs";
import { summarize } from "./stats.mjs";

const { builds, runs, calls } = buildOptions(process.argv.slice(2), { runs: 7, calls: 3000 });
const load = loadAverage;
const setup = await benchSetup();
const routers = [];
try {
  const sides = { dispatch: setup.cases["2 KB"].dispatch };
  for (const [label, path] of builds) {
    const { SchemaRouter, bindClient } = await import(pathToFileURL(path).href);
    const router = await SchemaRouter.load({ root: DIR, bindings: { bench: { baseUrl: setup.baseUrl } } });
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
    sides[label] = () => client.getItem({ id: "1" }, { fields: ITEM_FIELDS });
  }
  const names = Object.keys(sides);
  for (let i = 0; i < 1000; i++) for (const name of names) await sides[name]();
  process.stdout.write(`load average at start: ${load()}\n`);
  for (const concurrency of [1, 32]) {
    const samples = Object.fromEntries(names.map((name) => [name, []]));
    const cpu = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < runs; round++) {
      const order = names.map((_, at) => names[(at + round) % names.length]);
      for (const name of order) {
        const before = process.cpuUsage();
        samples[name].push(await throughput(sides[name], calls, concurrency));
        const used = process.cpuUsage(before);
        cpu[name].push((used.user + used.system) / calls);
      }
    }
    const base = summarize(samples.dispatch);
    const baseCpu = summarize(cpu.dispatch);
    process.stdout.write(
      `c=${concurrency}: dispatch ${Math.round(base.median)}/s, client CPU ${baseCpu.median.toFixed(1)} µs/call\n`,
    );
    for (const [label] of builds) {
      const own = summarize(samples[label]);
      const paired = summarize(samples[label].map((value, round) => value / samples.dispatch[round]));
      const ownCpu = summarize(cpu[label]);
      process.stdout.write(
        `  ${label}: ${Math.round(own.median)}/s, ratio of medians ${(own.median / base.median).toFixed(3)}, paired ratio median ${paired.median.toFixed(3)} (${paired.min.toFixed(3)}–${paired.max.toFixed(3)}); client CPU ${ownCpu.median.toFixed(1)} µs/call (+${(ownCpu.median - baseCpu.median).toFixed(1)}), CPU ratio ${(baseCpu.median / ownCpu.median).toFixed(3)}\n`,
      );
    }
  }
  process.stdout.write(`load average at end: ${load()}\n`);
} finally {
  for (const router of routers) await router.close();
  await setup.close();
}
