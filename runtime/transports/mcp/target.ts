/**
 * MCP connection targets as trusted local configuration: URL and header rules for Streamable HTTP,
 * the environment allowlist for stdio, and the execution identity that a ToolSpec pins. Pure: no SDK,
 * no I/O. Shared by the compiler (compile-time connect) and the runtime (client factories).
 */
import { posix } from "node:path";
import { SchemaRouterError } from "../../errors/errors.js";

/** Headers the MCP transport or HTTP framing controls; trusted configuration may not set them. */
export const MCP_RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "connection",
  "content-length",
  "content-type",
  "expect",
  "host",
  "keep-alive",
  "last-event-id",
  "mcp-protocol-version",
  "mcp-session-id",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN_ARG = /^[A-Za-z0-9_@%+=:,./-]+$/;

export interface McpUrlOptions {
  /** Allow plain http:// to a non-loopback host (local opt-in). */
  readonly allowInsecureHttp?: boolean;
}

function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks a Streamable HTTP URL and returns it parsed. Credentials never travel in the URL: userinfo
 * and any query string are refused (`MCP_URL_CREDENTIALS`); authentication belongs in trusted headers
 * or a client factory. Plain http:// is allowed for loopback hosts only unless opted in.
 */
export function checkMcpUrl(raw: string, options: McpUrlOptions = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new SchemaRouterError(
      "MCP_URL_INVALID",
      "The MCP server URL is not a valid absolute URL.",
      {},
      { cause },
    );
  }
  const where = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SchemaRouterError(
      "MCP_URL_INVALID",
      `The MCP server URL ${where} must use https:// (or http:// on loopback).`,
      {
        location: where,
      },
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new SchemaRouterError(
      "MCP_URL_CREDENTIALS",
      `The MCP server URL ${where} carries userinfo credentials. Remove them and pass authentication through trusted headers ({ "headers": { "authorization": { "env": "VAR" } } }) or a client factory.`,
      { location: where, part: "userinfo" },
    );
  }
  if (url.search !== "" || raw.includes("?")) {
    throw new SchemaRouterError(
      "MCP_URL_CREDENTIALS",
      `The MCP server URL ${where} has a query string, which may carry credentials. Remove it and pass authentication through trusted headers or a client factory.`,
      { location: where, part: "query" },
    );
  }
  if (url.hash !== "" || raw.includes("#")) {
    throw new SchemaRouterError("MCP_URL_INVALID", `The MCP server URL ${where} has a fragment; remove it.`, {
      location: where,
    });
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && options.allowInsecureHttp !== true) {
    throw new SchemaRouterError(
      "MCP_URL_INSECURE",
      `The MCP server URL ${where} uses plain http:// to a non-loopback host. Use https://, or opt in with allowInsecureHttp in local configuration.`,
      { location: where },
    );
  }
  return url;
}

/** Checks trusted header names and values (no reserved names, no line breaks); returns lower-cased names. */
export function checkMcpHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) {
      throw new SchemaRouterError("MCP_CONFIG_INVALID", `"${name}" is not a valid HTTP header name.`, {
        header: name,
      });
    }
    if (MCP_RESERVED_HEADERS.has(lower)) {
      throw new SchemaRouterError(
        "MCP_CONFIG_INVALID",
        `Header "${name}" is controlled by the MCP transport and cannot be set by configuration; remove it.`,
        { header: name, reason: "reserved" },
      );
    }
    if (/[\r\n\0]/.test(value)) {
      throw new SchemaRouterError(
        "MCP_CONFIG_INVALID",
        `The value of header "${name}" contains a line break or NUL.`,
        {
          header: name,
        },
      );
    }
    if (Object.hasOwn(out, lower)) {
      throw new SchemaRouterError(
        "MCP_CONFIG_INVALID",
        `Header "${name}" is given twice (names are case-insensitive).`,
        {
          header: name,
        },
      );
    }
    out[lower] = value;
  }
  return out;
}

/** Checks environment variable names of an allowlist. */
export function checkEnvNames(names: readonly string[]): void {
  for (const name of names) {
    if (!ENV_NAME.test(name)) {
      throw new SchemaRouterError(
        "MCP_CONFIG_INVALID",
        `"${name}" is not a valid environment variable name.`,
        {
          variable: name,
        },
      );
    }
  }
}

/**
 * The child environment of a stdio server: exactly the allowlisted variables that are set in `from`.
 * Nothing else is inherited (not even PATH or HOME unless listed).
 */
export function pickEnv(
  names: readonly string[],
  from: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  checkEnvNames(names);
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = from[name];
    if (typeof value === "string") env[name] = value;
  }
  return env;
}

/**
 * A stdio server's environment as a binding gives it (docs/sources/mcp.md, "Environment"): the config's
 * allowlist shape (`["GITHUB_TOKEN"]`, values read from `from`, by default this process's environment)
 * or the values themselves (`{ GITHUB_TOKEN: token }`). Anything else is BINDING_INVALID naming `env`.
 */
export function resolveStdioEnv(
  env: StdioEnv | undefined,
  from: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  checkStdioEnv(env, "mcp.stdio.env");
  if (env === undefined) return {};
  if (isEnvNameList(env)) return pickEnv(env, from);
  return { ...env };
}

/** A stdio server's environment: names to copy from this process, or names with their values. */
export type StdioEnv = readonly string[] | Readonly<Record<string, string>>;

function isEnvNameList(env: StdioEnv): env is readonly string[] {
  return Array.isArray(env);
}

/** Refuses an env that is neither shape (BINDING_INVALID, key `env`) and invalid variable names. */
export function checkStdioEnv(
  env: unknown,
  owner: string,
  tool?: string,
): asserts env is StdioEnv | undefined {
  if (env === undefined) return;
  const refuse = (got: string) =>
    new SchemaRouterError(
      "BINDING_INVALID",
      `${owner} must be a list of variable names to copy from this process (["GITHUB_TOKEN"], as in the config) or their values ({ GITHUB_TOKEN: token }); got ${got}.`,
      { key: "env", ...(tool !== undefined ? { tool } : {}) },
    );
  if (Array.isArray(env)) {
    const bad = env.find((name) => typeof name !== "string");
    if (bad !== undefined || env.length !== new Set(env).size)
      throw refuse(
        bad !== undefined ? `a list holding ${describeValue(bad)}` : "a list naming a variable twice",
      );
    checkEnvNames(env);
    return;
  }
  if (env === null || typeof env !== "object") throw refuse(describeValue(env));
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string") throw refuse(`${name}: ${describeValue(value)}`);
  }
  checkEnvNames(Object.keys(env));
}

function describeValue(value: unknown): string {
  return value === null ? "null" : typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/** Execution identity of a stdio server: `command args…`, arguments quoted when not plain. No env values. */
export function stdioIdentity(command: string, args: readonly string[] = []): string {
  return [command, ...args].map((part) => (PLAIN_ARG.test(part) ? part : JSON.stringify(part))).join(" ");
}

/**
 * Whether two stdio identities name the same server, comparing relative paths after normalising them
 * (`./node_modules/x` and `node_modules/x` are one file), so a binding written either way matches the
 * lock (docs/sources/mcp.md).
 */
export function sameStdioIdentity(a: string, b: string): boolean {
  if (a === b) return true;
  const parts = (identity: string) =>
    (identity.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? []).map((part) => {
      const value = part.startsWith('"') ? (JSON.parse(part) as string) : part;
      return value.includes("/") && !value.includes("://") && !value.startsWith("-")
        ? posix.normalize(value)
        : value;
    });
  const x = parts(a);
  const y = parts(b);
  return x.length === y.length && x.every((part, index) => part === y[index]);
}

/** Execution identity of a Streamable HTTP server: the checked URL (no userinfo, query or fragment). */
export function httpIdentity(url: URL): string {
  return url.href;
}
