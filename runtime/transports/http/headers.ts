/**
 * Headers that only trusted runtime configuration may set (docs/trust-model.md §7): credentials, routing,
 * connection framing, and the headers servers and proxies read as another path, method or client
 * (X-Original-URL and X-Rewrite-URL replace the request path on some frameworks; the method-override
 * headers turn a request into another method). They are never tool parameters.
 */
const SENSITIVE = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-api-key",
  "api-key",
  "private-token",
  "x-original-url",
  "x-rewrite-url",
  "x-http-method-override",
  "x-http-method",
  "x-method-override",
  "x-forwarded-prefix",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-forwarded-scheme",
  "x-forwarded-ssl",
  "x-real-ip",
  "x-client-ip",
  "x-original-forwarded-for",
  "true-client-ip",
  "cf-connecting-ip",
  "via",
]);

/** An RFC 9110 §5.1 field name: a non-empty token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

export function isSensitiveHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE.has(lower) || lower.startsWith("proxy-") || lower.startsWith("sec-");
}
