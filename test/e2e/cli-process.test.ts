/**
 * The built `schemarouter` command as its own process compiling an MCP stdio source: the MCP client
 * holds the event loop only while a request waits (docs/runtime/transports.md), so closing the client
 * must hold it too, or the process ends mid-compile (Node exit code 13: unsettled top-level await).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempProject } from "../helpers/project.js";

const run = promisify(execFile);
const BIN = join(REPO_ROOT, "compiler/dist/cli/bin.js");
const FIXTURE = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");

describe("the built CLI as a process", () => {
  it("compiles an MCP stdio source to the end, then --check says it is up to date", async () => {
    const project = tempProject("cli-process");
    project.write({
      sources: { fixture: { kind: "mcp", stdio: { command: process.execPath, args: [FIXTURE] } } },
    });
    const compiled = await run(process.execPath, [BIN, "compile"], { cwd: project.dir, timeout: 60_000 });
    expect(compiled.stdout).toMatch(/fixture: \d+ endpoints/);
    expect(JSON.parse(readFileSync(project.lockfile, "utf8")).sources.fixture.kind).toBe("mcp");
    const checked = await run(process.execPath, [BIN, "compile", "--check"], {
      cwd: project.dir,
      timeout: 60_000,
    });
    expect(checked.stdout).toContain("Up to date.");
  });
});
