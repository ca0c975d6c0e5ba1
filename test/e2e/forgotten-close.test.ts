/**
 * A process that forgets `router.close()` still exits once its work is done: HTTP sockets, timers,
 * the health monitor and MCP stdio servers do not hold the event loop open while idle, but an
 * in-flight call still completes (docs/runtime/transports.md).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/compile/compile.js";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { copyInto, REPO_ROOT, tempProject } from "../helpers/project.js";

const FIXTURE = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");
const RUNTIME = join(REPO_ROOT, "runtime/dist/index.js");
const project = tempProject("forgotten-close");
let server: Awaited<ReturnType<typeof startPetstoreServer>>;

beforeAll(async () => {
  server = await startPetstoreServer();
  copyInto(project, "examples/petstore/openapi.yaml", "openapi.yaml");
  project.write({
    sources: {
      petstore: { kind: "openapi", location: "openapi.yaml" },
      fixture: {
        kind: "mcp",
        stdio: { command: process.execPath, args: [FIXTURE] },
        effects: { echo_weather: "read" },
      },
    },
  });
  await compile({ config: project.configPath, env: {} });
}, 60_000);
afterAll(() => server.close());

function script(body: string): string {
  const path = join(project.dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    path,
    `import { SchemaRouter } from ${JSON.stringify(RUNTIME)};
const pin = (router, tool, endpoint, args) => {
  const registered = router.registry.get(tool);
  return { tool, endpoint, arguments: args, endpointFingerprint: registered.endpointFingerprints.get(endpoint), toolFingerprint: registered.fingerprint };
};
const router = await SchemaRouter.load({
  root: ${JSON.stringify(project.dir)},
  bindings: {
    petstore: { baseUrl: ${JSON.stringify(server.url)}, headers: { authorization: "Bearer t" } },
    fixture: { mcp: { stdio: { command: process.execPath, args: [${JSON.stringify(FIXTURE)}], stderr: "ignore" } } },
  },
});
${body}
console.log("done");
`,
  );
  return path;
}

async function runChild(path: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`child exited ${code}: ${stderr}`);
  return { code, stdout, ms: performance.now() - started };
}

describe.runIf(process.platform !== "win32")("a process that never calls router.close()", () => {
  it("exits after HTTP and MCP stdio calls and a started health monitor", async () => {
    const path = script(`
const pet = await router.call(pin(router, "petstore", "listPets", {}));
const weather = await router.call(pin(router, "fixture", "echo_weather", { city: "Seoul" }));
router.registerHealthProbe("petstore", () => true);
await router.startHealthMonitor({ intervalMs: 50 });
await new Promise((resolve) => setTimeout(resolve, 200));
console.log(Array.isArray(pet.data) || typeof pet.data === "object", typeof weather.data);
`);
    const result = await runChild(path);
    expect(result.stdout).toContain("done");
    expect(result.ms).toBeLessThan(10_000);
  }, 30_000);
});
