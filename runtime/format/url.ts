/**
 * URL hygiene shared by compiler and runtime: provenance is persisted without userinfo, query string
 * or fragment, and plain http is only for loopback hosts unless local config allows it.
 */

/**
 * Removes userinfo, query string and fragment from every URL form a document can hold: absolute
 * (`https://user:pw@host/p?q#f`), protocol-relative (`//user:pw@host/p?q`) and relative (`/v1?key=…`,
 * `v1#frag`). docs/trust-model.md (core invariants: provenance never exposes userinfo, query or fragment).
 */
export function sanitizeLocation(location: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    try {
      const url = new URL(location);
      url.username = "";
      url.password = "";
      url.search = "";
      url.hash = "";
      return url.toString();
    } catch {
      return "(invalid URL)";
    }
  }
  if (location.startsWith("//")) {
    const absolute = sanitizeLocation(`https:${location}`);
    return absolute === "(invalid URL)" ? absolute : absolute.slice("https:".length);
  }
  return withoutQueryOrFragment(location);
}

/** The text before the first `?` or `#`. */
export function withoutQueryOrFragment(location: string): string {
  const end = location.search(/[?#]/);
  return end < 0 ? location : location.slice(0, end);
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function isUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}
