/**
 * `schemarouter init` and `schemarouter add`: create the config and append sources, validated
 * against the config schema and written atomically.
 */
import { readFile } from "node:fs/promises";
import { type ConfigFile, type SourceConfig, validateConfig } from "../config/config.js";
import { fileExists, writeAtomic } from "../emit/write.js";
import { ConfigError } from "../errors/errors.js";

export const INITIAL_CONFIG: ConfigFile = {
  $schema: "./node_modules/@schemarouter/compiler/dist/schemarouter.config.schema.json",
  outDir: "schemarouter",
  sources: {},
};

export async function initConfig(path: string, force: boolean): Promise<string> {
  if (!force && (await fileExists(path))) {
    throw new ConfigError(
      "CONFIG_EXISTS",
      `${path} already exists; edit it, or pass --force to overwrite it.`,
      { path },
    );
  }
  await writeAtomic(path, `${JSON.stringify(INITIAL_CONFIG, null, 2)}\n`);
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
