/**
 * Provider identity from local config (docs/providers.md): the tools of a source listed under
 * `providers.<name>` get `provider: <name>` and the declared access mode, so planning and fallbacks
 * (same provider before cross-provider) know which tools reach the same provider. Both are
 * fingerprinted tool fields; nothing here grants authority.
 */
import type { ToolSpec } from "schemarouter/internal";
import type { ProvidersConfig } from "../config/config.js";

export function applyProvider(
  source: string,
  tools: readonly ToolSpec[],
  providers: ProvidersConfig | undefined,
): readonly ToolSpec[] {
  for (const [provider, { sources }] of Object.entries(providers ?? {})) {
    const accessMode = sources[source];
    if (accessMode !== undefined) return tools.map((tool) => ({ ...tool, provider, accessMode }));
  }
  return tools;
}
