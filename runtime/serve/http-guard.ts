/**
 * The checks every HTTP request passes before the MCP transport sees it (docs/serve.md, "HTTP
 * security"): path, Host (DNS rebinding), Origin (browsers), bearer token. The token is compared in
 * constant time, and the client's `Authorization` header is removed from the request once checked.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { invalid } from "./catalog.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127(?:\.\d{1,3}){3}$/.test(name);
}

export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HttpGuard {
  /** Undefined when the request may go on (its Authorization header is then gone). */
  check(request: IncomingMessage): Refusal | undefined;
}

export interface GuardInput {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly options: {
    readonly token?: string;
    readonly allowedHosts?: readonly string[];
    readonly allowedOrigins?: readonly string[];
  };
}

export function guardOf({ host, path, options }: GuardInput): HttpGuard {
  const loopback = isLoopbackHost(host);
  const hosts = new Set((options.allowedHosts ?? []).map((name) => name.toLowerCase()));
  if (loopback) for (const name of LOOPBACK_NAMES) hosts.add(name);
  const origins = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
  const token = options.token !== undefined ? digest(options.token) : undefined;
  return {
    check(request) {
      const url = request.url ?? "/";
      const pathname = url.split("?", 1)[0];
      if (pathname !== path) return { status: 404, message: `Not found: the MCP endpoint is ${path}` };
      // Behind a loopback binding (or with allowedHosts), only known host names: DNS rebinding.
      if (hosts.size > 0) {
        const name = hostnameOf(request.headers.host);
        if (name === undefined || !hosts.has(name))
          return { status: 403, message: "Forbidden: Host header not allowed" };
      }
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, origins))
        return { status: 403, message: "Forbidden: Origin not allowed" };
      if (token !== undefined) {
        const given = bearerOf(request.headers.authorization);
        if (given === undefined || !timingSafeEqual(digest(given), token)) {
          return {
            status: 401,
            message: "Unauthorized: send Authorization: Bearer <token>",
            headers: { "www-authenticate": 'Bearer realm="schemarouter"' },
          };
        }
      }
      stripAuthorization(request);
      return undefined;
    },
  };
}

/** Validates an allowed origin (scheme://host[:port]). */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.origin === "null" || url.href.replace(/\/$/, "") !== url.origin) throw new Error("not an origin");
    return url.origin;
  } catch {
    throw invalid(
      "http.allowedOrigins",
      `${JSON.stringify(origin)} is not an origin (scheme://host[:port]).`,
    );
  }
}

function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.has(url.origin)) return true;
  return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname);
}

function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined || header.length === 0) return undefined;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function bearerOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Removes the client's credential from the parsed and the raw headers. */
function stripAuthorization(request: IncomingMessage): void {
  delete request.headers.authorization;
  const raw = request.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === "authorization") raw.splice(i, 2);
  }
}
