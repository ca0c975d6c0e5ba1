/**
 * A driver for profiling the per-call benchmark's 2 KB case in one process (`node --cpu-prof`):
 * compiles the fixture, starts the loopback JSON server (its own process), then runs `--calls` calls of
 * one side at `--concurrency`: `ours` (the governed typed-binding call) or `dispatch` (undici
 * `dispatch()` with a minimal handler that collects the chunks and parses the JSON), and prints calls/s
 * and the client process's CPU time per call.
 *
 *   npm run build && node --cpu-prof --cpu-prof-dir=bench/.tmp/prof bench/lib/call-driver.mjs --side=ours --concurrency=32
 */
import { benchSetup, throughput } from "../call.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const side = args.side ?? "ours";
const concurrency = Number(args.concurrency ?? 1);
const calls = Number(args.calls ?? 20_000);
const setup = await benchSetup();
try {
  const fn = setup.cases["2 KB"][side];
  if (fn === undefined) throw new Error(`unknown side "${side}" (ours, raw, dispatch)`);
  for (let i = 0; i < 500; i++) await fn();
  const cpu = process.cpuUsage();
  const rate = await throughput(fn, calls, concurrency);
  const used = process.cpuUsage(cpu);
  const perCall = (used.user + used.system) / calls;
  process.stdout.write(
    `${side} c=${concurrency}: ${Math.round(rate)} calls/s, client CPU ${perCall.toFixed(1)} µs/call (user ${(used.user / calls).toFixed(1)}, system ${(used.system / calls).toFixed(1)})\n`,
  );
} finally {
  await setup.close();
}
