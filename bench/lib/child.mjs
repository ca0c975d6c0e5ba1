/**
 * Runs one Node.js program in a fresh child process and measures it from the outside (wall time) and
 * from the inside (peak RSS and CPU time, via usage-preload.mjs). Nothing is shared between runs.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PRELOAD = fileURLToPath(new URL("./usage-preload.mjs", import.meta.url));
export const TMP = fileURLToPath(new URL("../.tmp/", import.meta.url));

let counter = 0;

/**
 * @param {string} script  path of the .js/.mjs entry
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string,string>, nodeArgs?: string[] }} [options]
 * @returns {Promise<{ wallMs: number, cpuMs: number, maxRssMb: number, stdout: string, stderr: string }>}
 */
export function runNode(script, args = [], options = {}) {
  mkdirSync(join(TMP, "usage"), { recursive: true });
  const usageFile = join(TMP, "usage", `${process.pid}-${counter++}.json`);
  const nodeArgs = [...(options.nodeArgs ?? []), "--import", PRELOAD, script, ...args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, nodeArgs, {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...(options.env ?? {}), SCHEMAROUTER_BENCH_USAGE: usageFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`${script} ${args.join(" ")} exited with ${code}\n${stderr}\n${stdout}`));
        return;
      }
      const usage = JSON.parse(readFileSync(usageFile, "utf8"));
      rmSync(usageFile, { force: true });
      resolve({
        wallMs,
        cpuMs: usage.userMs + usage.systemMs,
        maxRssMb: usage.maxRssKb / 1024,
        stdout,
        stderr,
      });
    });
  });
}
