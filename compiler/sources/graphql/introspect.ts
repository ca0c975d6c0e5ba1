/**
 * The introspection query over HTTP POST (GraphQL spec §4 "Introspection"; docs/sources/graphql.md
 * "Sources"): schema-fetch headers from the environment sent only to the endpoint, redirects refused,
 * the answer read bounded in size and time, and a response with `errors` refused with their messages
 * shortened (remote text).
 */
import { getIntrospectionQuery } from "graphql";
import { plainText, sanitizeLocation } from "schemarouter/internal";
// Types only at the top: undici is loaded on the first introspection, so a compile of local documents never loads it.
import type { request } from "undici";
import { SourceError } from "../../errors/errors.js";
import { checkSourceUrl } from "../fetch.js";

export interface IntrospectionLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

export const DEFAULT_INTROSPECTION_LIMITS: IntrospectionLimits = {
  maxBytes: 32 * 1024 * 1024,
  timeoutMs: 30_000,
};

/** The introspection answer's `data` and the URL that answered it. */
export async function introspect(
  source: string,
  location: string,
  headers: Readonly<Record<string, string>>,
  allowInsecureHttp: boolean,
  limits: IntrospectionLimits = DEFAULT_INTROSPECTION_LIMITS,
): Promise<{ readonly data: unknown; readonly url: URL }> {
  const url = checkSourceUrl(source, location, allowInsecureHttp);
  const where = sanitizeLocation(url.toString());
  const undici = await import("undici");
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await undici.request(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json;q=0.9",
      },
      body: JSON.stringify({
        query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: false }),
        operationName: "IntrospectionQuery",
      }),
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `the introspection query to ${where} failed (${error instanceof Error ? error.name : "error"}); check the URL and that the server is up.`,
      {},
      { cause: error },
    );
  }
  const status = response.statusCode;
  if (status >= 300 && status < 400) {
    await response.body.dump().catch(() => undefined);
    throw new SourceError(
      source,
      "SOURCE_REDIRECT_REFUSED",
      `the GraphQL endpoint answered a redirect (${status}); redirects are not followed. Point the source at the final URL.`,
      {
        from: url.origin,
        to: typeof response.headers.location === "string" ? sanitizeLocation(response.headers.location) : "",
      },
    );
  }
  const text = await readBody(source, response, limits);
  if (status < 200 || status >= 300) {
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `the introspection query to ${where} answered HTTP ${status}; check the URL and the schemaHeaders (credentials).`,
      { status },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SourceError(
      source,
      "SOURCE_PARSE_FAILED",
      `the introspection answer of ${where} is not JSON.`,
      {},
      {
        cause: error,
      },
    );
  }
  const answer = (body ?? {}) as { data?: unknown; errors?: unknown };
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const first = answer.errors[0] as { message?: unknown } | null;
    const message = typeof first?.message === "string" ? first.message : "(no message)";
    const plain = plainText(message).slice(0, 200);
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the GraphQL endpoint refused the introspection query (untrusted server text: ${JSON.stringify(plain)}); enable introspection, or compile from an SDL file.`,
    );
  }
  if (answer.data === null || typeof answer.data !== "object")
    throw new SourceError(source, "SOURCE_INVALID", `the introspection answer of ${where} has no data.`);
  return { data: answer.data, url };
}

async function readBody(
  source: string,
  response: Awaited<ReturnType<typeof request>>,
  limits: IntrospectionLimits,
): Promise<string> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    response.body.destroy();
    throw tooLarge(source, limits.maxBytes);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response.body) {
      received += (chunk as Buffer).byteLength;
      if (received > limits.maxBytes) {
        response.body.destroy();
        throw tooLarge(source, limits.maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      "reading the introspection answer was interrupted or timed out.",
      {},
      { cause: error },
    );
  }
  return Buffer.concat(chunks, received).toString("utf8");
}

function tooLarge(source: string, maxBytes: number): SourceError {
  return new SourceError(
    source,
    "SOURCE_TOO_LARGE",
    `the introspection answer is larger than ${maxBytes} bytes; compile from an SDL file instead.`,
  );
}
