/**
 * HTTP transport on undici for OpenAPI tools. The base URL, trusted headers and trusted query
 * parameters (credentials) come only from local configuration; endpoint paths stay inside that
 * origin and base path; redirects are never followed; responses are read as a bounded stream before
 * decoding (docs/trust-model.md §9 and §15).
 */

import type { Dispatcher } from "undici";
import { type InvocationContext, type Invoker, stopSourceOf } from "../../boundary/invoker.js";
import { bindingInvalid, positiveLimit } from "../../errors/binding-invalid.js";
import { CallRefusedError, InvocationError } from "../../errors/errors.js";
import type { EndpointSpec } from "../../model/specs.js";
import type { DispatcherLike } from "./dispatcher-like.js";
import { exchange } from "./exchange.js";
import { ExchangeDeadlines } from "./exchange-deadlines.js";
import { encodeFormBody } from "./form-body.js";
import { isHeaderName, isSensitiveHeader } from "./headers.js";
import { encodeMultipartBody, isPartMediaType } from "./multipart-body.js";
import { checkPlaintextCredentials } from "./plaintext.js";
import { redactSecrets, secretsOf } from "./redact-secrets.js";
import { type BaseUrl, requestPath } from "./route.js";

export { encodePathSegment } from "./route.js";

export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export type { DispatcherLike } from "./dispatcher-like.js";

/** Bytes of an error response body kept for the HTTP_STATUS message. */
const ERROR_DETAIL_BYTES = 2048;

export interface HttpBindingOptions {
  /** Trusted base URL: origin plus base path, e.g. `https://api.github.com` or `http://127.0.0.1:8080/v2`. */
  readonly baseUrl: string;
  /** Trusted headers injected on every request (credentials live here, never in tool arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Trusted query parameters appended to every request URL, e.g. an OpenAPI `apiKey` scheme that is
   * `in: query` (`{ api_key: process.env.API_KEY }`). Like `headers`, they come only from local
   * configuration: they are never tool parameters, never written to artifacts or the lockfile, and
   * never in error messages or events. A call whose arguments would set one of these names is
   * refused (TRANSPORT_REFUSED), so an argument can never override or duplicate a credential.
   */
  readonly query?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Custom undici Dispatcher (e.g. a tuned Agent or a proxy); trusted local code only. */
  readonly dispatcher?: DispatcherLike;
  /**
   * Sends `headers` and `query` over plain `http://` to a host that is not loopback. Off by default:
   * such a binding is refused, since anyone on the path reads the credentials (docs/runtime/transports.md).
   */
  readonly allowPlaintextCredentials?: boolean;
}

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function createHttpInvoker(options: HttpBindingOptions): Invoker {
  if (options === null || typeof options !== "object")
    throw bindingInvalid("baseUrl", "HTTP binding: options must be an object with a baseUrl.");
  const base = parseBaseUrl(options.baseUrl);
  const trusted = normalizeHeaders(options.headers ?? {});
  for (const [name, value] of Object.entries(trusted)) {
    if (name === "__proto__")
      throw bindingInvalid("headers", 'HTTP binding: "__proto__" is not a header name.');
    if (!isValidHeaderValue(value))
      throw bindingInvalid("headers", `HTTP binding: header "${name}" has a value with control characters.`);
  }
  const trustedEntries: readonly (readonly [string, string])[] = Object.entries(trusted);
  const trustedQuery = trustedQueryOf(options.query ?? {});
  // Credential values an upstream's error body might echo back (never repeated in errors).
  const secrets = secretsOf(Object.values(trusted), trustedQuery.values());
  checkPlaintextCredentials(
    "HTTP",
    new URL(options.baseUrl),
    { headers: Object.keys(trusted).length, query: trustedQuery.size },
    options.allowPlaintextCredentials,
  );
  const timeoutMs = positiveLimit("HTTP binding", "timeoutMs", options.timeoutMs) ?? DEFAULT_TIMEOUT_MS;
  const maxBytes =
    positiveLimit("HTTP binding", "maxResponseBytes", options.maxResponseBytes) ?? DEFAULT_MAX_RESPONSE_BYTES;
  // The option is an undici Dispatcher (DispatcherLike is its public name).
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  // One timer bounds every exchange of this invoker (docs/runtime/transports.md).
  const deadlines = new ExchangeDeadlines(timeoutMs);
  // undici is loaded on the first request, not when the runtime is imported (cold start).
  let undici: typeof import("undici") | undefined;
  return {
    async invoke(context: InvocationContext): Promise<unknown> {
      const { endpoint } = context;
      const execution = endpoint.execution;
      const route = `${context.call.tool}.${context.call.endpoint}`;
      if (execution.kind !== "http") {
        throw new CallRefusedError(
          "BINDING_NOT_READY",
          `${route} is not an HTTP endpoint; bind it to its own transport.`,
          {
            route,
          },
        );
      }
      const args = context.call.arguments;
      const url = requestPath(base, execution.path, endpoint, args, route, trustedQuery);
      // A plain object (undici reads it fastest); `__proto__` can never be a header name here.
      const headers: Record<string, string> = {
        accept:
          execution.responseBody?.kind === "text"
            ? textAccept(execution.responseBody.mediaType, route)
            : "application/json",
      };
      for (const parameter of endpoint.parameters) {
        if (parameter.location !== "header" || args[parameter.name] === undefined) continue;
        const name = (parameter.wireName ?? parameter.name).toLowerCase();
        if (!isHeaderName(name)) {
          // A contract that is not what the compiler writes (the compiler leaves such parameters out).
          throw new CallRefusedError(
            "TRANSPORT_REFUSED",
            `${route}: parameter "${parameter.name}" names a header that is not an RFC 9110 token; re-run \`schemarouter compile\`.`,
            { route, argument: parameter.name, reason: "header-name" },
          );
        }
        if (isSensitiveHeader(name) || Object.hasOwn(trusted, name) || name === "__proto__") {
          throw new CallRefusedError(
            "TRANSPORT_REFUSED",
            `${route}: header "${name}" can only come from trusted runtime configuration.`,
            { route, header: name, reason: "trusted-header" },
          );
        }
        const value = String(args[parameter.name]);
        if (!isValidHeaderValue(value)) {
          throw new CallRefusedError(
            "TRANSPORT_REFUSED",
            `${route}: the value of header "${name}" contains control or non-Latin-1 characters; pass a plain text value.`,
            { route, header: name },
          );
        }
        headers[name] = value;
      }
      let body: string | Buffer | undefined;
      if (execution.requestBody !== undefined) {
        const value = requestBodyOf(endpoint, execution.requestBody, args);
        if (value !== undefined && execution.requestBody.contentType === "multipart/form-data") {
          const parts = execution.requestBody.parts ?? [];
          const odd = parts.find(
            (part) => part.contentType !== undefined && !isPartMediaType(part.contentType),
          );
          if (odd !== undefined)
            throw new CallRefusedError(
              "TRANSPORT_REFUSED",
              `${route}: the multipart part "${odd.name}" declares a Content-Type that is not a media type; re-run \`schemarouter compile\`.`,
              { route, argument: odd.name, reason: "part-content-type" },
            );
          const multipart = encodeMultipartBody(value as Record<string, unknown>, parts);
          body = multipart.bytes;
          headers["content-type"] = multipart.contentType;
        } else if (
          value !== undefined &&
          execution.requestBody.contentType === "application/x-www-form-urlencoded"
        ) {
          body = encodeFormBody(
            value as Record<string, unknown>,
            new Set(execution.requestBody.deepObject ?? []),
          );
          headers["content-type"] = "application/x-www-form-urlencoded";
        } else if (value !== undefined) {
          body = JSON.stringify(value);
          headers["content-type"] = "application/json";
        }
      }
      // Trusted headers last (they win); an index loop over entries made once, not Object.assign from
      // the null-prototype record.
      for (let at = 0; at < trustedEntries.length; at++) {
        const entry = trustedEntries[at]!;
        headers[entry[0]] = entry[1];
      }
      undici ??= await import("undici");
      const response = await exchange(
        undici,
        dispatcher,
        { origin: base.origin, path: url, method: execution.method.toUpperCase(), headers, body },
        {
          route,
          deadlines,
          maxBytes,
          errorBytes: ERROR_DETAIL_BYTES,
          successStatus: execution.successStatus,
          head: execution.method === "head",
        },
        context.onStop ?? stopSourceOf(context.signal).onStop,
      );
      const status = response.status;
      if (status >= 300 && status < 400) {
        throw new InvocationError(
          "TRANSPORT_REFUSED",
          `${route}: the server answered a redirect (${status}); redirects are not followed.`,
          {
            route,
            status,
          },
        );
      }
      if (!response.success) {
        // The status decides: an error body is only sampled (bounded), never a reason for another code.
        const detail = redactSecrets(response.body.slice(0, 500), secrets);
        const details = { route, status, detail, retryAfter: response.headers["retry-after"] };
        const message = `${route}: upstream answered HTTP ${status}${detail ? `: ${detail}` : ""}`;
        throw new InvocationError("HTTP_STATUS", message, details, {
          retryable: RETRYABLE_STATUS.has(status),
        });
      }
      if (execution.responseBody?.kind === "text") return response.body;
      if (response.body.length === 0) return null;
      try {
        return JSON.parse(response.body) as unknown;
      } catch (error) {
        throw new InvocationError(
          "RESPONSE_NOT_JSON",
          `${route}: the response body is not JSON.`,
          { route, status },
          {
            cause: error,
          },
        );
      }
    },
  };
}

/** The Accept header of a text response: its declared media type (checked: it is a header value). */
function textAccept(mediaType: string, route: string): string {
  if (!isPartMediaType(mediaType))
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: the declared response media type is not a media type; re-run \`schemarouter compile\`.`,
      { route, reason: "response-media-type" },
    );
  return mediaType;
}

function parseBaseUrl(value: unknown): BaseUrl {
  if (typeof value !== "string" || value === "")
    throw bindingInvalid(
      "baseUrl",
      `HTTP binding: baseUrl is ${value === undefined ? "missing" : `not a URL string (got ${typeof value})`}; give the API's base URL, e.g. { baseUrl: "https://api.example.com" }.`,
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bindingInvalid("baseUrl", `HTTP binding: baseUrl "${value}" is not an absolute URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw bindingInvalid("baseUrl", "HTTP binding: baseUrl must be http(s).");
  if (url.username || url.password)
    throw bindingInvalid("baseUrl", "HTTP binding: baseUrl must not carry credentials; use headers.");
  if (url.search || url.hash)
    throw bindingInvalid(
      "baseUrl",
      "HTTP binding: baseUrl must not have a query string or fragment; use query.",
    );
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, "") };
}

/** Checks the binding's trusted query parameters: non-empty names, string values. */
function trustedQueryOf(query: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  if (query === null || typeof query !== "object" || Array.isArray(query))
    throw bindingInvalid("query", "HTTP binding: query must be an object of strings.");
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(query)) {
    if (name === "" || typeof value !== "string")
      throw bindingInvalid(
        "query",
        `HTTP binding: query parameter "${name}" needs a non-empty name and a string value.`,
      );
    out.set(name, value);
  }
  return out;
}

/** RFC 9110 field-value characters (the check undici and node:http apply before sending). */
function isValidHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}

function requestBodyOf(
  endpoint: EndpointSpec,
  body: NonNullable<Extract<EndpointSpec["execution"], { kind: "http" }>["requestBody"]>,
  args: Readonly<Record<string, unknown>>,
): unknown {
  if (body.mode === "value") return body.parameter === undefined ? undefined : args[body.parameter];
  const out: Record<string, unknown> = {};
  let any = false;
  for (const parameter of endpoint.parameters) {
    if (parameter.location !== "body" || args[parameter.name] === undefined) continue;
    out[parameter.wireName ?? parameter.name] = args[parameter.name];
    any = true;
  }
  return any || body.required ? out : undefined;
}

function normalizeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
