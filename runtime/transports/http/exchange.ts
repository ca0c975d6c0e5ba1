/**
 * One HTTP request/response exchange on undici's dispatcher API (`Dispatcher.dispatch`), the layer
 * undici's own `request()` is built on. The transport needs only a status, three headers and a bounded
 * body, so it skips `request()`'s body stream, async iteration and per-request AbortSignals: one
 * handler object collects the body chunks, the invoker's deadline queue bounds the whole exchange, and
 * the caller's stop aborts it. A dispatcher of this undici gets the handler protocol `request()` itself
 * speaks (no adapter object and no parse of every response header per request); any other dispatcher
 * gets both protocols (docs/runtime/transports.md). Bounds are the same as a bounded stream read
 * (docs/trust-model.md §15): a declared Content-Length over the limit is refused before any body byte
 * is kept, received bytes are counted as they arrive, and an error body is sampled only up to a prefix.
 */
import type { Dispatcher } from "undici";
import { InvocationUnavailableError } from "../../errors/errors.js";
import { declaredLengthError, describeCause, tooLarge } from "./bounded-read.js";
import type { ExchangeDeadlines, Expiring } from "./exchange-deadlines.js";

type Undici = typeof import("undici");

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
  /** The invoker's time bound of every exchange (its `timeoutMs`). */
  readonly deadlines: ExchangeDeadlines;
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
  /** `content-length`, `content-type` and `retry-after` (the headers the transports read), when sent. */
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

/**
 * Sends one request through `dispatcher` (undici's global dispatcher when undefined) and resolves with
 * its bounded response, or rejects with a typed error.
 */
export function exchange(
  undici: Undici,
  dispatcher: Dispatcher | undefined,
  request: ExchangeRequest,
  limits: ExchangeLimits,
  /** Subscribes to the caller's stop (the run's onStop); returns the unsubscribe function. */
  onStop: ((listener: () => void) => () => void) | undefined,
): Promise<ExchangeResponse> {
  const target = dispatcher ?? undici.getGlobalDispatcher();
  return new Promise<ExchangeResponse>((resolve, reject) => {
    // undici's own dispatchers take request()'s protocol as is; others may speak either one.
    const handler =
      target instanceof undici.Dispatcher
        ? new ExchangeHandler(request.origin, limits, resolve, reject)
        : new EitherProtocolHandler(request.origin, limits, resolve, reject);
    handler.begin(onStop);
    if (handler.settled) return;
    try {
      target.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: request.method as Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body ?? null,
        },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      handler.fail(handler.interrupted(error));
    }
  });
}

/**
 * The dispatch handler of one exchange: its state and undici's callbacks as methods (one object per
 * request, no closure per callback), in the protocol undici's own `request()` uses (onConnect,
 * onHeaders, onData, onComplete, onError), which every undici major's dispatchers take directly.
 */
class ExchangeHandler implements Expiring {
  settled = false;
  deadline = 0;
  #abort: ((reason: Error) => void) | undefined;
  #timedOut = false;
  #status = 0;
  #headers: Headers = NO_HEADERS;
  #success = false;
  #limit: number;
  #received = 0;
  readonly #chunks: Buffer[] = [];
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly origin: string,
    private readonly limits: ExchangeLimits,
    private readonly resolve: (response: ExchangeResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.#limit = limits.maxBytes;
  }

  /** Puts the exchange under the invoker's deadline and subscribes to the caller's stop. */
  begin(onStop: ((listener: () => void) => () => void) | undefined): void {
    this.limits.deadlines.add(this);
    this.#unsubscribe = onStop?.(() => this.#abortWith(undefined));
  }

  /** The deadline passed (called by the deadline queue). */
  expire(): void {
    this.#timedOut = true;
    this.#abortWith(undefined);
  }

  #finish(): void {
    this.settled = true;
    this.limits.deadlines.delete(this);
    this.#unsubscribe?.();
  }

  fail(error: Error): void {
    if (this.settled) return;
    this.#finish();
    this.reject(error);
    this.#abort?.(error);
  }

  /** Resolves with what arrived; `sampled`: an error body cut at its prefix, whose rest is not read. */
  protected done(sampled: boolean): void {
    if (this.settled) return;
    this.#finish();
    const bytes = Buffer.concat(this.#chunks, this.#received);
    const success = this.#success;
    this.resolve({
      status: this.#status,
      headers: this.#headers,
      body: (success ? bytes : bytes.subarray(0, this.limits.errorBytes)).toString("utf8"),
      success,
    });
    if (sampled) this.#abort?.(new Error("error body sampled"));
  }

  interrupted(cause: unknown): Error {
    const { route } = this.limits;
    const timedOut = this.#timedOut;
    if (this.#status !== 0) {
      return new InvocationUnavailableError(
        `${route}: reading the response ${timedOut ? "timed out" : "was interrupted"}.`,
        { route },
        { cause },
      );
    }
    return new InvocationUnavailableError(
      `${route}: request to ${this.origin} ${timedOut ? `timed out after ${this.limits.deadlines.timeoutMs} ms` : `failed (${describeCause(cause)})`}.`,
      { route, origin: this.origin, reason: timedOut ? "timeout" : "connection" },
      { cause },
    );
  }

  /** The exchange broke: a sampled error body keeps what arrived (the status decides), anything else fails. */
  protected broken(cause: unknown): void {
    if (this.#status !== 0 && !this.#success) this.done(true);
    else this.fail(this.interrupted(cause));
  }

  #abortWith(reason: unknown): void {
    const error = new Error("aborted", { cause: reason });
    error.name = this.#timedOut ? "TimeoutError" : "AbortError";
    this.broken(error);
  }

  protected start(statusCode: number, responseHeaders: Headers): void {
    // 1xx informational responses precede the real one.
    if (statusCode < 200 || this.settled) return;
    const limits = this.limits;
    this.#status = statusCode;
    this.#headers = responseHeaders;
    const success =
      limits.successStatus.includes(statusCode) || (limits.successStatus.length === 0 && statusCode < 300);
    this.#success = success;
    if (!success) {
      this.#limit = limits.errorBytes;
      return;
    }
    const declared = limits.head ? undefined : responseHeaders["content-length"];
    const refused = declaredLengthError(
      typeof declared === "string" ? declared : undefined,
      limits.maxBytes,
      limits.route,
    );
    if (refused !== undefined) this.fail(refused);
  }

  protected data(chunk: Buffer): void {
    if (this.settled) return;
    this.#received += chunk.byteLength;
    this.#chunks.push(chunk);
    if (this.#received <= this.#limit) return;
    // An error body is only sampled: stop reading once the prefix is there.
    if (!this.#success) this.done(true);
    else this.fail(tooLarge(this.limits.route, this.limits.maxBytes, this.#received));
  }

  protected connected(abort: (reason: Error) => void): void {
    this.#abort = abort;
    if (this.settled) abort(new Error("settled"));
  }

  onConnect(abort: (reason: Error) => void): void {
    this.connected(abort);
  }

  onHeaders(statusCode: number, rawHeaders: readonly (Buffer | string)[]): boolean {
    this.start(statusCode, headersOf(rawHeaders));
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.data(chunk);
    return true;
  }

  onComplete(): void {
    this.done(false);
  }

  onError(error: Error): void {
    this.broken(error);
  }
}

/**
 * The handler for a dispatcher that is not this undici's own (a custom `dispatcher` option, or a
 * global dispatcher another copy of undici set): it may call undici 7's newer callbacks
 * (onRequestStart/onResponse*) or the older ones, so it has both.
 */
class EitherProtocolHandler extends ExchangeHandler {
  onRequestStart(started: Controller): void {
    this.connected((reason) => started.abort(reason));
  }

  onResponseStart(_controller: Controller, statusCode: number, responseHeaders: Headers): void {
    this.start(statusCode, responseHeaders);
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    this.data(chunk);
  }

  onResponseEnd(): void {
    this.done(false);
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.broken(error);
  }
}

const NO_HEADERS: Headers = Object.freeze({});

/** Header names the transports read, by length: a raw name of another length is not decoded. */
const READ_HEADERS = new Map([
  [14, "content-length"],
  [12, "content-type"],
  [11, "retry-after"],
]);

/** The headers the transports read, from undici's raw name/value list (names in any case). */
function headersOf(raw: readonly (Buffer | string)[]): Headers {
  const out: Headers = {};
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const rawName = raw[index]!;
    const wanted = READ_HEADERS.get(rawName.length);
    if (wanted === undefined) continue;
    const name = rawName.toString("latin1").toLowerCase();
    if (name !== wanted) continue;
    const value = raw[index + 1]!.toString("latin1");
    const known = out[name];
    out[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return out;
}
