/**
 * The OpenRPC transport: JSON-RPC 2.0 over HTTP POST to the locked endpoint (docs/sources/openrpc.md
 * "Transport"). One request per call with its own id (never a batch); the answer is read bounded by
 * the HTTP exchange (size, time, no redirects), must answer that id, and becomes `{ result }` or a
 * typed JSONRPC_ERROR carrying the server's code. Trusted headers come only from the binding.
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
import { requestBodyOf, resultOf } from "./envelope.js";

export interface OpenRpcLimits {
  /** Bound of every request (default 30 s). */
  readonly timeoutMs: number;
  /** Bytes of one response (default 16 MiB). */
  readonly maxResponseBytes: number;
}

export const DEFAULT_OPENRPC_LIMITS: OpenRpcLimits = {
  timeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
};

/** Bytes of a non-2xx body read (for a JSON-RPC error object it may carry). */
const ERROR_BODY_BYTES = 64 * 1024;
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export interface OpenRpcInvokerOptions extends Partial<OpenRpcLimits> {
  /** Trusted JSON-RPC endpoint, e.g. `https://rpc.example.org/` (the locked one). */
  readonly url: string;
  /** Trusted headers sent on every request (credentials live here, never in arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Custom undici Dispatcher; trusted local code only. */
  readonly dispatcher?: DispatcherLike;
  /** Sends `headers` over plain http to a host that is not loopback (see transports/http/plaintext.ts). */
  readonly allowPlaintextCredentials?: boolean;
}

function parseEndpointUrl(value: unknown): URL {
  if (typeof value !== "string" || value === "")
    throw bindingInvalid("url", "OpenRPC binding: url must be the JSON-RPC endpoint's URL.");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bindingInvalid("url", `OpenRPC binding: url "${value}" is not an absolute URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw bindingInvalid("url", "OpenRPC binding: url must be http(s).");
  if (url.username || url.password || url.hash)
    throw bindingInvalid(
      "url",
      "OpenRPC binding: url must not carry credentials or a fragment; use headers.",
    );
  return url;
}

export function createOpenRpcInvoker(options: OpenRpcInvokerOptions): Invoker {
  const url = parseEndpointUrl(options.url);
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const lower = name.toLowerCase();
    if (
      !isHeaderName(lower) ||
      lower === "__proto__" ||
      lower === "content-type" ||
      lower === "content-length"
    )
      throw bindingInvalid("headers", `OpenRPC binding: "${name}" cannot be a trusted header.`);
    if (typeof value !== "string" || /[^\t\x20-\x7e\x80-\xff]/.test(value))
      throw bindingInvalid(
        "headers",
        `OpenRPC binding: header "${name}" has a value with control characters.`,
      );
    headers[lower] = value;
  }
  checkPlaintextCredentials(
    "OpenRPC",
    url,
    { headers: Object.keys(headers).length, query: 0 },
    options.allowPlaintextCredentials,
  );
  const secrets = secretsOf(Object.values(headers));
  const redact = (text: string) => redactSecrets(text, secrets);
  const timeoutMs =
    positiveLimit("OpenRPC binding", "timeoutMs", options.timeoutMs) ?? DEFAULT_OPENRPC_LIMITS.timeoutMs;
  const maxBytes =
    positiveLimit("OpenRPC binding", "maxResponseBytes", options.maxResponseBytes) ??
    DEFAULT_OPENRPC_LIMITS.maxResponseBytes;
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  // One timer bounds every exchange of this invoker (docs/runtime/transports.md).
  const deadlines = new ExchangeDeadlines(timeoutMs);
  let undici: typeof import("undici") | undefined;
  let nextId = 1;
  return {
    async invoke(context: InvocationContext): Promise<unknown> {
      const { endpoint, tool } = context;
      const route = `${context.call.tool}.${context.call.endpoint}`;
      if (endpoint.execution.kind !== "openrpc" || tool.execution.transport !== "openrpc")
        throw new CallRefusedError(
          "BINDING_NOT_READY",
          `${route} is not an OpenRPC endpoint; bind it to its own transport.`,
          { route },
        );
      if (parseEndpointUrl(tool.execution.rpcUrl).href !== url.href)
        throw new CallRefusedError(
          "TRANSPORT_REFUSED",
          `${route}: the invoker is bound to ${url.href}, but the tool was compiled for ${tool.execution.rpcUrl}.`,
          { route, reason: "binding-identity" },
        );
      const id = nextId;
      nextId = nextId >= Number.MAX_SAFE_INTEGER ? 1 : nextId + 1;
      const body = requestBodyOf(endpoint, context.call.arguments, id, route);
      undici ??= await import("undici");
      const response = await exchange(
        undici,
        dispatcher,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json", ...headers },
          body,
        },
        { route, deadlines, maxBytes, errorBytes: ERROR_BODY_BYTES, successStatus: [], head: false },
        context.onStop ?? stopSourceOf(context.signal).onStop,
      );
      const status = response.status;
      if (status >= 300 && status < 400)
        throw new InvocationError(
          "TRANSPORT_REFUSED",
          `${route}: the server answered a redirect (${status}); redirects are not followed.`,
          { route, status },
        );
      let answer: unknown;
      try {
        answer = JSON.parse(response.body) as unknown;
      } catch (error) {
        if (!response.success) {
          const detail = redact(response.body.slice(0, 500));
          throw new InvocationError(
            "HTTP_STATUS",
            `${route}: the server answered HTTP ${status}${detail ? `: ${detail}` : ""}`,
            { route, status, detail, retryAfter: response.headers["retry-after"] },
            { retryable: RETRYABLE_STATUS.has(status) },
          );
        }
        throw new InvocationError(
          "RESPONSE_NOT_JSON",
          `${route}: the server's answer is not JSON.`,
          { route, status },
          { cause: error },
        );
      }
      if (!response.success) {
        // A JSON-RPC error object may come with a non-2xx status; anything else is the status.
        try {
          resultOf(route, answer, id, redact, status);
        } catch (error) {
          if (error instanceof InvocationError && error.code === "JSONRPC_ERROR") throw error;
        }
        const detail = redact(response.body.slice(0, 500));
        throw new InvocationError(
          "HTTP_STATUS",
          `${route}: the server answered HTTP ${status}${detail ? `: ${detail}` : ""}`,
          { route, status, detail, retryAfter: response.headers["retry-after"] },
          { retryable: RETRYABLE_STATUS.has(status) },
        );
      }
      return { result: resultOf(route, answer, id, redact) };
    },
  };
}

/** What a trusted OpenRPC binding configures; `url`, when given, must be the locked endpoint. */
export type OpenRpcBindingSettings = Omit<OpenRpcInvokerOptions, "url"> & { readonly url?: string };

/**
 * The invoker of a binding, bound to the locked endpoint (the trusted config's `url` at compile time).
 * A different URL is a binding-identity mismatch (LOCK_MISMATCH): recompile to move.
 */
export function createOpenRpcBinding(
  tool: string,
  lockedUrl: string,
  settings: OpenRpcBindingSettings,
): Invoker {
  const { url, ...options } = settings;
  if (url !== undefined) {
    const given = parseEndpointUrl(url).href;
    const locked = parseEndpointUrl(lockedUrl).href;
    if (given !== locked)
      throw new LoadError(
        "LOCK_MISMATCH",
        `bindings.${tool}: the JSON-RPC endpoint ${given} is not the one that was compiled and locked (${locked}). Bind the locked endpoint, or change the source's url and recompile.`,
        { tool, reason: "binding-identity", expected: locked, actual: given },
      );
  }
  return createOpenRpcInvoker({ ...options, url: lockedUrl });
}
