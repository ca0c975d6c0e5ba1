/**
 * One bounded request of the OData transport: no redirects, the body read as a bounded stream
 * against the call's remaining byte budget, within the binding's timeout; non-success answers become
 * ODATA_ERROR with the service's text redacted of every trusted header value.
 */
import type { Dispatcher } from "undici";
import { InvocationError, InvocationUnavailableError } from "../../errors/errors.js";
import { abandonBody, describeCause, readBounded } from "../http/bounded-read.js";
import { deadlineSignal } from "../http/deadline.js";
import { redactSecrets, secretsOf } from "../http/redact-secrets.js";
import { odataError } from "./response.js";

/** Largest error body read for its message. */
const MAX_ERROR_BYTES = 64 * 1024;

export interface RequestTransport {
  readonly origin: string;
  readonly limits: { readonly maxBytes: number; readonly timeoutMs: number };
  /** Sent on every request (accept and the binding's trusted headers). */
  readonly headers: Readonly<Record<string, string>>;
  /** The binding's header values: never repeated in messages or details. */
  readonly secrets: readonly string[];
  readonly dispatcher: Dispatcher | undefined;
}

export async function sendRequest(
  transport: RequestTransport,
  url: URL,
  body: string | undefined,
  budget: { bytes: number },
  route: string,
  callSignal: AbortSignal,
): Promise<string> {
  const deadline = deadlineSignal(callSignal, transport.limits.timeoutMs);
  try {
    return await sendWithin(transport, url, body, budget, route, deadline.signal);
  } finally {
    deadline.release();
  }
}

async function sendWithin(
  transport: RequestTransport,
  url: URL,
  body: string | undefined,
  budget: { bytes: number },
  route: string,
  signal: AbortSignal,
): Promise<string> {
  let response: Dispatcher.ResponseData;
  try {
    // Loaded on the first request, not when the runtime is imported (cold start).
    const { request } = await import("undici");
    response = await request(url, {
      method: body === undefined ? "GET" : "POST",
      headers:
        body === undefined
          ? transport.headers
          : { ...transport.headers, "content-type": "application/json;IEEE754Compatible=true" },
      ...(body !== undefined ? { body } : {}),
      signal,
      ...(transport.dispatcher !== undefined ? { dispatcher: transport.dispatcher } : {}),
    });
  } catch (error) {
    throw new InvocationUnavailableError(
      `${route}: request to ${transport.origin} failed (${describeCause(error)}).`,
      { route, origin: transport.origin },
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
      `${route}: the OData service answered a redirect (${status}); redirects are not followed.`,
      { route, status },
    );
  }
  if (status < 200 || status >= 300) {
    let text = "";
    try {
      text = await readBounded(response.body, MAX_ERROR_BYTES, header("content-length"), route, signal);
    } catch {
      text = "";
    }
    throw odataError(route, status, redactSecrets(text, secretsOf(transport.secrets)), header("retry-after"));
  }
  if (status === 204) {
    abandonBody(response.body);
    return "";
  }
  let text: string;
  try {
    text = await readBounded(response.body, budget.bytes, header("content-length"), route, signal);
  } catch (error) {
    if (error instanceof InvocationError && error.code === "RESPONSE_TOO_LARGE") {
      const { maxBytes } = transport.limits;
      throw new InvocationError(
        "RESPONSE_TOO_LARGE",
        `${route}: the service's responses exceed the ${maxBytes}-byte limit of one call. Narrow the filter, lower top, or raise odata.maxBytes in the binding.`,
        { ...error.details, route, maxBytes },
        { cause: error },
      );
    }
    throw error;
  }
  budget.bytes -= Buffer.byteLength(text, "utf8");
  return text;
}
