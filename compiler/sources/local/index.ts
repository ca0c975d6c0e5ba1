/**
 * The local SourceAdapter: a trusted TypeScript/JavaScript module whose default (or named) export is
 * `defineLocalTool(...)`. TypeScript modules are transpiled next to themselves (so relative imports
 * resolve) into a temporary .mjs file that is removed after import.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  digestJson,
  isLocalToolDefinition,
  type LocalToolDefinition,
  localToolSpec,
  sha256,
} from "schemarouter/internal";
import type { LocalSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { hoistDefinitions } from "./definitions.js";

export const localAdapter: SourceAdapter<LocalSourceConfig> = {
  kind: "local",
  async resolve(name: string, config: LocalSourceConfig, context: SourceContext): Promise<SourceResult> {
    const { path, definition } = await loadLocalDefinition(name, config, context.cwd);
    const tool = localToolSpec(definition);
    const shared = hoistDefinitions(name, tool);
    return {
      tools: [shared.tool],
      defs: shared.defs,
      compatibility: [],
      // The digest of the definition as written (before overlays and before its $defs are shared):
      // what the runtime re-derives from the live module.
      documentDigest: digestJson(tool),
      location: relative(context.cwd, path).split("\\").join("/"),
    };
  },
};

/** Imports a local source's module and returns its definition (also what `schemarouter serve` binds). */
export async function loadLocalDefinition(
  name: string,
  config: LocalSourceConfig,
  cwd: string,
): Promise<{ readonly path: string; readonly definition: LocalToolDefinition }> {
  const path = resolve(cwd, config.module);
  const module = await importTrustedModule(name, path, config.module);
  const exported = module[config.export ?? "default"];
  if (!isLocalToolDefinition(exported)) {
    throw new SourceError(
      name,
      "LOCAL_MODULE_INVALID",
      `${config.module} does not export ${config.export ?? "a default"} defineLocalTool(...) definition.`,
    );
  }
  return { path, definition: exported };
}

/**
 * Imports a trusted local module (.ts transpiled next to itself). The URL carries the text's digest,
 * so a changed module is imported afresh in a long-running process (serve reloads).
 */
export async function importTrustedModule(
  source: string,
  path: string,
  shown: string = path,
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new SourceError(source, "LOCAL_MODULE_INVALID", `cannot read ${shown}.`, {}, { cause: error });
  }
  return importModule(source, path, text);
}

async function importModule(source: string, path: string, text: string): Promise<Record<string, unknown>> {
  if (!/\.(c|m)?tsx?$/.test(path))
    return (await import(`${pathToFileURL(path).href}?digest=${sha256(text).slice(7, 19)}`)) as Record<
      string,
      unknown
    >;
  // TypeScript (bundled by ts-morph) is loaded only when a .ts tool module is compiled.
  const { ts } = await import("ts-morph");
  const output = ts.transpileModule(text, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
    fileName: path,
  }).outputText;
  const temp = join(
    dirname(path),
    `.schemarouter-${basename(path).replace(/\W/g, "_")}-${sha256(output).slice(7, 19)}.mjs`,
  );
  await writeFile(temp, output, "utf8");
  try {
    return (await import(pathToFileURL(temp).href)) as Record<string, unknown>;
  } catch (error) {
    throw new SourceError(
      source,
      "LOCAL_MODULE_INVALID",
      `importing ${basename(path)} failed: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  } finally {
    await rm(temp, { force: true });
  }
}
