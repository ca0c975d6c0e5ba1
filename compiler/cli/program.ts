/**
 * The `schemarouter` command line: init, add, compile, inspect, check/diff for drift review, db
 * migrate/status for the PostgreSQL runtime state, and serve (the locked capabilities as an MCP server,
 * docs/serve.md).
 * `main` returns the exit code instead of exiting, so tests run the real program in-process.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { isSchemaRouterError } from "schemarouter/internal";
import { diffLockStates, readLockState, readLockStateAtRevision } from "../compare/lock-state.js";
import {
  checkDrift,
  exceedsThreshold,
  type FailOn,
  formatDrift,
  type ReportFormat,
} from "../compile/check.js";
import { compile } from "../compile/compile.js";
import { formatCoverage, type SourceCoverage } from "../compile/coverage.js";
import { formatSummary } from "../compile/summary.js";
import { CONFIG_FILE, loadConfig } from "../config/config.js";
import { COMPILER_VERSION } from "../emit/version.js";
import { isCompilerError } from "../errors/errors.js";
import { compileJson } from "./compile-json.js";
import { compileProgress } from "./compile-progress.js";
import { dbMigrate, dbStatus } from "./db.js";
import { graphOfLock } from "./graph.js";
import { addSource, initConfig } from "./init.js";
import { inspectLock, inspectReport } from "./inspect.js";
import { runMigrate } from "./migrate.js";
import { registerPluginCommands } from "./plugins.js";
import { registerProposalCommands } from "./proposals.js";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isTTY?: boolean;
  /** Stops a long-running command (`serve`) when aborted; signals stop it too. */
  readonly signal?: AbortSignal;
}

export const processIo = (): CliIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
});

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = new Command("schemarouter")
    .description(
      "Compile OpenAPI, MCP, OPTIMADE and OData sources into pinned capabilities and typed bindings.",
    )
    .version(COMPILER_VERSION)
    .option("-c, --config <path>", "config file", CONFIG_FILE)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const configPath = () => resolve(io.cwd, program.opts<{ config: string }>().config);

  program
    .command("init")
    .description("write a new schemarouter.config.json")
    .option("--force", "overwrite an existing config")
    .action(async (options: { force?: boolean }) => {
      const written = await initConfig(configPath(), options.force === true);
      if (written.gitattributes !== undefined)
        io.stdout(`Wrote ${written.gitattributes} (artifacts keep their exact bytes in git).\n`);
      io.stdout(
        `Wrote ${written.config}. Add a source with \`schemarouter add openapi <name> <file-or-url>\`.\n`,
      );
    });

  const add = program.command("add").description("append a source to the config");
  add
    .command("openapi <name> <location>")
    .description("an OpenAPI 3.0/3.1 document (file path or https URL)")
    .action(async (name: string, location: string) => {
      await addSource(configPath(), name, { kind: "openapi", location });
      io.stdout(`Added openapi source "${name}". Run \`schemarouter compile\`.\n`);
    });
  add
    .command("mcp <name> [command...]")
    .description("an MCP server: --url <streamable-http-url>, or --stdio -- <command> [args...]")
    .option("--url <url>", "Streamable HTTP endpoint")
    .option("--stdio", "spawn the command after -- over stdio")
    .option("--env <names...>", "environment variable names passed to a stdio server")
    .action(
      async (name: string, command: string[], options: { url?: string; stdio?: boolean; env?: string[] }) => {
        if ((options.url === undefined) === (options.stdio !== true))
          throw new CommanderError(
            2,
            "usage",
            "give exactly one of --url <url> or --stdio -- <command> [args...]",
          );
        if (options.stdio && command.length === 0)
          throw new CommanderError(2, "usage", "--stdio needs a command after --");
        const source =
          options.url !== undefined
            ? { kind: "mcp" as const, url: options.url }
            : {
                kind: "mcp" as const,
                stdio: {
                  command: command[0]!,
                  args: command.slice(1),
                  ...(options.env ? { env: options.env } : {}),
                },
              };
        await addSource(configPath(), name, source);
        io.stdout(
          `Added mcp source "${name}". Classify its tools in "effects" to trust them, then run \`schemarouter compile\`.\n`,
        );
      },
    );
  add
    .command("optimade <name> <baseUrl>")
    .description("an OPTIMADE provider by base URL")
    .action(async (name: string, location: string) => {
      await addSource(configPath(), name, { kind: "optimade", location });
      io.stdout(`Added optimade source "${name}". Run \`schemarouter compile\`.\n`);
    });
  add
    .command("provider <name>")
    .description(
      "a provider's declared access methods, from a profile file (installs no SDK, stores no credential)",
    )
    .requiredOption("--profile <file>", "the provider profile (JSON)")
    .action(async (name: string, options: { profile: string }) => {
      const { addProvider, formatAddProvider } = await import("../providers/cli.js");
      io.stdout(
        formatAddProvider(name, await addProvider(configPath(), name, resolve(io.cwd, options.profile))),
      );
    });
  add
    .command("odata <name> <location>")
    .description("an OData v4 service by service root URL, or a CSDL XML file (with --service-root)")
    .option("--service-root <url>", "where calls go, when <location> is a CSDL file")
    .action(async (name: string, location: string, options: { serviceRoot?: string }) => {
      await addSource(configPath(), name, {
        kind: "odata",
        location,
        ...(options.serviceRoot !== undefined ? { serviceRoot: options.serviceRoot } : {}),
      });
      io.stdout(
        `Added odata source "${name}". Classify its actions in "effects" if they delete, then run \`schemarouter compile\`.\n`,
      );
    });
  add
    .command("graphql <name> <location>")
    .description("a GraphQL schema: the endpoint URL (introspected) or an SDL file path")
    .action(async (name: string, location: string) => {
      await addSource(configPath(), name, { kind: "graphql", location });
      io.stdout(
        `Added graphql source "${name}". Classify destructive mutations in "effects", then run \`schemarouter compile\`.\n`,
      );
    });
  add
    .command("openrpc <name> [location]")
    .description(
      "an OpenRPC document (file path or https URL) with --url <json-rpc-endpoint>, or --discover <json-rpc-endpoint>",
    )
    .option("--url <url>", "the JSON-RPC endpoint calls go to")
    .option("--discover <url>", "read the document from the endpoint's rpc.discover (calls go there too)")
    .action(
      async (name: string, location: string | undefined, options: { url?: string; discover?: string }) => {
        if ((location === undefined) === (options.discover === undefined))
          throw new CommanderError(2, "usage", "give exactly one of <location> or --discover <url>");
        if (location !== undefined && options.url === undefined)
          throw new CommanderError(2, "usage", "a document <location> needs --url <json-rpc-endpoint>");
        await addSource(configPath(), name, {
          kind: "openrpc",
          ...(location !== undefined ? { location } : {}),
          ...(options.discover !== undefined ? { discover: options.discover } : {}),
          ...(options.url !== undefined ? { url: options.url } : {}),
        });
        io.stdout(
          `Added openrpc source "${name}". Classify its methods in "effects" to allow calls, then run \`schemarouter compile\`.\n`,
        );
      },
    );
  add
    .command("local <name> <module>")
    .description("a local TypeScript/JavaScript tool module (default export defineLocalTool(...))")
    .action(async (name: string, module: string) => {
      await addSource(configPath(), name, { kind: "local", module });
      io.stdout(`Added local source "${name}". Run \`schemarouter compile\`.\n`);
    });

  program
    .command("compile")
    .description("resolve sources; write artifacts, schemarouter.lock.json and typed bindings")
    .option("--check", "write nothing; exit 1 if the lockfile or bindings on disk are stale")
    .option("--dry-run", "show what would change without writing")
    .option("--frozen", "refuse to change the lockfile (CI); exit 1 if it would change")
    .option("--json", "machine-readable summary on stdout")
    .option("--strict", "exit 1 when an operation is left out or a source compiles to 0 endpoints")
    .option("--jobs <n>", "sources compiled at once, in worker threads (default: one per core)")
    .option("--keep-going", "leave refused sources out of the lockfile and compile the rest (reported)")
    .option(
      "--no-cache",
      "read and hash every file again instead of trusting the compile cache's stat records",
    )
    .action(
      async (options: {
        cache?: boolean;
        check?: boolean;
        dryRun?: boolean;
        json?: boolean;
        frozen?: boolean;
        strict?: boolean;
        jobs?: string;
        keepGoing?: boolean;
      }) => {
        const mode = options.check ? "check" : options.dryRun ? "dry-run" : "write";
        const progress = io.isTTY === true && !options.json;
        const result = await compile({
          config: configPath(),
          mode,
          env: io.env,
          frozen: options.frozen === true,
          keepGoing: options.keepGoing === true,
          cache: options.cache !== false,
          ...(options.jobs !== undefined ? { jobs: jobsOption(options.jobs) } : {}),
          ...(progress ? { onProgress: compileProgress(io.stderr) } : {}),
        });
        const stale = result.write.stale.map((path) => relativeTo(io.cwd, path));
        if (options.json) {
          io.stdout(
            `${JSON.stringify(
              compileJson(result, mode, (path) => relativeTo(io.cwd, path)),
              null,
              2,
            )}\n`,
          );
        } else {
          const coverage = new Map(result.coverage.map((entry) => [entry.source, entry]));
          for (const summary of result.summaries) {
            const found = coverage.get(summary.source);
            io.stdout(`${[formatSummary(summary), ...(found ? formatCoverage(found) : [])].join("\n")}\n`);
          }
          if (result.changes !== undefined && result.changes.report.category !== "identical")
            io.stdout(formatDrift(result.changes, "text"));
          for (const note of result.notes) io.stdout(`note: ${note}\n`);
          if (mode === "check")
            io.stdout(
              stale.length === 0
                ? "Up to date.\n"
                : `Stale (run \`schemarouter compile\`):\n${stale.map((p) => `  ${p}`).join("\n")}\n`,
            );
          else if (mode === "dry-run")
            io.stdout(
              stale.length === 0
                ? "Nothing would change.\n"
                : `Would write:\n${stale.map((p) => `  ${p}`).join("\n")}\n`,
            );
          else
            io.stdout(
              result.write.written.length === 0
                ? "Nothing changed.\n"
                : `Wrote ${result.write.written.length} file(s).\n`,
            );
          if (result.refused.length > 0)
            io.stdout(
              `Refused ${result.refused.length} source(s), left out of the lockfile: ${result.refused.map((entry) => `${entry.source} [${entry.code}]`).join(", ")}.\n`,
            );
        }
        if (!options.json) for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
        if (mode === "check" && stale.length > 0) exitCode = 1;
        if (options.strict === true && strictFails(result.coverage, io)) exitCode = 1;
        if (options.strict === true && result.refused.length > 0) {
          io.stderr(`error: --strict: ${result.refused.length} source(s) refused and left out.\n`);
          exitCode = 1;
        }
      },
    );

  const format = (options: { json?: boolean; format?: string }): ReportFormat =>
    options.json ? "json" : options.format === "markdown" ? "markdown" : "text";
  const failOn = (value: string | undefined): FailOn => {
    if (value === undefined || value === "any" || value === "breaking" || value === "security-review")
      return value ?? "any";
    throw new CommanderError(2, "usage", `--fail-on takes breaking, security-review or any (got ${value})`);
  };

  program
    .command("check")
    .description(
      "re-resolve every source without writing; exit 0 if it matches the lock, 1 on drift, 2 if it cannot tell",
    )
    .option("--json", "the classified report as JSON")
    .option("--format <format>", "text (default) or markdown (for a PR comment)")
    .option("--fail-on <category>", "breaking | security-review | any (default any)")
    .option("--strict", "also exit 1 when an operation is left out or a source compiles to 0 endpoints")
    .action(async (options: { json?: boolean; format?: string; failOn?: string; strict?: boolean }) => {
      const threshold = failOn(options.failOn);
      const result = await checkDrift(configPath(), io.env);
      io.stdout(formatDrift(result, format(options)));
      if (!options.json) for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
      if (exceedsThreshold(result.report.category, threshold)) exitCode = 1;
      for (const drift of result.embeddings) io.stderr(`embeddings: ${drift.message}\n`);
      if (result.embeddings.length > 0) exitCode = 1;
      if (options.strict === true && strictFails(result.coverage, io)) exitCode = 1;
    });

  program
    .command("diff")
    .description(
      "classify what changed between two lockfiles plus artifacts (default: the working tree against HEAD)",
    )
    .option("--base <ref-or-lockfile>", "a git revision or a lockfile path", "HEAD")
    .option("--json", "the classified report as JSON")
    .option("--format <format>", "text (default) or markdown (for a PR comment)")
    .option("--fail-on <category>", "exit 1 when a change reaches breaking | security-review | any")
    .action(async (options: { base: string; json?: boolean; format?: string; failOn?: string }) => {
      const config = await loadConfig(configPath());
      const basePath = resolve(io.cwd, options.base);
      const base = existsSync(basePath)
        ? readLockState(basePath)
        : readLockStateAtRevision(config.lockfile, options.base);
      const result = diffLockStates(base, readLockState(config.lockfile));
      io.stdout(formatDrift(result, format(options)));
      if (options.failOn !== undefined && exceedsThreshold(result.report.category, failOn(options.failOn)))
        exitCode = 1;
    });

  program
    .command("inspect [route]")
    .description("list locked capabilities, or show one tool.endpoint contract")
    .option("--json", "machine-readable output")
    .option("--report <source>", "everything the source left out or supports partly, from its artifact")
    .action(async (route: string | undefined, options: { json?: boolean; report?: string }) => {
      const config = await loadConfig(configPath());
      if (options.report !== undefined) {
        const report = await inspectReport(config.lockfile, options.report, options.json === true);
        io.stdout(report.text);
        exitCode = report.exitCode;
        return;
      }
      const output = await inspectLock(config.lockfile, route, options.json === true);
      if (output.exitCode === 0 || options.json === true) io.stdout(output.text);
      else io.stderr(output.text);
      exitCode = output.exitCode;
    });

  program
    .command("report <trace-db>")
    .description("aggregate stored runs: routes, refusals by code, fallbacks, budgets, latency")
    .option("--format <format>", "text, json or html", "text")
    .option("--out <file>", "write the report to a file instead of stdout")
    .option("--max-runs <n>", "refuse a store with more runs than this (default 100000)")
    .action(async (database: string, options: { format: string; out?: string; maxRuns?: string }) => {
      const { runReport } = await import("./report.js");
      io.stdout(await runReport(io.cwd, database, options));
    });

  program
    .command("migrate")
    .description("upgrade locked artifacts of an older format version (contracts unchanged)")
    .option("--check", "exit 1 if anything would be migrated; write nothing")
    .option("--json", "machine-readable output")
    .action(async (options: { check?: boolean; json?: boolean }) => {
      const config = await loadConfig(configPath());
      const output = await runMigrate(config.lockfile, options);
      io.stdout(output.text);
      exitCode = output.exitCode;
    });

  program
    .command("graph")
    .description("the capability graph of the locked catalog: which fields supply which parameters")
    .option("--format <format>", "text, mermaid, dot or json", "text")
    .action(async (options: { format: string }) => {
      const config = await loadConfig(configPath());
      const output = await graphOfLock(config.lockfile, options.format);
      if (output.exitCode === 0) io.stdout(output.text);
      else io.stderr(output.text);
      exitCode = output.exitCode;
    });

  const db = program
    .command("db")
    .description("the PostgreSQL runtime state (budgets, availability, traces)");
  for (const [name, description, run] of [
    ["migrate", "apply pending schema migrations (the only command that changes the schema)", dbMigrate],
    ["status", "show the schema version; exit 1 when migrations are pending", dbStatus],
  ] as const) {
    db.command(name)
      .description(description)
      .option("--url <url>", "postgres:// connection URL (default: $DATABASE_URL)")
      .option("--schema <name>", "PostgreSQL schema of the state (default schemarouter)")
      .option("--json", "machine-readable output")
      .action(async (options: { url?: string; schema?: string; json?: boolean }) => {
        const output = await run(options, io.env);
        io.stdout(output.text);
        exitCode = output.exitCode;
      });
  }

  program
    .command("serve")
    .description("serve the locked capabilities as an MCP server: stdio (default) or Streamable HTTP")
    .option("--stdio", "one session over stdin/stdout (what Claude Desktop and Cursor start)")
    .option("--http [host:port]", "Streamable HTTP (default from serve.http, 127.0.0.1:8931)")
    .option("--no-watch", "do not reload when the lockfile or an artifact changes")
    .action(async (options: { stdio?: boolean; http?: string | boolean; watch?: boolean }) => {
      if (options.stdio === true && options.http !== undefined)
        throw new CommanderError(2, "usage", "give --stdio or --http, not both");
      const { runServe } = await import("./serve.js");
      exitCode = await runServe(configPath(), io, options);
    });

  registerProposalCommands(program, io, configPath);
  registerPluginCommands(program, io, configPath);

  const json = argv.includes("--json");
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    const report = (code: string, message: string, details?: unknown) => {
      // In --json mode stdout stays machine-readable even for errors (docs/reference/cli.md).
      if (json)
        io.stdout(
          `${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }, null, 2)}\n`,
        );
      io.stderr(`error${code === "USAGE" ? "" : ` [${code}]`}: ${message}\n`);
    };
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.exitCode === 0
      )
        return 0;
      if (error.code === "usage") report("USAGE", error.message);
      else if (json)
        io.stdout(`${JSON.stringify({ error: { code: "USAGE", message: error.message } }, null, 2)}\n`);
      return 2;
    }
    if (isCompilerError(error) || isSchemaRouterError(error)) {
      report(error.code, error.message, error.details);
      // A frozen lock that would change is a finding (like drift), not a failure to tell.
      return error.code === "LOCK_FROZEN" ? 1 : 2;
    }
    // Not one of ours: still no stack trace for a user; the message, and where to report it.
    report(
      "INTERNAL",
      `${(error as Error)?.message ?? String(error)} (an unexpected error; set SCHEMAROUTER_DEBUG=1 for the stack and please report it)`,
    );
    if (io.env.SCHEMAROUTER_DEBUG === "1") io.stderr(`${(error as Error)?.stack ?? ""}\n`);
    return 2;
  }
}

/** `--strict`: says on stderr which sources left operations out (or compiled to nothing); true if any did. */
function strictFails(coverage: readonly SourceCoverage[], io: CliIo): boolean {
  const failing = coverage.filter((source) => source.leftOut > 0 || source.endpoints === 0);
  for (const source of failing)
    io.stderr(
      `error: --strict: source "${source.source}" ${source.endpoints === 0 ? "has 0 endpoints" : `left out ${source.leftOut} operation(s)`} (${source.leftOutReasons.map((r) => `${r.construct} ${r.count}`).join(", ") || "nothing to compile"}); see \`schemarouter inspect --report ${source.source}\`.\n`,
    );
  return failing.length > 0;
}

/** `--jobs <n>`: a positive integer. */
function jobsOption(value: string): number {
  const jobs = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(jobs))
    throw new CommanderError(2, "usage", `--jobs takes a positive integer (got ${value})`);
  return jobs;
}

function relativeTo(cwd: string, path: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
