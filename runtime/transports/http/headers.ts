/**
 * Headers that only trusted runtime configuration may set (docs/trust-model.md §7): credentials, routing and
 * connection framing. They are never tool parameters.
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
]);

export function isSensitiveHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE.has(lower) || lower.startsWith("proxy-") || lower.startsWith("sec-");
}
