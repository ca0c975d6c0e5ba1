/**
 * Loads an OpenRPC document (docs/sources/openrpc.md "Sources"): a file, an https URL (bounded GET),
 * or the `rpc.discover` answer of a live JSON-RPC endpoint (one bounded POST, no redirects). The
 * digest covers the document exactly as received (for `rpc.discover`, the `result` member).
 */
import { resolve } from "node:path";
import {
  digestJson,
  isSchemaRouterError,
  isUrl,
  readRegularFile,
  sanitizeLocation,
  sha256,
} from "schemarouter/internal";
import type { OpenRpcSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { fetchDocument } from "../fetch.js";
import { parseDocumentText, resolveSchemaHeaders } from "../openapi/document.js";
import type { SourceContext } from "../types.js";
import { callDiscover } from "./discover.js";
import { checkMetaSchema } from "./meta-schema.js";

export interface LoadedOpenRpcDocument {
  readonly doc: Record<string, unknown>;
  readonly documentDigest: string;
  /** Sanitized: never userinfo, query string or fragment. */
  readonly location: string;
}

export async function loadOpenRpcDocument(
  source: string,
  config: OpenRpcSourceConfig,
  context: SourceContext,
): Promise<LoadedOpenRpcDocument> {
  const headers = resolveSchemaHeaders(source, config.schemaHeaders, context.env);
  let parsed: unknown;
  let documentDigest: string;
  let location: string;
  if (config.discover !== undefined) {
    parsed = await callDiscover(source, config.discover, headers, context.allowInsecureHttp);
    documentDigest = digestJson(parsed);
    location = sanitizeLocation(config.discover);
  } else {
    const where = config.location as string;
    let bytes: Uint8Array;
    if (isUrl(where)) {
      bytes = await fetchDocument(source, where, { headers, allowInsecureHttp: context.allowInsecureHttp });
      location = sanitizeLocation(where);
    } else {
      try {
        // Only a regular file: a symlink to a device or a pipe must not make compile wait.
        bytes = await readRegularFile(resolve(context.cwd, where));
      } catch (error) {
        const code = isSchemaRouterError(error)
          ? "not a regular file"
          : (error as NodeJS.ErrnoException).code;
        throw new SourceError(
          source,
          "SOURCE_FETCH_FAILED",
          `cannot read ${where} (${code ?? "error"}).`,
          {},
          { cause: error },
        );
      }
      location = where;
    }
    parsed = parseDocumentText(source, bytes, "the OpenRPC document");
    documentDigest = sha256(bytes);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new SourceError(source, "SOURCE_INVALID", "the OpenRPC document is not an object.");
  checkMetaSchema(source, parsed, "the document");
  return { doc: parsed as Record<string, unknown>, documentDigest, location };
}
