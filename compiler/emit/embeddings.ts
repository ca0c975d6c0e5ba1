/**
 * Compile-time vectors (docs/runtime/embeddings.md, "Compiling with an embedder"): when the config
 * names an embedder, each source's endpoints and declared fields are embedded with the text rule of
 * EMBEDDINGS_FORMAT and stored, quantised, in its artifact's `embeddings` member. Identical texts are
 * embedded once; the order is declaration order, so the same embedder output gives the same bytes.
 */
import { resolve } from "node:path";
import {
  type ArtifactEmbeddings,
  EMBEDDINGS_FORMAT,
  type Embedder,
  embedTexts,
  encodeVector,
  endpointText,
  fieldText,
  type RouteVectors,
  type ToolSpec,
} from "schemarouter/internal";
import type { EmbedderConfig, ResolvedConfig } from "../config/config.js";
import { ConfigError } from "../errors/errors.js";
import { importTrustedModule } from "../sources/local/index.js";
import type { SourceResult } from "../sources/types.js";

/** A loaded embedder with the batch size the config asks for. */
export interface CompileEmbedder extends Embedder {
  readonly batchSize: number | undefined;
}

/** The config's embedder, imported (a trusted local module); undefined when the config names none. */
export async function loadEmbedder(config: ResolvedConfig): Promise<CompileEmbedder | undefined> {
  const entry: EmbedderConfig | undefined = config.file.embedder;
  if (entry === undefined) return undefined;
  const path = resolve(config.dir, entry.module);
  const name = entry.export ?? "default";
  const invalid = (why: string, cause?: unknown) =>
    new ConfigError(
      "EMBEDDER_MODULE_INVALID",
      `${config.path}: embedder module ${entry.module} ${why}. Export an async embed(texts) function that returns one vector per text (docs/runtime/embeddings.md).`,
      { path, export: name },
      cause === undefined ? undefined : { cause },
    );
  let module: Record<string, unknown>;
  try {
    module = await importTrustedModule("embedder", path, entry.module);
  } catch (error) {
    throw invalid(`cannot be imported: ${(error as Error)?.message ?? String(error)}`, error);
  }
  const exported = Object.hasOwn(module, name) ? module[name] : undefined;
  const embed =
    typeof exported === "function"
      ? (exported as Embedder["embed"])
      : exported !== null &&
          typeof exported === "object" &&
          typeof (exported as Embedder).embed === "function"
        ? (texts: readonly string[]) => (exported as Embedder).embed(texts)
        : undefined;
  if (embed === undefined)
    throw invalid(`has no ${name === "default" ? "default" : `"${name}"`} export that is an embed function`);
  return { model: entry.model, embed, batchSize: entry.batchSize };
}

/**
 * The `embeddings` member for a source's tools; undefined without an embedder or without endpoints
 * (nothing to embed, no section).
 */
export async function embeddingsOf(
  result: SourceResult,
  embedder: CompileEmbedder | undefined,
): Promise<ArtifactEmbeddings | undefined> {
  if (embedder === undefined) return undefined;
  const { texts, routes } = textsOf(result.tools);
  if (texts.length === 0) return undefined;
  const vectors = await embedTexts(embedder, texts, {
    stage: "compile",
    ...(embedder.batchSize !== undefined ? { batchSize: embedder.batchSize } : {}),
  });
  return {
    format: EMBEDDINGS_FORMAT,
    model: embedder.model,
    dimension: vectors[0]!.length,
    routes,
    vectors: vectors.map(encodeVector),
  };
}

/** Distinct texts in first-use order, and each route's indices into them. */
function textsOf(tools: readonly ToolSpec[]): { texts: string[]; routes: Record<string, RouteVectors> } {
  const slots = new Map<string, number>();
  const slot = (text: string): number => {
    let at = slots.get(text);
    if (at === undefined) {
      at = slots.size;
      slots.set(text, at);
    }
    return at;
  };
  const routes: Record<string, RouteVectors> = {};
  for (const tool of tools) {
    for (const endpoint of tool.endpoints) {
      const fields: Record<string, number> = {};
      const endpointSlot = slot(endpointText(endpoint));
      for (const field of endpoint.fields) {
        Object.defineProperty(fields, field.id, {
          value: slot(fieldText(field)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      Object.defineProperty(routes, `${tool.name}.${endpoint.name}`, {
        value: { endpoint: endpointSlot, fields },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return { texts: [...slots.keys()], routes };
}
