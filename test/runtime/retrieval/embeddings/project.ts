/**
 * A compiled project over the weather-stations fixture (test/fixtures/embeddings/weather-api.yaml),
 * with or without the trigram embedder named in its config.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../../../../compiler/compile/compile.js";
import { REPO_ROOT, type TempProject, tempProject } from "../../../helpers/project.js";

export const FIXTURES = join(REPO_ROOT, "test/fixtures/embeddings");
export const EMBEDDER_MODULE = join(FIXTURES, "trigram-embedder.mjs");

export interface EmbedderEntry {
  readonly module?: string;
  readonly export?: string;
  readonly model?: string;
  readonly batchSize?: number;
}

export function weatherProject(): TempProject {
  return tempProject("embeddings");
}

/** Writes the config (the embedder entry when given) and compiles it. */
export async function compileWeather(project: TempProject, embedder?: EmbedderEntry | false) {
  project.write({
    sources: { weather: { kind: "openapi", location: join(FIXTURES, "weather-api.yaml") } },
    ...(embedder === undefined || embedder === false
      ? {}
      : { embedder: { module: EMBEDDER_MODULE, model: "trigram-256", ...embedder } }),
  });
  return compile({ config: project.configPath });
}

export const artifactPath = (project: TempProject) => join(project.outDir, "artifacts", "weather.json");
export const artifactText = (project: TempProject) => readFileSync(artifactPath(project), "utf8");
