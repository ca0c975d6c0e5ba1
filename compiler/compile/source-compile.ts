/**
 * Compiling one source: resolve it with its adapter, apply trusted overlays and provider identity,
 * emit its artifact and fingerprint its tools. Used on the main thread and in compile workers
 * (source-worker.ts) alike, so a source compiles to the same bytes wherever it runs.
 */
import { join, relative } from "node:path";
import type { ArtifactEmbeddings, SourceKind, ToolSpec } from "schemarouter/internal";
import { DefinitionSet, type RegisteredTool, registerTool } from "schemarouter/internal";
import type { ResolvedConfig, SourceConfig } from "../config/config.js";
import { emitArtifact } from "../emit/artifact.js";
import type { CompiledSource } from "../emit/lockfile.js";
import { applyOverlays } from "../overlays/overlays.js";
import { applyProvider } from "../providers/apply.js";
import type { SourceContext, SourceResult } from "../sources/types.js";

export async function resolveSource(
  name: string,
  config: SourceConfig,
  context: SourceContext,
): Promise<SourceResult> {
  // Loaded here, by kind: a compile that reuses every source never loads an adapter, and one of
  // OpenAPI documents only the OpenAPI adapter.
  const { loadAdapter } = await import("../sources/adapter-loaders.js");
  const adapter = await loadAdapter(config.kind);
  const result = await adapter.resolve(name, config, context);
  const tools = applyProvider(
    name,
    applyOverlays(name, result.tools, result.defs, config.overlays),
    context.providers,
  );
  return { ...result, tools };
}

export function compileSource(
  name: string,
  kind: SourceKind,
  result: SourceResult,
  config: ResolvedConfig,
  embeddings?: ArtifactEmbeddings,
): CompiledSource {
  const { artifact, text: artifactText, defs } = emitArtifact(name, kind, result, embeddings);
  return {
    name,
    artifact,
    artifactText,
    artifactPath: artifactPathOf(name, config),
    tools: register(name, kind, artifact, defs),
  };
}

/** Registers (fingerprints) every tool of an artifact. */
export function register(
  name: string,
  kind: SourceKind,
  artifact: CompiledSource["artifact"],
  defs: DefinitionSet = new DefinitionSet(artifact.$defs),
): RegisteredTool[] {
  return artifact.tools.map((tool: ToolSpec) =>
    registerTool({
      tool,
      source: name,
      sourceKind: kind,
      defs,
      remoteDigests: artifact.remoteDigests[tool.name] ?? {},
    }),
  );
}

/** The context adapters resolve a source in, from the config and the environment. */
export function sourceContext(
  config: ResolvedConfig,
  env: Readonly<Record<string, string | undefined>>,
): SourceContext {
  return {
    cwd: config.dir,
    env,
    allowInsecureHttp: config.allowInsecureHttp,
    ...(config.file.plugins !== undefined ? { plugins: config.file.plugins } : {}),
    ...(config.file.providers !== undefined ? { providers: config.file.providers } : {}),
  };
}

/** The artifact path relative to the lockfile's directory, with `/` separators. */
export function artifactPathOf(name: string, config: ResolvedConfig): string {
  return relative(join(config.lockfile, ".."), artifactFileOf(name, config)).split("\\").join("/");
}

/** The artifact file of a source. */
export function artifactFileOf(name: string, config: Pick<ResolvedConfig, "outDir">): string {
  return join(config.outDir, "artifacts", `${name}.json`);
}
