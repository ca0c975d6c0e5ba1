/**
 * Loads a GraphQL schema (docs/sources/graphql.md "Sources"): a live endpoint by introspection
 * (GraphQL spec §4.2) or an SDL file (§3), both bounded (bytes, tokens, nesting) and validated with
 * graphql-js. The digest is over the printed, sorted schema, so reordering the SDL or the
 * introspection answer is no drift while any change of a type, field or argument is.
 */
import { resolve } from "node:path";
import {
  buildASTSchema,
  buildClientSchema,
  type GraphQLSchema,
  type IntrospectionQuery,
  lexicographicSortSchema,
  parse,
  printSchema,
  validateSchema,
} from "graphql";
import { isSchemaRouterError, isUrl, readRegularFile, sanitizeLocation, sha256 } from "schemarouter/internal";
import type { GraphqlSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { MAX_DOCUMENT_DEPTH, tooDeepAt } from "../depth.js";
import { resolveSchemaHeaders } from "../openapi/document.js";
import type { SourceContext } from "../types.js";
import { introspect } from "./introspect.js";

/** Largest SDL file read, and most tokens parsed (the GitHub schema is about 1.2 MB). */
export const MAX_SDL_BYTES = 32 * 1024 * 1024;
export const MAX_SDL_TOKENS = 4_000_000;

export interface LoadedSchema {
  readonly schema: GraphQLSchema;
  readonly digest: string;
  /** The endpoint introspected; undefined for an SDL file. */
  readonly url?: string;
}

export async function loadGraphqlSchema(
  source: string,
  config: GraphqlSourceConfig,
  context: SourceContext,
): Promise<LoadedSchema> {
  if (isUrl(config.location)) {
    const headers = resolveSchemaHeaders(source, config.schemaHeaders, context.env);
    const { data, url } = await introspect(source, config.location, headers, context.allowInsecureHttp);
    const deep = tooDeepAt(data);
    if (deep !== undefined)
      throw new SourceError(
        source,
        "SOURCE_INVALID",
        `the introspection answer nests deeper than ${MAX_DOCUMENT_DEPTH} levels (at ${deep}); schemarouter refuses it.`,
        { pointer: deep, limit: MAX_DOCUMENT_DEPTH },
      );
    let schema: GraphQLSchema;
    try {
      schema = buildClientSchema(data as IntrospectionQuery);
    } catch (error) {
      throw invalid(source, `the introspection answer is not a schema: ${(error as Error).message}`, error);
    }
    return {
      schema: checked(source, schema),
      digest: digestOf(schema),
      url: sanitizeLocation(url.toString()),
    };
  }
  if (config.schemaHeaders !== undefined)
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      "schemaHeaders apply to an endpoint URL, not to an SDL file; remove them.",
    );
  const path = resolve(context.cwd, config.location);
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    const code = isSchemaRouterError(error) ? "not a regular file" : (error as NodeJS.ErrnoException).code;
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `cannot read ${config.location} (${code ?? "error"}).`,
      {},
      {
        cause: error,
      },
    );
  }
  if (bytes.byteLength > MAX_SDL_BYTES)
    throw new SourceError(
      source,
      "SOURCE_TOO_LARGE",
      `${config.location} is larger than ${MAX_SDL_BYTES} bytes.`,
    );
  let schema: GraphQLSchema;
  try {
    const document = parse(bytes.toString("utf8"), { maxTokens: MAX_SDL_TOKENS, noLocation: true });
    schema = buildASTSchema(document);
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `${config.location} is not a GraphQL SDL document: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  return { schema: checked(source, schema), digest: digestOf(schema) };
}

function checked(source: string, schema: GraphQLSchema): GraphQLSchema {
  const errors = validateSchema(schema);
  if (errors.length > 0)
    throw invalid(
      source,
      `the schema is not valid GraphQL (${errors.length} error${errors.length === 1 ? "" : "s"}; first: ${errors[0]!.message})`,
    );
  return schema;
}

function digestOf(schema: GraphQLSchema): string {
  return sha256(printSchema(lexicographicSortSchema(schema)));
}

function invalid(source: string, message: string, cause?: unknown): SourceError {
  const text = message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").slice(0, 400);
  return new SourceError(source, "SOURCE_INVALID", text, {}, cause === undefined ? undefined : { cause });
}
