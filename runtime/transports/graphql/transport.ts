/**
 * The GraphQL transport (docs/sources/graphql.md): one HTTP POST per call to the trusted endpoint URL,
 * the operation built from the locked contract and the planned fields (query.ts), arguments always as
 * variables, trusted headers only from the binding, no redirects, the response read bounded in size and
 * time (the HTTP transport's exchange), and GraphQL errors turned into typed errors (response.ts).
 */
import type { Dispatcher } from "undici";
import { type InvocationContext, type Invoker, stopSourceOf } from "../../boundary/invoker.js";
import { bindingInvalid, positiveLimit } from "../../errors/binding-invalid.js";
import { CallRefusedError, InvocationError, LoadError } from "../../errors/errors.js";
import type { DispatcherLike } from "../http/dispatcher-like.js";
import { exchange } from "../http/exchange.js";
import { ExchangeDeadlines } from "../http/exchange-deadlines.js";
import { isHeaderName } from "../http/headers.js";
import { checkPlaintextCredentials } from "../http/plaintext.js";
import { redactSecrets, secretsOf } from "../http/redact-secrets.js";
import { buildQuery } from "./query.js";
import { readGraphqlResponse } from "./response.js";

export const DEFAULT_GRAPHQL_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_GRAPHQL_TIMEOUT_MS = 30_000;

/** Bytes of a non-success response body kept for the HTTP_STATUS message. */
const ERROR_DETAIL_BYTES = 2048;
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Headers the transport sets itself: a trusted header never replaces them. */
const OWN_HEADERS = new Set(["content-type", "content-length", "accept", "host", "transfer-encoding"]);

export interface GraphqlInvokerOptions {
  /** Trusted endpoint URL, e.g. `https://api.github.com/graphql`. */
  readonly url: string;
  /** Trusted headers sent on every request (credentials live here, never in arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Custom undici Dispatcher; trusted local code only. */
  readonly dispatcher?: DispatcherLike;
  /** Sends `headers` over plain http to a host that is not loopback (see transports/http/plaintext.ts). */
  readonly allowPlaintextCredentials?: boolean;
}

/**
 * What a trusted GraphQL binding configures; `url` is required for a source compiled from an SDL file
 * and, for one compiled from a live endpoint, must be the locked URL when given.
 */
export type GraphqlBindingSettings = Omit<GraphqlInvokerOptions, "url"> & { readonly url?: string };

interface Endpoint {
  readonly origin: string;
  readonly path: string;
  readonly href: string;
}

export function createGraphqlInvoker(options: GraphqlInvokerOptions): Invoker {
  if (options === null || typeof options !== "object")
    throw bindingInvalid("url", "GraphQL binding: options must be an object with a url.");
  const endpoint = parseEndpointUrl(options.url);
  const trusted: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [header, value] of Object.entries(options.headers ?? {})) {
    const lower = header.toLowerCase();
    if (!isHeaderName(lower) || lower === "__proto__" || OWN_HEADERS.has(lower))
      throw bindingInvalid("headers", `GraphQL binding: "${header}" cannot be a trusted header.`);
    if (typeof value !== "string" || /[^\t\x20-\x7e\x80-\xff]/.test(value))
      throw bindingInvalid(
        "headers",
        `GraphQL binding: header "${header}" has a value with control characters.`,
      );
    trusted[lower] = value;
  }
  checkPlaintextCredentials(
    "GraphQL",
    new URL(endpoint.href),
    { headers: Object.keys(trusted).length, query: 0 },
    options.allowPlaintextCredentials,
  );
  const secrets = secretsOf(Object.values(trusted));
  const timeoutMs =
    positiveLimit("GraphQL binding", "timeoutMs", options.timeoutMs) ?? DEFAULT_GRAPHQL_TIMEOUT_MS;
  const maxBytes =
    positiveLimit("GraphQL binding", "maxResponseBytes", options.maxResponseBytes) ??
    DEFAULT_GRAPHQL_MAX_RESPONSE_BYTES;
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  // One timer bounds every exchange of this invoker (docs/runtime/transports.md).
  const deadlines = new ExchangeDeadlines(timeoutMs);
  let undici: typeof import("undici") | undefined;
  return {
    async invoke(context: InvocationContext): Promise<unknown> {
      const { endpoint: spec, tool } = context;
      const execution = spec.execution;
      const route = `${context.call.tool}.${context.call.endpoint}`;
      if (execution.kind !== "graphql" || tool.execution.transport !== "graphql") {
        throw new CallRefusedError(
          "BINDING_NOT_READY",
          `${route} is not a GraphQL endpoint; bind it to its own transport.`,
          { route },
        );
      }
      if (tool.execution.url !== undefined && parseEndpointUrl(tool.execution.url).href !== endpoint.href) {
        throw new CallRefusedError(
          "TRANSPORT_REFUSED",
          `${route}: the invoker is bound to ${endpoint.href}, but the tool was compiled for ${tool.execution.url}.`,
          { route, reason: "binding-identity" },
        );
      }
      const identifiers = spec.fields.filter((field) => field.identifier === true);
      const built = buildQuery(execution, context.selectedFields, identifiers, context.call.arguments, route);
      const headers: Record<string, string> = {
        ...trusted,
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json;q=0.9",
      };
      undici ??= await import("undici");
      const response = await exchange(
        undici,
        dispatcher,
        {
          origin: endpoint.origin,
          path: endpoint.path,
          method: "POST",
          headers,
          body: JSON.stringify({ query: built.query, variables: built.variables }),
        },
        { route, deadlines, maxBytes, errorBytes: ERROR_DETAIL_BYTES, successStatus: [], head: false },
        context.onStop ?? stopSourceOf(context.signal).onStop,
      );
      const status = response.status;
      if (status >= 300 && status < 400) {
        throw new InvocationError(
          "TRANSPORT_REFUSED",
          `${route}: the GraphQL server answered a redirect (${status}); redirects are not followed.`,
          { route, status },
        );
      }
      if (!response.success) {
        const contentType = response.headers["content-type"];
        // A GraphQL-over-HTTP server answers request errors with 4xx and a GraphQL response body.
        if (
          status >= 400 &&
          status < 500 &&
          typeof contentType === "string" &&
          contentType.startsWith("application/graphql-response+json") &&
          response.body.length < ERROR_DETAIL_BYTES
        ) {
          try {
            readGraphqlResponse(response.body, route, false, secrets);
          } catch (error) {
            const reason =
              error instanceof InvocationError ? (error.details as { reason?: unknown }).reason : "";
            if (reason === "graphql-errors") throw error;
          }
        }
        const detail = redactSecrets(response.body.slice(0, 500), secrets);
        throw new InvocationError(
          "HTTP_STATUS",
          `${route}: the GraphQL server answered HTTP ${status}${detail ? `: ${detail}` : ""}`,
          { route, status, detail, retryAfter: response.headers["retry-after"] },
          { retryable: RETRYABLE_STATUS.has(status) },
        );
      }
      return readGraphqlResponse(response.body, route, execution.partialResults, secrets);
    },
  };
}

/**
 * The invoker of a binding: the locked URL (live-endpoint sources) or the binding's (SDL sources). A
 * URL other than the locked one is a binding-identity mismatch (LOCK_MISMATCH): recompile to move.
 */
export function createGraphqlBinding(
  tool: string,
  lockedUrl: string | undefined,
  settings: GraphqlBindingSettings,
): Invoker {
  if (settings === null || typeof settings !== "object")
    throw bindingInvalid("graphql", `bindings.${tool}: graphql must be an object.`, tool);
  const { url, ...options } = settings;
  if (lockedUrl === undefined) {
    if (url === undefined)
      throw bindingInvalid(
        "url",
        `bindings.${tool}: the GraphQL source was compiled from an SDL file, so the binding names the endpoint: { graphql: { url: "https://…/graphql" } }.`,
        tool,
      );
    return createGraphqlInvoker({ ...options, url });
  }
  if (url !== undefined) {
    let given: string;
    try {
      given = parseEndpointUrl(url).href;
    } catch (error) {
      throw new LoadError("LOCK_MISMATCH", `bindings.${tool}: ${(error as Error).message}`, {
        tool,
        reason: "binding-identity",
      });
    }
    if (given !== parseEndpointUrl(lockedUrl).href) {
      throw new LoadError(
        "LOCK_MISMATCH",
        `bindings.${tool}: the GraphQL endpoint ${given} is not the one that was compiled and locked (${lockedUrl}). Bind the locked endpoint, or change the source and recompile.`,
        { tool, reason: "binding-identity", expected: lockedUrl, actual: given },
      );
    }
  }
  return createGraphqlInvoker({ ...options, url: lockedUrl });
}

function parseEndpointUrl(value: unknown): Endpoint {
  if (typeof value !== "string" || value === "")
    throw bindingInvalid(
      "url",
      "GraphQL binding: url must be the endpoint URL, e.g. https://example.org/graphql.",
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bindingInvalid("url", `GraphQL binding: url "${value}" is not an absolute URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw bindingInvalid("url", "GraphQL binding: url must be http(s).");
  if (url.username || url.password)
    throw bindingInvalid("url", "GraphQL binding: url must not carry credentials; use headers.");
  if (url.hash) throw bindingInvalid("url", "GraphQL binding: url must not have a fragment.");
  return { origin: url.origin, path: `${url.pathname}${url.search}`, href: url.href };
}
