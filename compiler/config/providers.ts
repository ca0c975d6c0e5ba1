/**
 * `providers` in the config (docs/providers.md): one logical provider's access methods, as the sources
 * that reach it and the access mode of each. Its type, JSON Schema fragment and the checks JSON Schema
 * cannot express (a source in two providers, a provider naming a source that does not exist).
 */
import { ConfigError } from "../errors/errors.js";

export interface ProviderConfig {
  readonly description?: string;
  /** Source name → access mode (e.g. `rest`, `graphql`, `mcp`). */
  readonly sources: Readonly<Record<string, string>>;
}

export type ProvidersConfig = Readonly<Record<string, ProviderConfig>>;

export const providersSchema = {
  type: "object",
  description: "Logical providers and the sources that are their access methods (docs/providers.md).",
  propertyNames: { pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,63}$" },
  additionalProperties: {
    type: "object",
    required: ["sources"],
    additionalProperties: false,
    properties: {
      description: { type: "string" },
      sources: {
        type: "object",
        minProperties: 1,
        propertyNames: { pattern: "^[a-z][A-Za-z0-9_]*$" },
        additionalProperties: { type: "string", pattern: "^[a-z][a-z0-9-]{0,31}$" },
        description: "Source name → access mode.",
      },
    },
  },
} as const;

export function checkProviders(
  providers: ProvidersConfig | undefined,
  sources: Readonly<Record<string, unknown>>,
  where: string,
): void {
  const owner = new Map<string, string>();
  for (const [provider, { sources: members }] of Object.entries(providers ?? {})) {
    for (const source of Object.keys(members)) {
      if (!Object.hasOwn(sources, source))
        throw new ConfigError(
          "CONFIG_INVALID",
          `${where}: providers.${provider} names source "${source}", which is not in "sources".`,
          { path: where, source, key: `providers.${provider}.sources.${source}` },
        );
      const other = owner.get(source);
      if (other !== undefined)
        throw new ConfigError(
          "CONFIG_INVALID",
          `${where}: source "${source}" is listed under both providers.${other} and providers.${provider}; a source reaches one provider.`,
          { path: where, source, key: `providers.${provider}.sources.${source}` },
        );
      owner.set(source, provider);
      // A GraphQL source can name its provider itself; two answers to one question are refused.
      const own = (sources[source] as { provider?: unknown } | undefined)?.provider;
      if (typeof own === "string" && own !== provider)
        throw new ConfigError(
          "CONFIG_INVALID",
          `${where}: source "${source}" says "provider": "${own}" but is listed under providers.${provider}; keep one of the two.`,
          { path: where, source, key: `sources.${source}.provider` },
        );
    }
  }
}
