/**
 * The quickstart works verbatim (README.md, docs/getting-started.md): the documented commands, run on
 * a document of the user's own in an empty folder, then the documented app.ts compiled with the
 * documented tsconfig.json and `tsc -p .`, run with `node dist/app.js` against a real HTTP server,
 * prints what the comments say.
 */
import { spawn } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT, tempProject } from "../helpers/project.js";

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const guide = readFileSync(join(REPO_ROOT, "docs/getting-started.md"), "utf8");

/** The first fenced block of `language` after `heading` in `text`. */
function block(text: string, heading: string, language: string): string {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}"`);
  const open = text.indexOf(`\`\`\`${language}\n`, start);
  const body = open + language.length + 4;
  return text.slice(body, text.indexOf("\n```", body) + 1);
}

/** The ```ts block that starts with `// app.ts`. */
function appBlock(text: string): string {
  const open = text.indexOf("```ts\n// app.ts");
  if (open < 0) throw new Error("no app.ts block");
  return text.slice(open + 6, text.indexOf("\n```", open + 6) + 1);
}

function commands(sh: string): string[][] {
  return sh
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.startsWith("npx schemarouter "))
    .map((line) => line.split(/\s+/).slice(2));
}

function run(cwd: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const project = tempProject("quickstart");
let server: Awaited<ReturnType<typeof startPetstoreServer>>;
beforeAll(async () => {
  server = await startPetstoreServer({ token: "quickstart-token" });
});
afterAll(() => server.close());

describe("the quickstart, verbatim", () => {
  it("README and getting started show the same commands and the same app.ts", () => {
    expect(commands(block(readme, "## Quickstart", "sh"))).toEqual(
      commands(block(guide, "## Quickstart with your own OpenAPI document", "sh")),
    );
    const app = (text: string) => appBlock(text).split("\n").slice(1).join("\n");
    expect(app(readme)).toBe(app(guide));
  });

  it("init, add and compile, then tsc and node run app.ts as the comments say", async () => {
    copyFileSync(join(REPO_ROOT, "examples/petstore/openapi.yaml"), join(project.dir, "openapi.yaml"));
    for (const args of commands(block(guide, "## Quickstart with your own OpenAPI document", "sh"))) {
      const result = await runCli(project.dir, args);
      expect(result, `schemarouter ${args.join(" ")}: ${result.stderr}`).toMatchObject({ code: 0 });
    }
    writeFileSync(join(project.dir, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(project.dir, "app.ts"), appBlock(guide));
    writeFileSync(join(project.dir, "tsconfig.json"), block(guide, "with a `tsconfig.json` such as", "json"));

    const tsc = await run(project.dir, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "."]);
    expect(tsc, tsc.stdout).toMatchObject({ code: 0 });
    const app = await run(project.dir, ["dist/app.js"], {
      PETSTORE_URL: server.url,
      PETSTORE_TOKEN: "quickstart-token",
    });
    expect(app, `${app.stderr}\n${JSON.stringify(server.requests.map((r) => r.url))}`).toMatchObject({
      code: 0,
    });
    expect(app.stdout).toBe("{ name: 'Rex', weightKg: 31.5 }\nPOLICY_DENIED\n");
    expect(server.requests.map((request) => request.method)).toEqual(["GET"]);
  }, 120_000);
});
