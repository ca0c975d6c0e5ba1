/**
 * `schemarouter plugins` (docs/plugins.md, "Discovery"): lists installed adapter plugins and whether
 * the config allows each, from package.json metadata only — nothing is imported or executed.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../config/config.js";
import { BUILT_IN_KINDS, satisfies } from "../sources/plugin/allowlist.js";
import { discoverPlugins } from "../sources/plugin/discover.js";

interface Io {
  readonly stdout: (text: string) => void;
}

export function registerPluginCommands(program: Command, io: Io, configPath: () => string): void {
  program
    .command("plugins")
    .description("list installed adapter plugins and whether plugins.allow permits them (imports nothing)")
    .option("--json", "machine-readable output")
    .action(async (options: { json?: boolean }) => {
      const config = existsSync(configPath()) ? await loadConfig(configPath()) : undefined;
      const allow = config?.file.plugins?.allow ?? [];
      const found = await discoverPlugins(config?.dir ?? dirname(configPath()));
      const rows = found.map((plugin) => {
        const entries = allow.filter((entry) => entry.package === plugin.package);
        const duplicate =
          BUILT_IN_KINDS.includes(plugin.kind) ||
          found.filter((other) => other.kind === plugin.kind).length > 1;
        const status =
          plugin.problem !== undefined
            ? `invalid: ${plugin.problem}`
            : duplicate
              ? `refused: the kind "${plugin.kind}" is ${BUILT_IN_KINDS.includes(plugin.kind) ? "built in" : "declared twice"}`
              : entries.length === 0
                ? "not allowed (not on plugins.allow)"
                : entries.some((entry) => satisfies(plugin.version, entry.range))
                  ? "allowed"
                  : `not allowed (plugins.allow permits ${entries.map((e) => e.range).join(", ")})`;
        return { package: plugin.package, version: plugin.version, kind: plugin.kind, status };
      });
      if (options.json) {
        io.stdout(`${JSON.stringify({ plugins: rows }, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        io.stdout("No adapter plugins installed.\n");
        return;
      }
      for (const row of rows) io.stdout(`${row.package}@${row.version}  kind ${row.kind}  ${row.status}\n`);
    });
}
