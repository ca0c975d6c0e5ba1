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
  type DocumentNode,
  type FieldDefinitionNode,
  type GraphQLSchema,
  type IntrospectionQuery,
  Kind,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
  validateSchema,
} from "graphql";
import {
  isSchemaRouterError,
  isUrl,
  plainText,
  readRegularFile,
  sanitizeLocation,
  sha256,
} from "schemarouter/internal";
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
  /** `Type.field` of fields an SDL file defines twice the same way (kept once, reported partial). */
  readonly duplicates?: readonly string[];
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
  const duplicates: string[] = [];
  try {
    const document = parse(bytes.toString("utf8"), { maxTokens: MAX_SDL_TOKENS, noLocation: true });
    duplicates.push(...sameFieldTwice(source, document));
    // A field defined twice the same way (published schemas have them) is kept once, and reported.
    schema = buildASTSchema(document, { assumeValidSDL: duplicates.length > 0 });
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `${config.location} is not a GraphQL SDL document: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  return { schema: checked(source, schema), digest: digestOf(schema), duplicates };
}

/**
 * `Type.field` of every field an SDL document defines twice with the same type and arguments
 * (descriptions may differ); a field defined twice differently is refused (SOURCE_INVALID).
 */
function sameFieldTwice(source: string, document: DocumentNode): string[] {
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const definition of document.definitions) {
    if (!("fields" in definition) || definition.fields === undefined || !("name" in definition)) continue;
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION)
      if (
        definition.kind !== Kind.INTERFACE_TYPE_DEFINITION &&
        definition.kind !== Kind.INTERFACE_TYPE_EXTENSION
      )
        continue;
    for (const field of definition.fields as readonly FieldDefinitionNode[]) {
      const key = `${definition.name.value}.${field.name.value}`;
      const { description: _description, directives: _directives, ...rest } = field;
      const shape = print({
        ...rest,
        arguments: (field.arguments ?? []).map(({ description: _text, ...argument }) => argument),
      });
      const known = seen.get(key);
      if (known === undefined) {
        seen.set(key, shape);
        continue;
      }
      if (known !== shape)
        throw new SourceError(
          source,
          "SOURCE_INVALID",
          `${key} is defined twice with different types or arguments; fix the SDL document.`,
          { pointer: `/types/${definition.name.value}/${field.name.value}` },
        );
      duplicates.push(key);
    }
  }
  return duplicates;
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
  const text = plainText(message).slice(0, 400);
  return new SourceError(source, "SOURCE_INVALID", text, {}, cause === undefined ? undefined : { cause });
}
