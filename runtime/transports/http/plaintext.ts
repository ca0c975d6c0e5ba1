/**
 * Credentials never cross a network in plain text by accident: a binding whose base URL is `http://` to a
 * host that is not loopback may not carry trusted headers or query parameters unless local code opts in
 * with `allowPlaintextCredentials: true` (docs/runtime/transports.md).
 */
import { isLoopbackHost } from "../../format/url.js";

export function checkPlaintextCredentials(
  binding: string,
  url: URL,
  credentials: { readonly headers: number; readonly query: number },
  allowPlaintextCredentials: boolean | undefined,
): void {
  if (url.protocol !== "http:" || isLoopbackHost(url.hostname) || allowPlaintextCredentials === true) return;
  if (credentials.headers === 0 && credentials.query === 0) return;
  const what = credentials.headers > 0 ? "headers" : "query parameters";
  throw new TypeError(
    `${binding} binding: baseUrl ${url.origin} is plain http to a host that is not loopback, and the binding has trusted ${what} (credentials) that anyone on the network could read; use https, or set allowPlaintextCredentials: true if this network is trusted.`,
  );
}
