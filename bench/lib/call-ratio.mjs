/**
 * The governed 2 KB call against undici `dispatch()` alone, at concurrency 1 and 32: `--runs`
 * interleaved rounds per concurrency (sides alternate which goes first), printed as each side's median
 * calls/s, the ratio of medians and the median of the per-round ratios, with the load average. A quick
 * check while optimizing; `node bench/run.mjs --only=call` is the full benchmark.
 *
 *   npm run build && node bench/lib/call-ratio.mjs --runs=5 --calls=3000
 */
import { loadavg } from "node:os";
import { benchSetup, throughput } from "../call.mjs";
import { summarize } from "./stats.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const runs = Number(args.runs ?? 5);
const calls = Number(args.calls ?? 3000);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const setup = await benchSetup();
try {
  const { ours, dispatch } = setup.cases["2 KB"];
  for (let i = 0; i < 1000; i++) {
    await ours();
    await dispatch();
  }
  process.stdout.write(`load average at start: ${load()}\n`);
  for (const concurrency of [1, 32]) {
    const samples = { ours: [], dispatch: [] };
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? ["dispatch", "ours"] : ["ours", "dispatch"];
      for (const side of order)
        samples[side].push(await throughput(setup.cases["2 KB"][side], calls, concurrency));
    }
    const o = summarize(samples.ours);
    const d = summarize(samples.dispatch);
    const paired = summarize(samples.ours.map((value, round) => value / samples.dispatch[round]));
    process.stdout.write(
      `c=${concurrency}: ours ${Math.round(o.median)}/s, dispatch ${Math.round(d.median)}/s, ratio ${(o.median / d.median).toFixed(3)}, paired median ${paired.median.toFixed(3)} (${paired.min.toFixed(3)}–${paired.max.toFixed(3)})\n`,
    );
  }
  process.stdout.write(`load average at end: ${load()}\n`);
} finally {
  await setup.close();
}
