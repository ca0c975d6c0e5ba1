/**
 * `schemarouter init` and `schemarouter add`: create the config and append sources, validated
 * against the config schema and written atomically.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type ConfigFile, type SourceConfig, validateConfig } from "../config/config.js";
import { fileExists, writeAtomic } from "../emit/write.js";
import { ConfigError } from "../errors/errors.js";

export const INITIAL_CONFIG: ConfigFile = {
  $schema: "./node_modules/@schemarouter/compiler/dist/schemarouter.config.schema.json",
  outDir: "schemarouter",
  sources: {},
};

/**
 * What `init` adds to `.gitattributes`: artifacts are pinned by the SHA-256 of their bytes, so a
 * CRLF checkout would make the lock refuse them (docs/reference/formats.md).
 */
export const GITATTRIBUTES_LINES = [
  "# schemarouter: artifacts are pinned by the SHA-256 of their bytes; never convert their line ends.",
  `${INITIAL_CONFIG.outDir}/artifacts/*.json -text`,
] as const;

export interface InitResult {
  readonly config: string;
  /** The .gitattributes written or extended, or undefined when it already had the lines. */
  readonly gitattributes: string | undefined;
}

export async function initConfig(path: string, force: boolean): Promise<InitResult> {
  if (!force && (await fileExists(path))) {
    throw new ConfigError(
      "CONFIG_EXISTS",
      `${path} already exists; edit it, or pass --force to overwrite it.`,
      { path },
    );
  }
  await writeAtomic(path, `${JSON.stringify(INITIAL_CONFIG, null, 2)}\n`);
  return { config: path, gitattributes: await ensureGitattributes(join(dirname(path), ".gitattributes")) };
}

async function ensureGitattributes(path: string): Promise<string | undefined> {
  const existing = (await fileExists(path)) ? await readFile(path, "utf8") : "";
  const lines = existing.split(/\r?\n/);
  const missing = GITATTRIBUTES_LINES.filter((line) => !lines.includes(line));
  if (!missing.some((line) => !line.startsWith("#"))) return undefined;
  const separator = existing === "" || existing.endsWith("\n") ? "" : "\n";
  await writeAtomic(path, `${existing}${separator}${missing.join("\n")}\n`);
  return path;
}

const NAME = /^[a-z][A-Za-z0-9_]*$/;

export async function addSource(path: string, name: string, source: SourceConfig): Promise<void> {
  if (!NAME.test(name)) {
    throw new ConfigError(
      "CONFIG_INVALID",
      `source name "${name}" must start with a lower-case letter and use only letters, digits and _ (it names the generated client).`,
      { name },
    );
  }
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new ConfigError("CONFIG_NOT_FOUND", `No config at ${path}. Run \`schemarouter init\` first.`, {
      path,
    });
  }
  const config = validateConfig(JSON.parse(text), path);
  if (Object.hasOwn(config.sources, name)) {
    throw new ConfigError(
      "SOURCE_EXISTS",
      `source "${name}" already exists in ${path}; pick another name or edit the config.`,
      { name },
    );
  }
  const next = { ...config, sources: { ...config.sources, [name]: source } };
  validateConfig(next, path);
  await writeAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
}
