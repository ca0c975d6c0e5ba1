/**
 * One bounded GET of the OPTIMADE transport: no redirects, the body read as a bounded stream against
 * the call's remaining byte budget, non-success answers turned into typed errors with the
 * provider's `detail` (OPTIMADE v1.2 "HTTP Response Status Codes").
 */
import type { Dispatcher } from "undici";
import { InvocationError, InvocationUnavailableError } from "../../errors/errors.js";
import { abandonBody, describeCause, readBounded } from "../http/bounded-read.js";
import { deadlineSignal } from "../http/deadline.js";
import { redactSecrets, secretsOf } from "../http/redact-secrets.js";
import { statusError } from "./response.js";
import type { OptimadeBase } from "./url.js";

/** Largest error document read for its `detail`. */
const MAX_ERROR_BYTES = 64 * 1024;

/** What one page fetch needs of the transport. */
export interface PageTransport {
  readonly base: OptimadeBase;
  readonly limits: { readonly maxBytes: number; readonly timeoutMs: number };
  readonly headers: Readonly<Record<string, string>>;
  readonly dispatcher: Dispatcher | undefined;
}

/** One bounded GET within the transport's timeout; non-success answers become typed errors. */
export async function fetchPage(
  transport: PageTransport,
  url: URL,
  budget: { bytes: number },
  route: string,
  callSignal: AbortSignal,
): Promise<string> {
  const deadline = deadlineSignal(callSignal, transport.limits.timeoutMs);
  try {
    return await fetchWithin(transport, url, budget, route, deadline.signal);
  } finally {
    deadline.release();
  }
}

async function fetchWithin(
  transport: PageTransport,
  url: URL,
  budget: { bytes: number },
  route: string,
  signal: AbortSignal,
): Promise<string> {
  let response: Dispatcher.ResponseData;
  try {
    // Loaded on the first page fetch, not when the runtime is imported (cold start).
    const { request } = await import("undici");
    response = await request(url, {
      method: "GET",
      headers: transport.headers,
      signal,
      ...(transport.dispatcher !== undefined ? { dispatcher: transport.dispatcher } : {}),
    });
  } catch (error) {
    throw new InvocationUnavailableError(
      `${route}: request to ${transport.base.origin} failed (${describeCause(error)}).`,
      { route, origin: transport.base.origin },
      { cause: error },
    );
  }
  const status = response.statusCode;
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return typeof value === "string" ? value : undefined;
  };
  if (status >= 300 && status < 400) {
    abandonBody(response.body);
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: the provider answered a redirect (${status}); redirects are not followed.`,
      {
        route,
        status,
      },
    );
  }
  if (status < 200 || status >= 300) {
    let text = "";
    try {
      text = await readBounded(response.body, MAX_ERROR_BYTES, header("content-length"), route, signal);
    } catch {
      text = "";
    }
    // The provider may echo a trusted header back: its values never reach messages or details.
    const secrets = secretsOf(
      Object.entries(transport.headers).flatMap(([name, value]) => (name === "accept" ? [] : [value])),
    );
    throw statusError(route, status, redactSecrets(text, secrets), header("retry-after"));
  }
  let text: string;
  try {
    text = await readBounded(response.body, budget.bytes, header("content-length"), route, signal);
  } catch (error) {
    if (error instanceof InvocationError && error.code === "RESPONSE_TOO_LARGE") {
      const { maxBytes } = transport.limits;
      throw new InvocationError(
        "RESPONSE_TOO_LARGE",
        `${route}: the provider's responses exceed the ${maxBytes}-byte limit of one call. Narrow the filter, lower page_limit, or raise optimade.maxBytes in the binding.`,
        { ...error.details, route, maxBytes },
        { cause: error },
      );
    }
    throw error;
  }
  budget.bytes -= Buffer.byteLength(text, "utf8");
  return text;
}
