/**
 * One HTTP request/response exchange on undici's dispatcher API (`Dispatcher.dispatch`), the layer
 * undici's own `request()` is built on. The transport needs only a status, two headers and a bounded
 * body, so it skips `request()`'s body stream, async iteration and per-request AbortSignals: one
 * handler object collects the body chunks, one timer bounds the whole exchange, and the caller's signal
 * is forwarded to the dispatch controller. Bounds are the same as a bounded stream read
 * (docs/trust-model.md §15): a declared Content-Length over the limit is refused before any body byte
 * is kept, received bytes are counted as they arrive, and an error body is sampled only up to a prefix.
 */
import type { Dispatcher } from "undici";
import { InvocationUnavailableError } from "../../errors/errors.js";
import { declaredLengthError, describeCause, tooLarge } from "./bounded-read.js";

export interface ExchangeRequest {
  readonly origin: string;
  /** Path and query string, already normalized and confined by the caller. */
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
}

export interface ExchangeLimits {
  readonly route: string;
  readonly timeoutMs: number;
  /** Bytes of a success body (declared and received). */
  readonly maxBytes: number;
  /** Bytes of a non-success body kept for diagnostics; the rest is not read. */
  readonly errorBytes: number;
  /** Success statuses: listed ones, or any 2xx when the list is empty. */
  readonly successStatus: readonly number[];
  /** HEAD responses declare a length they never send. */
  readonly head: boolean;
}

export interface ExchangeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The whole body for a success status; at most `errorBytes` of it otherwise. */
  readonly body: string;
  readonly success: boolean;
}

/** The controller undici passes to a dispatch handler (structural: only what is used here). */
interface Controller {
  abort(reason: Error): void;
}

type Headers = Record<string, string | string[] | undefined>;

/** Sends one request through `dispatcher` and resolves with its bounded response, or rejects with a typed error. */
export function exchange(
  dispatcher: Dispatcher,
  request: ExchangeRequest,
  limits: ExchangeLimits,
  /** Subscribes to the caller's stop (the run's onStop); returns the unsubscribe function. */
  onStop: ((listener: () => void) => () => void) | undefined,
): Promise<ExchangeResponse> {
  return new Promise<ExchangeResponse>((resolve, reject) => {
    const { route } = limits;
    let controller: Controller | undefined;
    let settled = false;
    let timedOut = false;
    let status = 0;
    let headers: Headers = {};
    let success = false;
    let limit = limits.maxBytes;
    let received = 0;
    const chunks: Buffer[] = [];

    let unsubscribe: (() => void) | undefined;
    const finish = (): void => {
      settled = true;
      clearTimeout(timer);
      unsubscribe?.();
    };
    const fail = (error: Error): void => {
      if (settled) return;
      finish();
      reject(error);
      controller?.abort(error);
    };
    /** Resolves with what arrived; `sampled`: an error body cut at its prefix, whose rest is not read. */
    const done = (sampled: boolean): void => {
      if (settled) return;
      finish();
      const bytes = Buffer.concat(chunks, received);
      resolve({
        status,
        headers,
        body: (success ? bytes : bytes.subarray(0, limits.errorBytes)).toString("utf8"),
        success,
      });
      if (sampled) controller?.abort(new Error("error body sampled"));
    };
    const interrupted = (cause: unknown): Error => {
      if (status !== 0) {
        return new InvocationUnavailableError(
          `${route}: reading the response ${timedOut ? "timed out" : "was interrupted"}.`,
          { route },
          { cause },
        );
      }
      return new InvocationUnavailableError(
        `${route}: request to ${request.origin} ${timedOut ? `timed out after ${limits.timeoutMs} ms` : `failed (${describeCause(cause)})`}.`,
        { route, origin: request.origin, reason: timedOut ? "timeout" : "connection" },
        { cause },
      );
    };
    /** The exchange broke: a sampled error body keeps what arrived (the status decides), anything else fails. */
    const broken = (cause: unknown): void => {
      if (status !== 0 && !success) done(true);
      else fail(interrupted(cause));
    };
    const abortWith = (reason: unknown): void => {
      const error = new Error("aborted", { cause: reason });
      error.name = timedOut ? "TimeoutError" : "AbortError";
      broken(error);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      abortWith(undefined);
    }, limits.timeoutMs);
    timer.unref();
    unsubscribe = onStop?.(() => abortWith(undefined));
    if (settled) return;

    const start = (statusCode: number, responseHeaders: Headers): void => {
      // 1xx informational responses precede the real one.
      if (statusCode < 200 || settled) return;
      status = statusCode;
      headers = responseHeaders;
      success =
        limits.successStatus.includes(statusCode) || (limits.successStatus.length === 0 && statusCode < 300);
      if (!success) {
        limit = limits.errorBytes;
        return;
      }
      const declared = limits.head ? undefined : responseHeaders["content-length"];
      const refused = declaredLengthError(
        typeof declared === "string" ? declared : undefined,
        limits.maxBytes,
        route,
      );
      if (refused !== undefined) fail(refused);
    };
    const data = (chunk: Buffer): void => {
      if (settled) return;
      received += chunk.byteLength;
      chunks.push(chunk);
      if (received <= limit) return;
      // An error body is only sampled: stop reading once the prefix is there.
      if (!success) done(true);
      else fail(tooLarge(route, limits.maxBytes, received));
    };
    const connected = (started: Controller): void => {
      controller = started;
      if (settled) started.abort(new Error("settled"));
    };
    // undici 7 calls the onRequestStart/onResponse* methods; a dispatcher of an earlier undici major
    // (a custom `dispatcher` option) calls the older onConnect/onHeaders/onData/onComplete/onError.
    const handler = {
      onRequestStart: (started: Controller) => connected(started),
      onResponseStart: (_controller: Controller, statusCode: number, responseHeaders: Headers) =>
        start(statusCode, responseHeaders),
      onResponseData: (_controller: Controller, chunk: Buffer) => data(chunk),
      onResponseEnd: () => done(false),
      onResponseError: (_controller: Controller, error: Error) => broken(error),
      onConnect: (abort: (reason: Error) => void) => connected({ abort }),
      onHeaders: (statusCode: number, rawHeaders: readonly (Buffer | string)[]) => {
        start(statusCode, headersOf(rawHeaders));
        return true;
      },
      onData: (chunk: Buffer) => {
        data(chunk);
        return true;
      },
      onComplete: () => done(false),
      onError: (error: Error) => broken(error),
    } as unknown as Dispatcher.DispatchHandler;
    try {
      dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: request.method as Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body ?? null,
        },
        handler,
      );
    } catch (error) {
      fail(interrupted(error));
    }
  });
}

/** The two response headers the transport reads, from an older undici's raw name/value list. */
function headersOf(raw: readonly (Buffer | string)[]): Headers {
  const out: Headers = {};
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toString("latin1").toLowerCase();
    if (name !== "content-length" && name !== "retry-after") continue;
    const value = raw[index + 1]!.toString("latin1");
    const known = out[name];
    out[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return out;
}
