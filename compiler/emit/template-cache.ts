/**
 * The parsed bindings template, cached beside the written record (`node_modules/.cache/schemarouter/`
 * of the project's nearest package; docs/reference/cli.md, "Large projects"): parsing
 * templates/source-client.ts needs ts-morph (the TypeScript compiler), which takes longer to load
 * than recompiling one small source. The cache file is named by the template's digest and the
 * compiler version and holds the template pieces; one whose text is not exactly the template's, or
 * that is not all strings, is ignored and written again.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "schemarouter/internal";
import { type ClientTemplate, parseClientTemplate } from "./template.js";
import { COMPILER_VERSION } from "./version.js";
import { writeAtomic } from "./write.js";
import { cacheDirFor } from "./written-record.js";

const PIECES = [
  "text",
  "runtimeImport",
  "pinsOpen",
  "pinsClose",
  "fieldsOpen",
  "fieldProperty",
  "fieldsClose",
  "fieldAlias",
  "clientOpen",
  "clientClose",
  "method",
  "factory",
] as const satisfies readonly (keyof ClientTemplate)[];

/** The template parsed from `text`, from the cache of the project whose config is `configPath` when it has it. */
export async function cachedClientTemplate(text: string, configPath: string): Promise<ClientTemplate> {
  const dir = cacheDirFor(dirname(configPath));
  const file = join(
    dir,
    `template-${sha256(`${COMPILER_VERSION}\n${text}`).slice("sha256:".length, 23)}.json`,
  );
  const cached = readCached(file, text);
  if (cached !== undefined) return cached;
  const template = await parseClientTemplate(text);
  await writeAtomic(file, `${JSON.stringify(template)}\n`).catch(() => undefined);
  return template;
}

function readCached(file: string, text: string): ClientTemplate | undefined {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    if (value.text !== text || !PIECES.every((key) => typeof value[key] === "string")) return undefined;
    return Object.fromEntries(PIECES.map((key) => [key, value[key]])) as unknown as ClientTemplate;
  } catch {
    return undefined;
  }
}
