/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.13, the newest that runs on
 * Node 20) against `schemarouter serve --http`: every server scenario (`--suite all`) runs against a
 * served project whose local tools carry the names the tools scenarios call. The committed baseline
 * (test/fixtures/serve/conformance-baseline.yml) lists only features a governed tools server does
 * not offer, each with its reason; the suite's own exit code fails on any other failure and on a
 * baseline entry that starts to pass.
 */
import { execFile, spawn } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT, tempProject } from "../helpers/project.js";
import { BIN } from "../helpers/serve-project.js";

const SUITE = join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = join(REPO_ROOT, "test/fixtures/serve/conformance-baseline.yml");
const TOOLS = [
  "test_simple_text",
  "test_error_handling",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "json_schema_2020_12_tool",
];

describe("MCP conformance", () => {
  const project = tempProject("serve-conformance");
  let child: ReturnType<typeof spawn> | undefined;
  let url = "";

  beforeAll(async () => {
    copyFileSync(
      join(REPO_ROOT, "test/fixtures/serve/conformance-tools.mjs"),
      join(project.dir, "tools.mjs"),
    );
    project.write({
      sources: { conformance: { kind: "local", module: "tools.mjs" } },
      serve: { names: Object.fromEntries(TOOLS.map((name) => [`conformance.${name}`, name])) },
    });
    const compiled = await runCli(project.dir, ["compile"]);
    expect(compiled.code, compiled.stderr).toBe(0);
    child = spawn(process.execPath, [BIN, "serve", "--http", "127.0.0.1:0", "--config", project.configPath], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<string>((resolve, reject) => {
      let text = "";
      child!.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
      child!.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        const match = /tools at (http:\/\/\S+) /.exec(text);
        if (match !== null) resolve(match[1]!);
      });
    });
  });
  afterAll(() => {
    child?.kill("SIGTERM");
  });

  it("passes every server scenario outside the baseline", async () => {
    const results = join(project.dir, "results");
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [SUITE, "server", "--url", url, "--suite", "all", "--expected-failures", BASELINE, "-o", results],
        { cwd: project.dir, timeout: 240_000 },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}${stderr}` });
        },
      );
    });
    expect(run.code, run.output.slice(-4000)).toBe(0);
    // The tools scenarios really ran against the served tools and passed.
    const passed = new Set<string>();
    for (const dir of readdirSync(results)) {
      const checks = JSON.parse(readFileSync(join(results, dir, "checks.json"), "utf8")) as {
        id: string;
        status: string;
      }[];
      for (const check of checks) if (check.status === "SUCCESS") passed.add(check.id);
    }
    for (const id of [
      "tools-list",
      "tools-call-simple-text",
      "tools-call-error",
      "tools-call-with-logging",
      "tools-call-with-progress",
      "json-schema-2020-12-$schema",
      "json-schema-2020-12-$defs",
      "localhost-host-rebinding-rejected",
    ])
      expect(passed, id).toContain(id);
  });

  it("keeps a reason beside every baseline entry", () => {
    const lines = readFileSync(BASELINE, "utf8").split("\n");
    const entries = lines.flatMap((line, index) => (/^\s+- /.test(line) ? [index] : []));
    expect(entries.length).toBeGreaterThan(0);
    for (const index of entries) {
      // The nearest non-entry line above each entry is its reason (a comment).
      let above = index - 1;
      while (/^\s+- /.test(lines[above] ?? "")) above--;
      expect(lines[above], lines[index]).toMatch(/^\s+# \S/);
    }
    // Nothing about tools/list, tools/call text or errors, logging or progress is excused.
    for (const scenario of [
      "tools-list",
      "tools-call-simple-text",
      "tools-call-error",
      "tools-call-with-logging",
      "tools-call-with-progress",
      "dns-rebinding-protection",
    ])
      expect(lines.some((line) => line.trim() === `- ${scenario}`)).toBe(false);
  });
});
