/**
 * Bounded document fetch for build-time sources (docs/trust-model.md §8): size and time limits, redirects
 * followed by hand and only within the original origin, and schema-fetch headers that never leave it.
 */

import { isLoopbackHost, sanitizeLocation } from "schemarouter/internal";
// Types only at the top: undici is loaded on the first request, so a compile of local documents never loads it.
import type { request } from "undici";
import { SourceError } from "../errors/errors.js";

export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
};

export interface FetchOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly allowInsecureHttp: boolean;
  readonly limits?: Partial<FetchLimits>;
  /** Aborts the fetch early (e.g. a deadline shared by several fetches). */
  readonly signal?: AbortSignal;
}

/** Checks a source URL: https, or http for loopback hosts (or when local config allows it); no credentials. */
export function checkSourceUrl(source: string, location: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new SourceError(source, "URL_NOT_ALLOWED", `"${sanitizeLocation(location)}" is not a valid URL.`);
  }
  if (url.username || url.password) {
    throw new SourceError(
      source,
      "URL_NOT_ALLOWED",
      "the URL carries credentials; remove them and use schemaHeaders with an environment variable instead.",
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new SourceError(
      source,
      "URL_NOT_ALLOWED",
      `plain http is only allowed for loopback hosts; use https, or set "allowInsecureHttp": true in the config.`,
      { location: sanitizeLocation(location) },
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SourceError(source, "URL_NOT_ALLOWED", `unsupported URL scheme ${url.protocol}`);
  }
  return url;
}

export async function fetchDocument(
  source: string,
  location: string,
  options: FetchOptions,
): Promise<Uint8Array> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  let url = checkSourceUrl(source, location, options.allowInsecureHttp);
  const origin = url.origin;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const deadline = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const undici = await import("undici");
  for (let redirects = 0; ; redirects++) {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await undici.request(url, {
        method: "GET",
        headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.5", ...options.headers },
        signal: deadline,
      });
    } catch (error) {
      throw new SourceError(
        source,
        "SOURCE_FETCH_FAILED",
        `fetching ${sanitizeLocation(url.toString())} failed (${errorName(error)}); check the URL and that the server is up.`,
        {},
        { cause: error },
      );
    }
    const status = response.statusCode;
    if (status >= 300 && status < 400) {
      await response.body.dump().catch(() => undefined);
      const target = response.headers.location;
      if (typeof target !== "string")
        throw new SourceError(source, "SOURCE_FETCH_FAILED", `redirect ${status} without a Location header`);
      let next: URL;
      try {
        next = new URL(target, url);
      } catch {
        throw new SourceError(
          source,
          "SOURCE_FETCH_FAILED",
          `redirect ${status} has an invalid Location header`,
        );
      }
      if (next.origin !== origin) {
        throw new SourceError(
          source,
          "SOURCE_REDIRECT_REFUSED",
          `the document redirected to another origin (${next.origin}); schema-fetch credentials never leave ${origin}. Point the source at the final URL if you trust it.`,
          { from: origin, to: next.origin },
        );
      }
      if (redirects >= limits.maxRedirects)
        throw new SourceError(source, "SOURCE_FETCH_FAILED", `more than ${limits.maxRedirects} redirects`);
      // Same origin, but the target must pass the same URL rules (e.g. no credentials).
      url = checkSourceUrl(source, next.toString(), options.allowInsecureHttp);
      continue;
    }
    if (status < 200 || status >= 300) {
      await response.body.dump().catch(() => undefined);
      throw new SourceError(
        source,
        "SOURCE_FETCH_FAILED",
        `fetching ${sanitizeLocation(url.toString())} answered HTTP ${status}.`,
        { status },
      );
    }
    return readLimited(source, response.body, response.headers["content-length"], limits.maxBytes);
  }
}

type AbandonableBody = AsyncIterable<Uint8Array> & {
  destroy(): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
};

/** Destroys a body nobody reads any more: undici reports that as an error event, which must not go unheard. */
function abandon(body: AbandonableBody): void {
  body.on("error", () => undefined);
  body.destroy();
}

async function readLimited(
  source: string,
  body: AbandonableBody,
  contentLength: string | string[] | undefined,
  maxBytes: number,
): Promise<Uint8Array> {
  if (typeof contentLength === "string" && Number(contentLength) > maxBytes) {
    abandon(body);
    throw new SourceError(
      source,
      "SOURCE_TOO_LARGE",
      `the document is ${contentLength} bytes, over the ${maxBytes}-byte limit.`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        abandon(body);
        throw new SourceError(source, "SOURCE_TOO_LARGE", `the document exceeds the ${maxBytes}-byte limit.`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(
      source,
      "SOURCE_FETCH_FAILED",
      `reading the document failed (${errorName(error)}).`,
      {},
      { cause: error },
    );
  }
  return Buffer.concat(chunks, size);
}

function errorName(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? code : error.name;
  }
  return "unknown error";
}
