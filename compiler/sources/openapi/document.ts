/**
 * Loads an OpenAPI document (OpenAPI 3.0.x / 3.1.x, JSON or YAML) from a file or a URL, bounded.
 * Spec: OpenAPI Specification 3.1.0 §4.3 (OpenAPI Object), §4.8.1 ("openapi" field).
 */
import { resolve } from "node:path";
import { isSchemaRouterError, isUrl, readRegularFile, sanitizeLocation, sha256 } from "schemarouter/internal";
import { parse as parseYaml } from "yaml";
import type { EnvRef } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { fetchDocument } from "../fetch.js";
import type { SourceContext } from "../types.js";
import { checkDocumentDepth } from "./document-depth.js";

export type OpenApiVersion = "3.0" | "3.1";

export interface LoadedDocument {
  readonly doc: Record<string, unknown>;
  readonly version: OpenApiVersion;
  readonly documentDigest: string;
  readonly location: string;
  /** Base for resolving relative references (file path or URL). */
  readonly base: string;
  /**
   * False when the document's bytes cannot hold a key named `pattern` or `patternProperties`: the
   * text has no "pattern" and no escape (`\u`, `\x`, `\U`) that could spell one.
   */
  readonly mayNamePatterns: boolean;
}

export async function loadOpenApiDocument(
  source: string,
  location: string,
  schemaHeaders: Readonly<Record<string, EnvRef>> | undefined,
  context: SourceContext,
): Promise<LoadedDocument> {
  let bytes: Uint8Array;
  let base: string;
  if (isUrl(location)) {
    bytes = await fetchDocument(source, location, {
      headers: resolveSchemaHeaders(source, schemaHeaders, context.env),
      allowInsecureHttp: context.allowInsecureHttp,
    });
    base = location;
  } else {
    base = resolve(context.cwd, location);
    try {
      // Only a regular file: a committed symlink to a device or a pipe must not make compile wait or
      // read without end (docs/sources/openapi.md).
      bytes = await readRegularFile(base);
    } catch (error) {
      const code = isSchemaRouterError(error) ? "not a regular file" : (error as NodeJS.ErrnoException).code;
      throw new SourceError(
        source,
        "SOURCE_FETCH_FAILED",
        `cannot read ${location} (${code ?? "error"}).`,
        {},
        { cause: error },
      );
    }
  }
  const parsed = parseDocumentText(source, bytes, "the document");
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SourceError(source, "SOURCE_INVALID", "the document is not an object.");
  }
  const doc = parsed as Record<string, unknown>;
  const openapi = doc.openapi;
  let version: OpenApiVersion;
  if (typeof openapi === "string" && /^3\.0\.\d+/.test(openapi)) version = "3.0";
  else if (typeof openapi === "string" && /^3\.1\.\d+/.test(openapi)) version = "3.1";
  else {
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `"openapi" is ${JSON.stringify(openapi)}; schemarouter reads OpenAPI 3.0.x and 3.1.x (convert Swagger 2.0 documents first).`,
    );
  }
  return {
    doc,
    version,
    documentDigest: sha256(bytes),
    mayNamePatterns: mayNamePatterns(bytes),
    // A file path is kept as written ("#" and "?" are legal in file names); a URL loses its secrets.
    location: isUrl(location) ? sanitizeLocation(location) : location,
    base,
  };
}

function mayNamePatterns(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return ["pattern", "\\u", "\\x", "\\U"].some((text) => buffer.includes(text));
}

/** Parses a JSON or YAML document (`what` names it in errors, e.g. "the document"). */
export function parseDocumentText(source: string, bytes: Uint8Array, what: string): unknown {
  const raw = Buffer.from(bytes).toString("utf8");
  // A UTF-8 byte order mark is not JSON; the digest still covers the bytes as received.
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  let value: unknown;
  const json = /^\s*\{/.test(text);
  try {
    value = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `${what} is not valid JSON or YAML: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  checkDocumentDepth(source, value, what, json);
  return value;
}

/** The schema-fetch headers, each read from its named environment variable. */
export function resolveSchemaHeaders(
  source: string,
  headers: Readonly<Record<string, EnvRef>> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, ref] of Object.entries(headers ?? {})) {
    const value = env[ref.env];
    if (value === undefined || value === "") {
      throw new SourceError(
        source,
        "SCHEMA_HEADER_ENV_MISSING",
        `schema header "${name}" reads environment variable ${ref.env}, which is not set. Export it, or remove the header.`,
        { header: name, env: ref.env },
      );
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}
