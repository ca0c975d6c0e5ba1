/**
 * `schemarouter propose` and `schemarouter approve` (docs/sources/proposals.md, docs/reference/cli.md):
 * the command-line edge of the proposals module.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { CommanderError } from "commander";
import { loadConfig, type ProposerConfig } from "../config/config.js";
import { SourceError } from "../errors/errors.js";
import { approveProposal, DEFAULT_MIN_GROUNDING } from "../proposals/approve.js";
import { formatProposalDiff } from "../proposals/diff.js";
import { propose } from "../proposals/propose.js";

interface Io {
  readonly stdout: (text: string) => void;
  readonly cwd: string;
}

const NAME = /^[a-z][A-Za-z0-9_]*$/;

export function registerProposalCommands(program: Command, io: Io, configPath: () => string): void {
  program
    .command("propose <location>")
    .description(
      "propose endpoints from an HTML documentation page (URL or file); writes a non-executable proposal",
    )
    .requiredOption("--name <source>", "the source name the proposal is for")
    .option("--proposer <module>", "the proposer module (default: proposer.module in the config)")
    .option("--out <file>", "where to write the proposal (default proposals/<name>.proposal.json)")
    .option("--json", "the proposal summary as JSON")
    .action(
      async (
        location: string,
        options: { name: string; proposer?: string; out?: string; json?: boolean },
      ) => {
        if (!NAME.test(options.name))
          throw new CommanderError(
            2,
            "usage",
            "--name must start with a lower-case letter and use letters, digits and _",
          );
        const config = existsSync(configPath()) ? await loadConfig(configPath()) : undefined;
        const base = config?.dir ?? io.cwd;
        const proposer: ProposerConfig | undefined =
          options.proposer !== undefined
            ? { module: resolve(io.cwd, options.proposer), ...timeoutOf(config?.file.proposer) }
            : config?.file.proposer;
        if (proposer === undefined)
          throw new SourceError(
            options.name,
            "PROPOSER_INVALID",
            'no proposer: pass --proposer <module>, or set "proposer": { "module": "./proposer.mjs" } in the config.',
          );
        const out = resolve(io.cwd, options.out ?? join(base, "proposals", `${options.name}.proposal.json`));
        const result = await propose({
          source: options.name,
          location: /^https?:\/\//i.test(location) ? location : resolve(io.cwd, location),
          cwd: base,
          proposer,
          out,
          allowInsecureHttp: config?.allowInsecureHttp === true,
        });
        const { grounding } = result.proposal;
        if (options.json) {
          io.stdout(
            `${JSON.stringify({ path: out, endpoints: result.proposal.endpoints.length, grounding, dropped: result.proposal.dropped, changes: result.changes ?? null }, null, 2)}\n`,
          );
          return;
        }
        io.stdout(
          `Wrote ${out}: ${result.proposal.endpoints.length} grounded endpoint(s); ${grounding.grounded} of ${grounding.offered} proposed item(s) grounded, ${result.proposal.dropped.length} dropped.\n`,
        );
        for (const item of result.proposal.dropped)
          io.stdout(`  dropped ${item.kind} ${item.name || "(unnamed)"} at ${item.at}: ${item.reason}\n`);
        if (result.changes !== undefined) io.stdout(formatProposalDiff(result.changes));
        io.stdout(
          `Review it, then \`schemarouter approve ${out} --base-url <the API's base URL>\` (nothing is callable until then).\n`,
        );
      },
    );

  program
    .command("approve <proposal>")
    .description("approve a reviewed proposal as a `proposal` source (needs --base-url)")
    .option("--base-url <url>", "the API's base URL (origin and base path); never taken from the page")
    .option("--allow-mutations", "also compile the proposal's POST, PUT, PATCH and DELETE endpoints")
    .option(
      "--min-grounding <ratio>",
      `share of proposed items a quote must ground (default ${DEFAULT_MIN_GROUNDING})`,
    )
    .option("--name <source>", "the source name (default: the proposal's)")
    .action(
      async (
        proposal: string,
        options: { baseUrl?: string; allowMutations?: boolean; minGrounding?: string; name?: string },
      ) => {
        const result = await approveProposal({
          config: configPath(),
          proposal: resolve(io.cwd, proposal),
          baseUrl: options.baseUrl,
          allowMutations: options.allowMutations === true,
          minGrounding:
            options.minGrounding === undefined ? DEFAULT_MIN_GROUNDING : Number(options.minGrounding),
          ...(options.name !== undefined ? { name: options.name } : {}),
        });
        io.stdout(
          `${result.replaced ? "Re-approved" : "Approved"} proposal source "${result.name}" (${result.endpoints} endpoint(s), base URL ${result.source.baseUrl}) in ${configPath()}.\n`,
        );
        if (result.mutationsLeftOut.length > 0)
          io.stdout(
            `Left out ${result.mutationsLeftOut.length} state-changing endpoint(s) (${result.mutationsLeftOut.join(", ")}); approve with --allow-mutations to include them.\n`,
          );
        io.stdout(
          `Run \`schemarouter compile\`. Calls still pass the runtime policy (writes need allowMutations there too).\n`,
        );
      },
    );
}

function timeoutOf(config: ProposerConfig | undefined): { timeoutMs?: number } {
  return config?.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {};
}
