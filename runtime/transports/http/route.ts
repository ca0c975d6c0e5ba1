/**
 * Request paths of HTTP endpoints: the template's `{name}` placeholders filled with encoded path
 * segments, query parameters appended, and the result confined to the binding's base path. Each
 * (frozen) endpoint contract is compiled once per base URL: placeholders resolved to parameters, the
 * template's literal text checked once, and per call only the values are encoded. A path that the
 * WHATWG URL parser could still rewrite (a segment starting with "." or a template that is not in
 * canonical form) takes the full URL-parsing route, as every path did before.
 */
import { CallRefusedError } from "../../errors/errors.js";
import type { EndpointSpec, ParameterSpec } from "../../model/specs.js";

export interface BaseUrl {
  readonly origin: string;
  readonly basePath: string;
}

interface CompiledRoute {
  /** Literal template text around the placeholders: `literals.length === placeholders.length + 1`. */
  readonly literals: readonly string[];
  readonly placeholders: readonly { readonly name: string; readonly parameter: ParameterSpec | undefined }[];
  readonly query: readonly ParameterSpec[];
  /** The literal text needs no normalization by the URL parser (checked once). */
  readonly canonical: boolean;
}

const PLACEHOLDER = /\{([^}]+)\}/g;

/** Per base URL (one per binding), per endpoint contract (whose `execution.path` is the template). */
const compiled = new WeakMap<BaseUrl, WeakMap<EndpointSpec, CompiledRoute>>();

function routeOf(base: BaseUrl, template: string, endpoint: EndpointSpec): CompiledRoute {
  let perBase = compiled.get(base);
  if (perBase === undefined) {
    perBase = new WeakMap();
    compiled.set(base, perBase);
  }
  let route = perBase.get(endpoint);
  if (route === undefined) {
    route = compile(base, template, endpoint);
    perBase.set(endpoint, route);
  }
  return route;
}

function compile(base: BaseUrl, template: string, endpoint: EndpointSpec): CompiledRoute {
  const byWire = new Map<string, ParameterSpec>();
  for (const parameter of endpoint.parameters) {
    if (parameter.location === "path") byWire.set(parameter.wireName ?? parameter.name, parameter);
  }
  const literals: string[] = [];
  const placeholders: { name: string; parameter: ParameterSpec | undefined }[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literals.push(template.slice(at, match.index));
    placeholders.push({ name: match[1]!, parameter: byWire.get(match[1]!) });
    at = match.index + match[0].length;
  }
  literals.push(template.slice(at));
  // With a plain segment in every placeholder, the URL parser must give back exactly the same text,
  // under the base path. No "%" in the literal text: "%" before a placeholder would join the encoded
  // value into another escape (value "2e" after "%" is "%2e", a dot to servers that decode it).
  const probe = base.basePath + literals.join("x");
  let canonical = false;
  if (probe.startsWith(`${base.basePath}/`) && !literals.some((text) => /[%\\?#]/.test(text))) {
    try {
      const url = new URL(base.origin + probe);
      canonical = url.origin === base.origin && url.pathname === probe;
    } catch {
      canonical = false;
    }
  }
  return {
    literals,
    placeholders,
    query: endpoint.parameters.filter((parameter) => parameter.location === "query"),
    canonical,
  };
}

/** The request path (with query string) of one call, confined to `base`. Throws CallRefusedError. */
export function requestPath(
  base: BaseUrl,
  template: string,
  endpoint: EndpointSpec,
  args: Readonly<Record<string, unknown>>,
  route: string,
  trustedQuery: ReadonlyMap<string, string>,
): string {
  const compiledRoute = routeOf(base, template, endpoint);
  let path = compiledRoute.literals[0]!;
  for (let index = 0; index < compiledRoute.placeholders.length; index++) {
    const { name, parameter } = compiledRoute.placeholders[index]!;
    path += segmentOf(name, parameter ? args[parameter.name] : undefined, route);
    path += compiledRoute.literals[index + 1]!;
  }
  const pathname = base.basePath + path;
  // Encoded values hold no "/", "\", "%2e" or "?": with canonical literal text, only a segment
  // starting with "." could still be rewritten; such paths (and every non-canonical template) are
  // parsed as a whole URL, as all paths were before routes were compiled.
  if (!compiledRoute.canonical || pathname.includes("/.") || !pathname.startsWith(`${base.basePath}/`)) {
    return parsedPath(base, pathname, compiledRoute.query, args, route, trustedQuery);
  }
  const params = queryOf(compiledRoute.query, args, route, trustedQuery, undefined);
  const search = params === undefined ? "" : params.toString();
  return search === "" ? pathname : `${pathname}?${search}`;
}

function segmentOf(name: string, value: unknown, route: string): string {
  if (value === undefined || value === null) {
    throw new CallRefusedError(
      "MISSING_REQUIRED_ARGUMENT",
      `${route}: path parameter "${name}" is missing.`,
      {
        route,
        argument: name,
      },
    );
  }
  const text = String(value);
  if (text === "" || text === "." || text === "..") {
    throw new CallRefusedError(
      "TRANSPORT_REFUSED",
      `${route}: path parameter "${name}" is ${text === "" ? "empty" : `"${text}"`}, which would address another resource; pass a real identifier.`,
      { route, argument: name },
    );
  }
  return encodePathSegment(text);
}

/**
 * The path and query as the URL parser normalizes them (a query string in the template is kept, the
 * parameters appended to it), refused when the path leaves the base path.
 */
function parsedPath(
  base: BaseUrl,
  pathname: string,
  query: readonly ParameterSpec[],
  args: Readonly<Record<string, unknown>>,
  route: string,
  trustedQuery: ReadonlyMap<string, string>,
): string {
  const url = new URL(base.origin + pathname);
  if (
    url.origin !== base.origin ||
    !(url.pathname === base.basePath || url.pathname.startsWith(`${base.basePath}/`))
  ) {
    throw new CallRefusedError("TRANSPORT_REFUSED", `${route}: the request path leaves the bound base URL.`, {
      route,
    });
  }
  // The template's own query string is document text: it must not carry a key that trusted
  // configuration injects, nor one a declared parameter sends (servers that read the first value would
  // take the document's). docs/trust-model.md §7.
  for (const key of new Set(url.searchParams.keys())) {
    if (
      isTrustedKey(trustedQuery, key) ||
      query.some((parameter) => (parameter.wireName ?? parameter.name).toLowerCase() === key.toLowerCase())
    ) {
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: the endpoint's path template sets query key "${key}", which only trusted runtime configuration or the declared parameter may set; recompile the source (schemarouter compile skips such templates).`,
        { route, parameter: key, reason: "template-query" },
      );
    }
  }
  queryOf(query, args, route, trustedQuery, url.searchParams);
  return url.pathname + url.search;
}

/** Appends the query arguments, then the trusted pairs, to `params` (made on demand when undefined). */
function queryOf(
  parameters: readonly ParameterSpec[],
  args: Readonly<Record<string, unknown>>,
  route: string,
  trustedQuery: ReadonlyMap<string, string>,
  into: URLSearchParams | undefined,
): URLSearchParams | undefined {
  let params = into;
  for (const parameter of parameters) {
    const value = args[parameter.name];
    if (value === undefined) continue;
    const name = parameter.wireName ?? parameter.name;
    if (isTrustedKey(trustedQuery, name)) {
      throw new CallRefusedError(
        "TRANSPORT_REFUSED",
        `${route}: query parameter "${name}" can only come from trusted runtime configuration (binding query).`,
        { route, parameter: name, reason: "trusted-query" },
      );
    }
    params ??= new URLSearchParams();
    if (Array.isArray(value)) for (const item of value) params.append(name, scalar(item));
    else params.append(name, scalar(value));
  }
  for (const [name, value] of trustedQuery) {
    params ??= new URLSearchParams();
    params.append(name, value);
  }
  return params;
}

/**
 * A key trusted configuration sets, compared without case: servers that read query keys
 * case-insensitively (ASP.NET, many gateways) would otherwise take `API_KEY=…` from a model for the
 * trusted `api_key` (docs/trust-model.md §7).
 */
function isTrustedKey(trustedQuery: ReadonlyMap<string, string>, name: string): boolean {
  if (trustedQuery.size === 0) return false;
  if (trustedQuery.has(name)) return true;
  const lower = name.toLowerCase();
  for (const key of trustedQuery.keys()) if (key.toLowerCase() === lower) return true;
  return false;
}

function scalar(value: unknown): string {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Encodes one path segment (`/`, `?`, `#` and `%` are escaped). The empty segment and the dot segments
 * `.` and `..` have no safe encoding (WHATWG URL parsing treats `%2E%2E` as `..`), so they throw.
 */
export function encodePathSegment(value: string): string {
  if (value === "" || value === "." || value === "..")
    throw new TypeError(`"${value}" cannot be a URL path segment`);
  // encodeURIComponent leaves these characters as they are: a value of only them is its own encoding
  // (checked in JS, not by the runtime's URI encoder, for the short identifiers most paths carry).
  return value.length <= 64 && isUnreserved(value) ? value : encodeURIComponent(value);
}

/** Whether `text` is only RFC 3986 unreserved characters (ALPHA, DIGIT, "-", ".", "_", "~"). */
function isUnreserved(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const unreserved =
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2d ||
      code === 0x2e ||
      code === 0x5f ||
      code === 0x7e;
    if (!unreserved) return false;
  }
  return true;
}
