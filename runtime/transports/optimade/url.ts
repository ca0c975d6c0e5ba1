/**
 * OPTIMADE URLs (OPTIMADE v1.2 "Base URL", "Entry Listing URL Query Parameters"): the trusted
 * versioned base URL, request URLs built from validated arguments and the planned response_fields,
 * and the rule that pagination links stay on the listing endpoint of the bound origin and base path.
 */
import { InvocationError } from "../../errors/errors.js";
import type { EndpointSpec, FieldSpec } from "../../model/specs.js";
import { encodePathSegment } from "../http/transport.js";

/** A versioned base path segment: `v1`, `v1.2`, `v1.2.0`. */
export const VERSION_SEGMENT = /^v(\d+)(?:\.\d+){0,2}$/;

export interface OptimadeBase {
  readonly origin: string;
  /** Path of the versioned base URL without a trailing slash, e.g. `/optimade/v1`. */
  readonly basePath: string;
  /** `origin + basePath`: the canonical form stored in the tool's execution identity. */
  readonly href: string;
}

/**
 * Parses and normalizes a base URL: http(s), no credentials, query string or fragment, trailing
 * slashes removed. Throws TypeError with a message naming the problem.
 */
export function parseOptimadeBaseUrl(value: string): OptimadeBase {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`OPTIMADE base URL "${value}" is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`OPTIMADE base URL must be http(s), got ${url.protocol}`);
  if (url.username || url.password)
    throw new TypeError("OPTIMADE base URL must not carry credentials; use trusted binding headers");
  if (url.search || url.hash)
    throw new TypeError("OPTIMADE base URL must not have a query string or fragment");
  const basePath = url.pathname.replace(/\/+$/, "");
  return { origin: url.origin, basePath, href: `${url.origin}${basePath}` };
}

/** The major version named by the last path segment (`/v1` → 1), or undefined for an unversioned URL. */
export function versionOfBasePath(basePath: string): number | undefined {
  const last = basePath.split("/").at(-1) ?? "";
  const match = VERSION_SEGMENT.exec(last);
  return match === null ? undefined : Number(match[1]);
}

/** The path of an endpoint's resource: `/<entry type>` or `/<entry type>/<id>`. */
export function endpointPath(base: OptimadeBase, entryType: string, id?: string): string {
  const segments = [encodePathSegment(entryType), ...(id === undefined ? [] : [encodePathSegment(id)])];
  return `${base.basePath}/${segments.join("/")}`;
}

/**
 * The response_fields selectors of the planned fields: `always` first, then in field order, unique.
 * Undefined (send none: the provider's default fields) when there is no trusted projection, or when
 * a planned attribute field has no selector (e.g. one added by an overlay): the server is never
 * asked for less than the plan needs.
 */
export function projectionSelectors(
  endpoint: EndpointSpec,
  fields: readonly FieldSpec[],
): string[] | undefined {
  const projection = endpoint.serverProjection;
  if (projection === undefined) return undefined;
  const out = new Set(projection.always);
  for (const field of fields) {
    const selector = projection.selectors[field.id];
    if (selector !== undefined) out.add(selector);
    else if (isAttributePath(field.path)) return undefined;
  }
  return [...out];
}

/** A path into the attributes of an entry (`data.*.attributes…`, `data.attributes…`). */
function isAttributePath(path: readonly string[]): boolean {
  const rest = path[1] === "*" ? path.slice(2) : path.slice(1);
  return path[0] === "data" && rest[0] !== "id" && rest[0] !== "type";
}

/** The first request URL of a call: query parameters from the validated arguments, then response_fields. */
export function requestUrl(
  base: OptimadeBase,
  path: string,
  endpoint: EndpointSpec,
  args: Readonly<Record<string, unknown>>,
  selectors: readonly string[] | undefined,
): URL {
  const url = new URL(`${base.origin}${path}`);
  const projection = endpoint.serverProjection;
  for (const parameter of endpoint.parameters) {
    if (parameter.location !== "query" || parameter.name === projection?.parameter) continue;
    const value = args[parameter.name];
    if (value === undefined) continue;
    url.searchParams.append(parameter.wireName ?? parameter.name, String(value));
  }
  if (projection !== undefined && selectors !== undefined) {
    url.searchParams.set(projection.parameter, selectors.join(projection.separator));
  }
  return url;
}

/**
 * Resolves a pagination link and refuses it unless it stays on the same listing endpoint of the
 * bound origin (credentials and the page budget never follow a link elsewhere).
 */
export function checkNextLink(next: string, current: URL, base: OptimadeBase, route: string): URL {
  let url: URL;
  try {
    url = new URL(next, current);
  } catch {
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: the provider's links.next is not a valid URL; pagination stopped.`,
      { route, reason: "next-invalid" },
    );
  }
  if (url.origin !== base.origin) {
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: links.next points to another origin (${url.origin}); pagination only follows links on ${base.origin}${base.basePath}.`,
      { route, reason: "next-origin", origin: url.origin },
    );
  }
  if (url.username || url.password || url.pathname !== current.pathname) {
    throw new InvocationError(
      "TRANSPORT_REFUSED",
      `${route}: links.next leaves the listing endpoint ${current.pathname} (it points to ${url.pathname}); pagination only follows links within the bound base path.`,
      { route, reason: "next-path", path: url.pathname },
    );
  }
  url.hash = "";
  return url;
}
