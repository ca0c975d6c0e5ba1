/** What `schemarouter add provider` prints (docs/providers.md, "Adding a provider from a profile"). */
import type { AddProviderResult } from "./profile.js";

export { addProvider } from "./profile.js";

export function formatAddProvider(name: string, result: AddProviderResult): string {
  const lines = [`Added provider "${name}" with ${result.sources.length} access method(s):`];
  for (const source of result.sources)
    lines.push(`  source ${source.name} (${source.kind}, access mode ${source.accessMode})`);
  for (const sdk of result.sdks)
    lines.push(
      `  not added: access mode ${sdk.accessMode} is the SDK ${sdk.package}; SchemaRouter installs no SDK (install and bind it yourself if you want it).`,
    );
  if (result.sources.some((source) => source.kind === "mcp"))
    lines.push('MCP tools stay unclassified until you classify them in the source\'s "effects".');
  lines.push("No credential was stored: bind headers at run time. Run `schemarouter compile`.");
  return `${lines.join("\n")}\n`;
}
