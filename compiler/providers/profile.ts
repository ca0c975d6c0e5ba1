/**
 * Provider-first registration (docs/providers.md, "Adding a provider from a profile"): a profile file
 * declares one provider's access methods; `schemarouter add provider` turns the protocol ones into
 * sources and a `providers` entry. It never installs an SDK (SDK methods are only reported), never
 * persists a credential and never grants authority: a profile with headers, environment variables,
 * effects or policy keys is refused.
 */
import { readFile, stat } from "node:fs/promises";
import { type JsonSchema, ValidatorSet } from "schemarouter/internal";
import { type ConfigFile, type SourceConfig, validateConfig } from "../config/config.js";
import { writeAtomic } from "../emit/write.js";
import { ConfigError } from "../errors/errors.js";

const MAX_PROFILE_BYTES = 1024 * 1024;
const MODE = { type: "string", pattern: "^[a-z][a-z0-9-]{0,31}$" } as const;

/** Only where to find a method; any other key (credentials, effects, policy) is refused. */
export const PROFILE_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["accessMethods"],
  additionalProperties: false,
  properties: {
    provider: { type: "string" },
    description: { type: "string", maxLength: 2000 },
    accessMethods: {
      type: "array",
      minItems: 1,
      maxItems: 32,
      items: {
        oneOf: [
          {
            type: "object",
            required: ["accessMode", "source"],
            additionalProperties: false,
            properties: {
              accessMode: MODE,
              source: {
                oneOf: [
                  {
                    type: "object",
                    required: ["kind", "location"],
                    additionalProperties: false,
                    properties: {
                      kind: { enum: ["openapi", "optimade"] },
                      location: { type: "string", minLength: 1 },
                    },
                  },
                  {
                    type: "object",
                    required: ["kind", "url"],
                    additionalProperties: false,
                    properties: { kind: { const: "mcp" }, url: { type: "string", minLength: 1 } },
                  },
                ],
              },
            },
          },
          {
            type: "object",
            required: ["accessMode", "sdk"],
            additionalProperties: false,
            properties: {
              accessMode: MODE,
              sdk: {
                type: "object",
                required: ["package"],
                additionalProperties: false,
                properties: { package: { type: "string", minLength: 1 }, language: { type: "string" } },
              },
            },
          },
        ],
      },
    },
  },
} as const;

type ProfileMethod =
  | { readonly accessMode: string; readonly source: SourceConfig }
  | { readonly accessMode: string; readonly sdk: { readonly package: string; readonly language?: string } };

interface Profile {
  readonly description?: string;
  readonly accessMethods: readonly ProfileMethod[];
}

export interface AddProviderResult {
  readonly sources: readonly { readonly name: string; readonly kind: string; readonly accessMode: string }[];
  /** SDK access methods the profile declares: reported, never installed. */
  readonly sdks: readonly { readonly accessMode: string; readonly package: string }[];
}

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export async function addProvider(
  configPath: string,
  name: string,
  profilePath: string,
): Promise<AddProviderResult> {
  if (!NAME.test(name))
    throw new ConfigError(
      "CONFIG_INVALID",
      `provider name "${name}" must be letters, digits, _, . or - (start with a letter).`,
      {
        name,
      },
    );
  const profile = await readProfile(profilePath);
  let file: ConfigFile;
  try {
    file = validateConfig(JSON.parse(await readFile(configPath, "utf8")), configPath);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      "CONFIG_NOT_FOUND",
      `No readable config at ${configPath}. Run \`schemarouter init\` first.`,
      {
        path: configPath,
      },
    );
  }
  if (Object.hasOwn(file.providers ?? {}, name))
    throw new ConfigError(
      "SOURCE_EXISTS",
      `provider "${name}" already exists in ${configPath}; edit it there.`,
      { name },
    );
  const sources: Record<string, SourceConfig> = {};
  const members: Record<string, string> = {};
  const added: { name: string; kind: string; accessMode: string }[] = [];
  const sdks: { accessMode: string; package: string }[] = [];
  for (const method of profile.accessMethods) {
    if ("sdk" in method) {
      sdks.push({ accessMode: method.accessMode, package: method.sdk.package });
      continue;
    }
    const source = `${name.replace(/[^A-Za-z0-9]+/g, "_").replace(/^[A-Z]/, (c) => c.toLowerCase())}_${method.accessMode.replace(/-/g, "_")}`;
    if (Object.hasOwn(file.sources, source) || Object.hasOwn(sources, source))
      throw new ConfigError(
        "SOURCE_EXISTS",
        `source "${source}" already exists; remove it or rename the provider.`,
        {
          name: source,
        },
      );
    sources[source] = method.source;
    members[source] = method.accessMode;
    added.push({ name: source, kind: method.source.kind, accessMode: method.accessMode });
  }
  const next: ConfigFile = {
    ...file,
    sources: { ...file.sources, ...sources },
    providers: {
      ...file.providers,
      [name]: {
        ...(profile.description !== undefined ? { description: profile.description } : {}),
        sources: members,
      },
    },
  };
  if (added.length === 0)
    throw new ConfigError(
      "PROVIDER_PROFILE_INVALID",
      `${profilePath} declares no protocol access method (only SDKs); SchemaRouter compiles protocols and installs no SDK.`,
      { path: profilePath },
    );
  validateConfig(next, configPath);
  await writeAtomic(configPath, `${JSON.stringify(next, null, 2)}\n`);
  return { sources: added, sdks };
}

async function readProfile(path: string): Promise<Profile> {
  let text: string;
  try {
    if ((await stat(path)).size > MAX_PROFILE_BYTES)
      throw new ConfigError("PROVIDER_PROFILE_INVALID", `${path} is over ${MAX_PROFILE_BYTES} bytes.`, {
        path,
      });
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError("PROVIDER_PROFILE_INVALID", `cannot read the profile ${path}.`, { path });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError("PROVIDER_PROFILE_INVALID", `${path} is not JSON: ${(error as Error).message}`, {
      path,
    });
  }
  const violations = new ValidatorSet().validate(PROFILE_SCHEMA as unknown as JsonSchema, value);
  if (violations.length > 0) {
    const extra = findExtraKey(value);
    throw new ConfigError(
      "PROVIDER_PROFILE_INVALID",
      extra !== undefined
        ? `${path}: "${extra.key}" at ${extra.pointer || "/"} is not a profile key. A profile says only where a provider's access methods are; credentials, environment variables, effects and policy stay in your config, set by you.`
        : `${path} is not a provider profile: ${violations[0]!.pointer || "/"} ${violations[0]!.message}.`,
      { path, pointer: extra?.pointer ?? violations[0]!.pointer },
    );
  }
  return value as Profile;
}

const ALLOWED = new Set([
  "provider",
  "description",
  "accessMethods",
  "accessMode",
  "source",
  "sdk",
  "kind",
  "location",
  "url",
  "package",
  "language",
]);

/** The first key the profile format does not define (credentials, effects, …), for a message that names it. */
function findExtraKey(value: unknown, pointer = ""): { key: string; pointer: string } | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findExtraKey(item, `${pointer}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!ALLOWED.has(key)) return { key, pointer };
    const found = findExtraKey(item, `${pointer}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
