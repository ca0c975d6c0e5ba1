/**
 * The plugin SourceAdapter (docs/plugins.md): a `plugin` source names a third-party source kind. The
 * providing package is chosen from package.json metadata and the allowlist before anything is imported;
 * then its `defineSourceAdapter(...)` runs once, bounded by a time limit, and its output is validated
 * and compiled into an HTTP tool like a built-in source's.
 */
import { pathToFileURL } from "node:url";
import { digestJson, sanitizeLocation } from "schemarouter/internal";
import type { PluginSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { fetchDocument } from "../fetch.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { selectPlugin } from "./allowlist.js";
import { isSourceAdapterPlugin, type PluginResolveContext } from "./define.js";
import { type DiscoveredPlugin, discoverPlugins } from "./discover.js";
import { buildPluginTool } from "./output.js";

export const DEFAULT_PLUGIN_TIMEOUT_MS = 60_000;

export const pluginAdapter: SourceAdapter<PluginSourceConfig> = {
  kind: "plugin",
  async resolve(name: string, config: PluginSourceConfig, context: SourceContext): Promise<SourceResult> {
    const plugin = selectPlugin(name, config.plugin, await discoverPlugins(context.cwd), context.plugins);
    const adapter = await importPlugin(name, plugin);
    if (!isSourceAdapterPlugin(adapter) || adapter.kind !== plugin.kind)
      throw new SourceError(
        name,
        "PLUGIN_INVALID",
        `${plugin.package}'s entry does not export defineSourceAdapter({ kind: "${plugin.kind}", … }) as its default export.`,
        { package: plugin.package },
      );
    const timeoutMs = context.plugins?.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS;
    const output = await bounded(name, plugin, timeoutMs, (signal) => {
      const pluginContext: PluginResolveContext = {
        source: name,
        cwd: context.cwd,
        signal,
        async fetchJson(url) {
          const bytes = await fetchDocument(name, url, {
            headers: {},
            allowInsecureHttp: context.allowInsecureHttp,
            signal,
            limits: { maxBytes: 16 * 1024 * 1024 },
          });
          return JSON.parse(Buffer.from(bytes).toString("utf8"));
        },
      };
      return adapter.resolve(config.options ?? {}, pluginContext);
    });
    const { tool, notes } = buildPluginTool(name, config, plugin, output);
    const location = (output as { location?: unknown }).location;
    return {
      tools: [tool],
      defs: {},
      compatibility: [],
      documentDigest: digestJson(output),
      location:
        typeof location === "string" && location !== ""
          ? sanitizeLocation(location)
          : `plugin:${plugin.package}@${plugin.version}`,
      notes,
    };
  },
};

async function importPlugin(source: string, plugin: DiscoveredPlugin): Promise<unknown> {
  try {
    const module = (await import(pathToFileURL(plugin.entry).href)) as { default?: unknown };
    return module.default;
  } catch (error) {
    throw new SourceError(
      source,
      "PLUGIN_FAILED",
      `importing ${plugin.package} failed: ${(error as Error)?.message ?? String(error)}`,
      { package: plugin.package, reason: "import" },
      { cause: error },
    );
  }
}

async function bounded(
  source: string,
  plugin: DiscoveredPlugin,
  timeoutMs: number,
  run: (signal: AbortSignal) => unknown,
): Promise<unknown> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new SourceError(
          source,
          "PLUGIN_FAILED",
          `${plugin.package} did not resolve within ${timeoutMs} ms; raise plugins.timeoutMs or report it to the plugin's authors.`,
          { package: plugin.package, reason: "timeout", timeoutMs },
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), timeout]);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      source,
      "PLUGIN_FAILED",
      `${plugin.package} threw: ${(error as Error)?.message ?? String(error)}`,
      { package: plugin.package, reason: "threw" },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
