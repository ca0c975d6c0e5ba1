/**
 * The explicit API base URL of an approved proposal (docs/sources/proposals.md, "Approval"): checked by
 * `schemarouter approve` and again whenever the approved source compiles.
 */
import { isLoopbackHost } from "schemarouter/internal";
import { ConfigError } from "../../errors/errors.js";

/** The explicit base URL: http(s), no credentials, query or fragment; plain http only to loopback. */
export function checkBaseUrl(value: string | undefined, path: string, allowInsecureHttp: boolean): string {
  const refuse = (why: string): never => {
    throw new ConfigError("PROPOSAL_REFUSED", `${why} (e.g. --base-url https://api.example.com/v1).`, {
      path,
      reason: "base-url",
    });
  };
  if (value === undefined || value === "")
    return refuse(
      "approving a proposal needs the API's base URL: a documentation page does not say where to send calls, and it is never guessed; pass --base-url",
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(`--base-url "${value}" is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("--base-url must be http(s)");
  if (url.username !== "" || url.password !== "")
    return refuse("--base-url must not carry credentials; bind headers at run time instead");
  if (url.search !== "" || url.hash !== "")
    return refuse("--base-url must not have a query string or fragment");
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !allowInsecureHttp)
    return refuse(
      '--base-url is plain http to a host that is not loopback; use https, or set "allowInsecureHttp": true',
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
