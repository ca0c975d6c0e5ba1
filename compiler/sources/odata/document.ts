/**
 * Loads a CSDL XML document (docs/sources/odata.md "Sources"): from a service root URL (GET
 * `<root>/$metadata`, bounded, same-origin redirects only) or from a file, whose calls then go to the
 * configured `serviceRoot`. The document digest is the SHA-256 of the bytes exactly as received.
 */
import { resolve } from "node:path";
import { isSchemaRouterError, isUrl, readRegularFile, sanitizeLocation } from "schemarouter/internal";
import type { OdataSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { fetchDocument } from "../fetch.js";
import { resolveSchemaHeaders } from "../openapi/document.js";
import type { SourceContext } from "../types.js";
import { DEFAULT_XML_LIMITS } from "./xml.js";

export interface LoadedCsdl {
  readonly bytes: Uint8Array;
  /** The service root calls go to: origin + path, no trailing slash, query or fragment. */
  readonly serviceRoot: string;
  readonly location: string;
}

/** Normalizes a service root URL (a trailing `/$metadata` or slash removed). Throws SourceError. */
export function normalizeServiceRoot(source: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SourceError(source, "URL_NOT_ALLOWED", `"${sanitizeLocation(value)}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SourceError(source, "URL_NOT_ALLOWED", `unsupported URL scheme ${url.protocol}`);
  if (url.username || url.password || url.search || url.hash)
    throw new SourceError(
      source,
      "URL_NOT_ALLOWED",
      "an OData service root carries no credentials, query string or fragment; give trusted headers in the binding instead.",
      { location: sanitizeLocation(value) },
    );
  const path = url.pathname.replace(/\/\$metadata$/, "").replace(/\/+$/, "");
  return `${url.origin}${path}`;
}

export async function loadCsdl(
  source: string,
  config: OdataSourceConfig,
  context: SourceContext,
): Promise<LoadedCsdl> {
  if (isUrl(config.location)) {
    const serviceRoot = normalizeServiceRoot(source, config.location);
    if (config.serviceRoot !== undefined && normalizeServiceRoot(source, config.serviceRoot) !== serviceRoot)
      throw new SourceError(
        source,
        "URL_NOT_ALLOWED",
        `serviceRoot ${config.serviceRoot} differs from the service the document is read from (${serviceRoot}); give one of them.`,
        { location: sanitizeLocation(config.location) },
      );
    const bytes = await fetchDocument(source, `${serviceRoot}/$metadata`, {
      headers: {
        accept: "application/xml",
        ...resolveSchemaHeaders(source, config.schemaHeaders, context.env),
      },
      allowInsecureHttp: context.allowInsecureHttp,
      limits: { maxBytes: DEFAULT_XML_LIMITS.maxBytes },
    });
    return { bytes, serviceRoot, location: sanitizeLocation(config.location) };
  }
  if (config.serviceRoot === undefined)
    throw new SourceError(
      source,
      "ODATA_SERVICE_ROOT_MISSING",
      `the CSDL document is read from the file ${config.location}, so calls need a service root: add "serviceRoot": "https://…/service" to the source.`,
    );
  const serviceRoot = normalizeServiceRoot(source, config.serviceRoot);
  const path = resolve(context.cwd, config.location);
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    const code = isSchemaRouterError(error) ? "not a regular file" : (error as NodeJS.ErrnoException).code;
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `cannot read ${config.location} (${code ?? "error"}).`,
      {},
      { cause: error },
    );
  }
  return { bytes, serviceRoot, location: config.location };
}
