/**
 * Preloaded (`node --import`) into every measured child process: on exit, writes the process's own
 * resource usage (peak RSS, CPU time) as JSON to the file named by SCHEMAROUTER_BENCH_USAGE.
 */
import { writeFileSync } from "node:fs";

const target = process.env.SCHEMAROUTER_BENCH_USAGE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({
        maxRssKb: usage.maxRSS,
        userMs: usage.userCPUTime / 1000,
        systemMs: usage.systemCPUTime / 1000,
      }),
    );
  });
}
