/**
 * Every client configuration and command in docs/serve.md works as written against examples/serve/:
 * the Claude Desktop and Cursor stdio entries (with `/path/to/schemarouter` as this repository), the
 * Cursor URL entry, and each shell command (the MCP Inspector's included: what it starts is the
 * command after `npx @modelcontextprotocol/inspector`). Each is started, initialized, listed and
 * called with the MCP SDK's Client. Also: the example's committed lock is current.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPetstoreServer } from "../../examples/petstore/server.mjs";
import { runCli } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/project.js";

const PAGE = readFileSync(join(REPO_ROOT, "docs/serve.md"), "utf8");
const PLACEHOLDER = "/path/to/schemarouter";
const CONFIG = "examples/serve/schemarouter.config.json";

interface StdioEntry {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
}

/** The fenced blocks of a language. */
function blocks(language: string): string[] {
  return [...PAGE.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);
}

const servers = blocks("json")
  .map((text) => JSON.parse(text) as { mcpServers?: Record<string, StdioEntry | { url: string }> })
  .flatMap((config) => Object.values(config.mcpServers ?? {}));

/** Shell commands: `cd` changes the directory, `export`/`VAR=value` set the environment. */
interface ShellCommand {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly argv: string[];
}

function shellCommands(): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const block of blocks("sh")) {
    let cwd = REPO_ROOT;
    const env: Record<string, string> = {};
    for (const raw of block.split("\n")) {
      const words = raw
        .replace(/\s+#.*$/, "")
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      if (words.length === 0) continue;
      if (words[0] === "cd") {
        cwd = resolve(cwd, words[1]!);
        continue;
      }
      if (words[0] === "export") {
        const [name, value] = words[1]!.split("=") as [string, string];
        env[name] = value;
        continue;
      }
      const local = { ...env };
      while (/^[A-Z_]+=/.test(words[0]!)) {
        const [name, value] = words.shift()!.split("=") as [string, string];
        local[name] = value;
      }
      let argv: string[] = words;
      if (argv[0] === "npx" && argv[1] === "@modelcontextprotocol/inspector") {
        argv = argv.slice(2);
        // The Inspector passes `-e NAME=value` to the server it starts.
        while (argv[0] === "-e") {
          const [name, value] = argv[1]!.split("=") as [string, string];
          local[name] = value;
          argv = argv.slice(2);
        }
      }
      out.push({ cwd, env: local, argv });
    }
  }
  return out;
}

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  expect(names).toContain("petstore.getPetById");
  expect(names).toContain("memory.read_graph");
  const pet = await client.callTool({ name: "petstore.getPetById", arguments: { petId: "rex" } });
  expect(pet.structuredContent).toEqual({
    id: "rex",
    name: "Rex",
    weightKg: 31500,
    owner: { address: { city: "Seoul" } },
  });
  const graph = await client.callTool({ name: "memory.read_graph", arguments: {} });
  expect(graph.isError).toBeUndefined();
  const denied = await client.callTool({
    name: "memory.create_entities",
    arguments: { entities: [{ name: "x", entityType: "y", observations: [] }] },
  });
  expect(JSON.parse((denied.content as { text: string }[])[0]!.text)).toMatchObject({
    code: "POLICY_DENIED",
  });
}

async function overStdio(command: string, args: string[], env: Record<string, string>, cwd: string) {
  const client = new Client({ name: "serve-docs-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stderr: "ignore",
    }),
  );
  try {
    await exercise(client);
  } finally {
    await client.close();
  }
}

/** Starts an HTTP serve command and resolves with its URL once it listens. */
function startHttp(command: ShellCommand): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, command.argv.slice(1), {
    cwd: command.cwd,
    env: { PATH: process.env.PATH ?? "", ...command.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolvePromise, reject) => {
    let text = "";
    child.once("exit", (code) => reject(new Error(`${command.argv.join(" ")} exited with ${code}: ${text}`)));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const match = /tools at (http:\/\/\S+) /.exec(text);
      if (match !== null) {
        child.removeAllListeners("exit");
        resolvePromise({ child, url: match[1]! });
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise();
    child.once("exit", () => resolvePromise());
    child.kill("SIGTERM");
  });
}

describe("docs/serve.md against examples/serve/", () => {
  let petstore: Awaited<ReturnType<typeof startPetstoreServer>>;

  beforeAll(async () => {
    // The example's upstream (examples/serve/petstore.mjs starts the same server on the same port).
    petstore = await startPetstoreServer({ port: 18474, token: "demo-token" });
  });
  afterAll(async () => {
    await petstore?.close();
  });

  it("has a current lock for the example", async () => {
    const run = await runCli(REPO_ROOT, ["compile", "--check", "--config", CONFIG], {
      PATH: process.env.PATH,
      MEMORY_FILE_PATH: "/tmp/schemarouter-memory.jsonl",
    });
    expect(run.stdout).toContain("Up to date.");
    expect(run.code).toBe(0);
  });

  it("serves the Claude Desktop and Cursor stdio entries as written", async () => {
    const entries = servers.filter((entry): entry is StdioEntry => "command" in entry);
    expect(entries.length).toBe(2);
    for (const entry of entries) {
      const args = entry.args.map((arg) => arg.replaceAll(PLACEHOLDER, REPO_ROOT));
      await overStdio(entry.command, args, entry.env ?? {}, "/");
    }
  });

  it("runs every shell command as written, and serves HTTP where the URL entries point", async () => {
    const commands = shellCommands().filter((command) => command.argv.includes("serve"));
    expect(commands.length).toBe(5);
    const urls = servers
      .filter((entry): entry is { url: string } => "url" in entry)
      .map((entry) => entry.url);
    expect(urls).toEqual(["http://127.0.0.1:8931/mcp"]);
    for (const command of commands) {
      expect(command.argv[0]).toBe("node");
      if (command.argv.includes("--stdio")) {
        await overStdio("node", command.argv.slice(1), command.env, command.cwd);
        continue;
      }
      const { child, url } = await startHttp(command);
      try {
        if (!command.argv.includes("127.0.0.1:9000")) expect(url).toBe(urls[0]);
        else expect(url).toBe("http://127.0.0.1:9000/mcp");
        const client = new Client({ name: "serve-docs-test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        await exercise(client);
        await client.close();
      } finally {
        await stop(child);
      }
    }
  });
});
